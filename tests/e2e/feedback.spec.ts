// Feedback a member can see (docs/product/site.md, "Feedback"): marking an ad sold asks in a dialog
// and ends with a toast that can be dismissed; registering by email ends on "check your email".

import { expectAccessible, open, placeAdAsAdmin } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('the owner marks an ad sold in a dialog, then a toast says so @phone', async ({ page, browser, baseURL }) => {
  const title = `Corolla to sell ${Date.now().toString(36)}`;
  const { id } = await placeAdAsAdmin(browser, baseURL, { title, approve: true });
  await open(page, '/en/login?redirect=%2Fen%2Fprofile%2Fposts');
  await page.getByLabel('Email or phone number').fill('admin@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/en\/profile\/posts$/);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });

  const card = page.locator('li').filter({ hasText: title });
  await card.getByRole('button', { name: 'Mark as sold' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mark this ad as sold?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  // Cancel changes nothing; the dialog asks again next time.
  await dialog.getByRole('button', { name: 'Cancel' }).first().click();
  await expect(dialog).toBeHidden();
  await card.getByRole('button', { name: 'Mark as sold' }).click();
  await dialog.getByRole('button', { name: 'Yes, mark as sold' }).click();

  const toast = page.getByTestId('flash');
  await expect(toast).toContainText('Marked as sold.');
  await expect(page.getByRole('status').filter({ hasText: 'Marked as sold.' })).toBeVisible();
  // Focused, it stays while it is read (and checked).
  const dismiss = toast.getByRole('button', { name: 'Dismiss' });
  await dismiss.focus();
  await expect(page.locator('li').filter({ hasText: title })).toHaveCount(0);
  await expectAccessible(page);
  await expect(toast).toBeVisible();
  const box = await dismiss.boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(44);
  expect(box?.width).toBeGreaterThanOrEqual(44);
  await dismiss.click();
  await expect(toast).toBeHidden();

  // In Arabic the toast sits on the right-to-left reading end; a reload shows it no more.
  const { id: second } = await placeAdAsAdmin(browser, baseURL, { title: `${title} 2`, approve: true });
  await open(page, '/profile/posts');
  await page
    .locator('li')
    .filter({ hasText: `${title} 2` })
    .getByRole('button', { name: 'حذف' })
    .click();
  await page
    .getByRole('dialog', { name: 'أتريد حذف هذا الإعلان؟' })
    .getByRole('button', { name: 'نعم، احذفه' })
    .click();
  await expect(page.getByTestId('flash')).toContainText('حُذف الإعلان.');
  const viewport = page.viewportSize()?.width ?? 0;
  const placed = await page.getByTestId('flash').boundingBox();
  expect((placed?.x ?? 0) + (placed?.width ?? 0) / 2).toBeLessThanOrEqual(viewport / 2 + 1);
  await page.reload();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(page.getByTestId('flash')).toHaveCount(0);
  expect(second).toBeGreaterThan(id);
});

test('registering by email ends on "check your email", with the resend after a cool-down', async ({ page }) => {
  const email = `check-${Date.now().toString(36)}@example.ly`;
  await open(page, '/en/register');
  await page.getByLabel('Name').fill('Amal');
  await page.getByLabel('Email or phone number').fill(email);
  await page.locator('input[name="password"]').fill('a-long-passphrase');
  await page.getByLabel('Confirm password').fill('a-long-passphrase');
  await page.locator('input[name="terms"]').evaluate((el: HTMLInputElement) => el.click());
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/en\/account\/email-verification\?registered=/);
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send the link again' })).toBeDisabled();
  await expect(page.getByTestId('resend-wait')).toContainText(/You can ask again in \d+ seconds?\./);
  await expect(page.getByRole('link', { name: 'Wrong address? Register again' })).toHaveAttribute(
    'href',
    '/en/register',
  );
  await expect(page.getByRole('link', { name: 'Go to log in' })).toHaveAttribute('href', '/en/login');
  await expectAccessible(page);
});
