import { expectAccessible, open } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

/** Reloads the page in a colour mode stored the way the site stores it (`nuxt-color-mode`). */
async function inColorMode(page: Page, mode: 'light' | 'dark') {
  await page.evaluate((m) => localStorage.setItem('nuxt-color-mode', m), mode);
  await page.reload();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', mode);
}

test('profile settings: change the name, accessible in light and dark, in both languages @phone', async ({ page }) => {
  // Four accessibility scans, four reloads and two saves: on a slow machine a minute is not enough.
  test.setTimeout(120_000);
  await open(page, '/en/login?redirect=%2Fen%2Fprofile');
  await page.getByLabel('Email or phone number').fill('user@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/en\/profile$/);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();

  const name = page.locator('#profile-form input[name="name"]');
  const original = await name.inputValue();
  // Checked in the browser as soon as the field is left.
  await name.fill('S');
  await name.blur();
  await expect(page.getByText('The name field must be at least 2 characters')).toBeVisible();
  await name.fill('Salem (e2e)');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByTestId('flash')).toContainText('Your profile has been saved.');
  await expect(page).toHaveURL(/\/en\/profile#profile$/);
  await expect(name).toHaveValue('Salem (e2e)');

  await inColorMode(page, 'light');
  await expectAccessible(page);
  await inColorMode(page, 'dark');
  await expectAccessible(page);

  // Arabic, right to left.
  await open(page, '/profile');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'إعدادات الحساب' })).toBeVisible();
  await expectAccessible(page);
  await inColorMode(page, 'light');
  await expectAccessible(page);

  // The demo member keeps their name for the other tests.
  await page.locator('#profile-form input[name="name"]').fill(original);
  await page.getByRole('button', { name: 'حفظ الملف الشخصي' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'تم حفظ ملفك الشخصي.' })).toBeVisible();
});
