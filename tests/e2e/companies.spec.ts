import sharp from 'sharp';
import { expectAccessible, open, placeAdAsMember, signUpMember } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

// A company from the back office to the public pages (docs/product/companies.md, back-office.md
// "Companies"): staff create a company with a logo, verify it and add a member as its agent; the
// member's ad, once approved, is listed on /companies/{slug} with the company's name and logo, its
// card and its page show the company, and the search's seller filter "Companies" finds it.

async function signInAsAdmin(page: Page, redirect: string) {
  await open(page, `/en/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel('Email or phone number').fill('admin@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('a company with a logo and an agent: its ad shows it everywhere', async ({ browser, baseURL, page }) => {
  const run = Date.now().toString(36);
  const slug = `e2e-motors-${run}`;
  const companyName = `E2E Motors ${run}`;
  const title = `Toyota Corolla dealer ${run}`;
  const memberContext = await browser.newContext({ baseURL });
  const email = await signUpMember(memberContext, baseURL, `Agent ${run}`);

  // Staff create the company, verified.
  await signInAsAdmin(page, '/en/admin/companies/new');
  await expect(page.getByRole('heading', { name: 'New company', level: 1 })).toBeVisible();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await page.getByLabel('Name in Arabic').fill(`معرض التجربة ${run}`);
  await page.getByLabel('Name in English').fill(companyName);
  await page.getByLabel('Address name').fill(slug);
  await page.getByLabel('Verified company').check();
  await page.getByRole('button', { name: 'Add company' }).click();
  await expect(page.getByRole('heading', { name: companyName, level: 1 })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('Created.');

  // Its logo: an image checked and re-encoded by the server.
  const logo = await sharp({ create: { width: 300, height: 120, channels: 3, background: { r: 200, g: 30, b: 60 } } })
    .png()
    .toBuffer();
  await page.getByLabel('Logo image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
  await page.getByRole('button', { name: 'Upload logo' }).click();
  await expect(page.getByAltText('The company’s logo')).toHaveAttribute(
    'src',
    /\/uploads\/companies\/\d+\/.+-large\.webp$/,
  );

  // The member joins as an agent.
  await page.getByLabel('Member’s email or phone number').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption('agent');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const members = page.getByRole('list', { name: 'Members of the company' });
  await expect(members).toContainText(`Agent ${run}`);
  await expect(members.getByRole('combobox', { name: `Role of Agent ${run}` })).toHaveValue('agent');
  await expectAccessible(page);

  // The agent posts an ad; staff approve it.
  const ad = await placeAdAsMember(memberContext, baseURL, { title });
  expect(ad.status).toBe('pending');
  await open(page, '/en/admin/posts');
  await page.getByRole('button', { name: `Approve: ${title}` }).click();
  await expect(page.getByText('1 ad approved and published.')).toBeVisible();
  await memberContext.close();

  // The company's public page lists it, with the company's name, logo and verified mark.
  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await open(visitor, `/en/companies/${slug}`);
  await expect(visitor.getByRole('heading', { name: companyName, level: 1 })).toBeVisible();
  await expect(visitor.getByText('Verified company').first()).toBeVisible();
  await expect(visitor.locator('main img[src*="/uploads/companies/"]').first()).toBeVisible();
  const card = visitor.getByRole('link', { name: new RegExp(title) });
  await expect(card).toBeVisible();
  // The card shows the company: its small logo and its name.
  await expect(card).toContainText(companyName);
  await expect(card.locator('img[src*="/uploads/companies/"][src$="-small.webp"]')).toBeVisible();
  await expectAccessible(visitor);

  // The ad's page shows the company, linking to its page.
  await card.click();
  await expect(visitor.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  const companyLink = visitor.getByRole('link', { name: new RegExp(companyName) });
  await expect(companyLink.first()).toHaveAttribute('href', `/en/companies/${slug}`);

  // The search's seller filter: companies find it, individuals do not.
  const found = visitor.locator(`main a[href$="-${ad.id}"]`);
  await open(visitor, `/en/posts?${new URLSearchParams({ q: title, seller: 'company' })}`);
  await expect(visitor.getByRole('link', { name: 'Remove filter: Companies' })).toBeVisible();
  await expect(found).toBeVisible();
  await expect(found).toContainText(companyName);
  await open(visitor, `/en/posts?${new URLSearchParams({ q: title, seller: 'individual' })}`);
  await expect(visitor.getByRole('link', { name: 'Remove filter: Individuals' })).toBeVisible();
  await expect(found).toHaveCount(0);

  // In Arabic, the company page reads right to left with its Arabic name.
  await open(visitor, `/companies/${slug}`);
  await expect(visitor.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(visitor.getByRole('heading', { name: `معرض التجربة ${run}`, level: 1 })).toBeVisible();
  await visitor.context().close();
});
