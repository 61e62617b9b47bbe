import { expectAccessible, open } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('a member drills down to a category, fills the ad form (kept as a draft) and sends it for review @phone', async ({
  page,
}) => {
  await open(page, '/en/login?redirect=%2Fen%2Fplace-your-ad');
  await page.getByLabel('Email or phone number').fill('user@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Place your ad' })).toBeVisible();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });

  await page.getByRole('link', { name: 'Motors' }).click();
  await expect(page).toHaveURL(/\/en\/place-your-ad\/motors$/);
  // With JavaScript a category with subcategories opens in place (children from the API).
  await page.getByRole('link', { name: 'Cars', exact: true }).click();
  await page.getByRole('link', { name: 'Toyota', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/place-your-ad\/motors\/cars\/toyota$/);
  await expect(page.locator('input[name="attrs.year"]')).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Title').fill('Toyota Corolla 2015 (e2e)');
  await page.getByLabel('Description').fill('Clean car, one owner, full service history. Seen in Souq al-Juma.');
  await page.getByLabel('Amount').fill('45000');
  // The draft survives a reload.
  await page.reload();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(page.getByLabel('Title')).toHaveValue('Toyota Corolla 2015 (e2e)');

  await page.locator('input[name="attrs.year"]').fill('1900');
  await page.locator('input[name="attrs.year"]').blur();
  await expect(page.getByText('The Year field must be at least 1960')).toBeVisible();
  await page.locator('input[name="attrs.year"]').fill('2015');
  await page.locator('select[name="attrs.model"]').selectOption('corolla');
  await page.locator('select[name="city"]').selectOption({ label: 'Tripoli' });
  await page.locator('select[name="area"]').selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Send for review' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Our team will review it shortly' })).toBeVisible();
  await expectAccessible(page);

  // Placed: the draft is gone.
  await open(page, '/en/place-your-ad/motors/cars/toyota');
  await expect(page.getByLabel('Title')).toHaveValue('');

  // Arabic, right to left, in dark mode.
  await page.evaluate(() => localStorage.setItem('nuxt-color-mode', 'dark'));
  await open(page, '/place-your-ad/motors/cars/toyota');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'أرسل للمراجعة' })).toBeVisible();
  await expectAccessible(page);
});
