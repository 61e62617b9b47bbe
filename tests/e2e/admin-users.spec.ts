import { expectAccessible, open, placeAdAsMember, signUpMember } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('banning a member hides their ads and ends their session @phone', async ({ page, browser, baseURL }) => {
  // A member with a published ad, signed in in their own browser.
  const name = `Banned seller ${Date.now().toString(36)}`;
  const seller = await browser.newContext({ baseURL });
  const email = await signUpMember(seller, baseURL, name);
  const title = `Corolla of a banned seller ${Date.now().toString(36)}`;
  const { id } = await placeAdAsMember(seller, baseURL, { title });
  const staff = await browser.newContext({ baseURL });
  const headers = { origin: baseURL as string };
  expect(
    (
      await staff.request.post('/en/login', {
        form: { login: 'moderator@souq.test', password: 'password123' },
        headers,
        maxRedirects: 0,
      })
    ).status(),
  ).toBe(302);
  expect(
    (
      await staff.request.post('/en/admin/posts', { form: { intent: `approve:${id}` }, headers, maxRedirects: 0 })
    ).status(),
  ).toBeLessThan(400);
  const card = (await (await staff.request.get(`/api/posts/${id}/card`)).json()) as {
    data: { slug: string; taxonomy_slug: string; category_slug: string };
  };
  await staff.close();
  const adPath = `/en/${card.data.taxonomy_slug}/${card.data.category_slug}/${card.data.slug}-${id}`;
  const visitor = await browser.newContext({ baseURL });
  expect((await visitor.request.get(adPath)).status()).toBe(200);
  const search = `/en/posts?q=${encodeURIComponent(title)}`;
  expect(await (await visitor.request.get(search)).text()).toContain(`/${card.data.slug}-${id}`);
  const sellerPage = await seller.newPage();
  await open(sellerPage, '/en/profile');
  await expect(sellerPage).toHaveURL(/\/en\/profile$/);

  // The moderator finds the member and bans them, saying why.
  await open(page, '/en/login?redirect=%2Fen%2Fadmin%2Fusers');
  await page.getByLabel('Email or phone number').fill('moderator@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await page.getByLabel('Name, email or phone').fill(email);
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Reason').fill('Selling the same car under many accounts');
  await page.locator('summary', { hasText: 'Ban this member' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Every session of theirs ends now');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ban this member' }).click();
  await expect(page.getByRole('status')).toContainText('Saved.');
  await expect(page.getByText('Selling the same car under many accounts')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Lift the ban' })).toBeVisible();

  // The ad is gone for everyone else, and the member's session has ended.
  expect((await visitor.request.get(adPath)).status()).toBe(404);
  const listing = await (await visitor.request.get(search)).text();
  expect(listing).not.toContain(`/${card.data.slug}-${id}`);
  await open(sellerPage, '/en/profile');
  await expect(sellerPage).toHaveURL(/\/en\/login\?redirect=/);

  // Lifting the ban brings the ad back as it was.
  await page.getByRole('button', { name: 'Lift the ban' }).click();
  await expect(page.locator('summary', { hasText: 'Ban this member' })).toBeVisible();
  expect((await visitor.request.get(adPath)).status()).toBe(200);
  expect(await (await visitor.request.get(search)).text()).toContain(`/${card.data.slug}-${id}`);
  await seller.close();
  await visitor.close();
});
