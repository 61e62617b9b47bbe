import { expect, test } from '@playwright/test';
import { expectAccessible, open } from './support/helpers.ts';

test('register, log out, log in again @phone', async ({ page }) => {
  const email = `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await open(page, '/en/register');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('The name field is required')).toBeVisible();
  await expect(page.getByText('You must accept the terms of use')).toBeVisible();

  await page.getByLabel('Name').fill('Mariam');
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill('a-long-passphrase');
  await page.getByLabel('Confirm password').fill('a-long-passphrase');
  await page.locator('input[name="terms"]').evaluate((el: HTMLInputElement) => el.click());
  await expect(page.locator('input[name="terms"]')).toBeChecked();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();

  await page.getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/en\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill('wrong-passphrase');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toContainText('The email or password is not correct.');
  await expectAccessible(page);
  await page.locator('input[name="password"]').fill('a-long-passphrase');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
});

test('the login page in Arabic, right-to-left, and back to where the visitor was', async ({ page }) => {
  await open(page, '/login?redirect=%2Fcontact');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expectAccessible(page);
  await page.getByLabel('البريد الإلكتروني').fill('user@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'دخول' }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole('button', { name: 'تسجيل الخروج' })).toBeVisible();
});
