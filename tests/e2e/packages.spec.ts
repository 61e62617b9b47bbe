import { expectAccessible, open, placeAdAsMember, signUpMember } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

// Granting a package raises a member's quota (docs/product/back-office.md, "Packages"): a member at
// the free allowance cannot place another ad; staff create a package and grant it with the bank
// transfer's reference; the member's form then offers more places, the next ad is placed, and
// /profile shows the package with what is left of it.

const TOYOTA = '/en/place-your-ad/motors/cars/toyota';

async function signInAsAdmin(page: Page, redirect: string) {
  await open(page, `/en/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel('Email or phone number').fill('admin@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('granting a package raises a member’s quota', async ({ browser, baseURL, page }) => {
  const run = Date.now().toString(36);
  const memberContext = await browser.newContext({ baseURL });
  const email = await signUpMember(memberContext, baseURL, `Quota ${run}`);
  for (let i = 1; i <= 5; i++) await placeAdAsMember(memberContext, baseURL, { title: `Quota car ${run} ${i}` });

  // At the free allowance: the form says so and a sixth ad is refused.
  const member = await memberContext.newPage();
  await open(member, TOYOTA);
  await expect(member.getByText('You can post 0 more ads (your allowance: 5 active ads).')).toBeVisible();
  await expect(placeAdAsMember(memberContext, baseURL, { title: `Quota car ${run} 6` })).rejects.toThrow();
  await open(member, '/en/profile');
  await expect(member.getByText('You have no package.')).toBeVisible();

  // Staff create a package and grant it.
  const name = `Dealer ${run}`;
  await signInAsAdmin(page, '/en/admin/packages/new');
  await expect(page.getByRole('heading', { name: 'New package', level: 1 })).toBeVisible();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await page.getByLabel('Name in Arabic').fill(`تاجر ${run}`);
  await page.getByLabel('Name in English').fill(name);
  await page.getByLabel('Price').fill('300');
  await page.getByLabel('Duration (days)').fill('30');
  await page.getByLabel('Extra active ads').fill('10');
  await page.getByLabel('Featured ads').fill('2');
  await page.getByLabel('Reposts').fill('4');
  await page.getByRole('button', { name: 'Create the package' }).click();
  await expect(page.getByRole('heading', { name: 'Packages', level: 1 })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('Created.');
  await expect(page.getByRole('link', { name })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Grant a package' }).click();
  await expect(page.getByRole('heading', { name: 'Grant a package', level: 1 })).toBeVisible();
  await page.getByLabel('Member').fill(email);
  const option = await page.locator('select[name="package_id"] option', { hasText: name }).getAttribute('value');
  await page.getByLabel('Package').selectOption(option as string);
  await page.getByLabel('Payment reference').fill(`TRF-${run}`);
  await page.getByLabel('Amount received').fill('300');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Grant the package' }).click();
  await expect(page.getByRole('heading', { name: 'Subscriptions', level: 1 })).toBeVisible();
  await expect(page.getByText(`TRF-${run}`)).toBeVisible();
  await expectAccessible(page);

  // The member's allowance is raised: the form offers ten more places and the sixth ad is placed.
  await open(member, TOYOTA);
  await expect(member.getByText('You can post 10 more ads (your allowance: 15 active ads).')).toBeVisible();
  expect((await placeAdAsMember(memberContext, baseURL, { title: `Quota car ${run} 6` })).status).toBe('pending');
  await open(member, '/en/profile');
  const mine = member.getByTestId('my-package');
  await expect(mine).toContainText(name);
  await expect(mine).toContainText('Featured ads: 2 of 2 left');
  await expect(mine).toContainText('Reposts: 4 of 4 left');
  await expect(member.getByTestId('package-allowance')).toHaveText('Your allowance now: 15 active ads (6 in use).');
  await memberContext.close();
});
