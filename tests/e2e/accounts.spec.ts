import path from 'node:path';
import { waitForMail } from '../support/smtp-capture.ts';
import { expectAccessible, open } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/** The e2e server has no SMTP_URL: its mails are files in DATA_DIR/mail. */
const mailDir = () => path.join(process.env.E2E_DATA_DIR as string, 'mail');
const localPart = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};

test('register, confirm the email, log out, log in, reset the password @phone', async ({ page }) => {
  // A long journey (two mails, three password hashes, five accessibility scans): room for a busy machine.
  test.setTimeout(60_000);
  const email = `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await open(page, '/en/register');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('The name field is required')).toBeVisible();
  await expect(page.getByText('You must accept the terms of use')).toBeVisible();

  await page.getByLabel('Name').fill('Mariam');
  await page.getByLabel('Email or phone number').fill(email);
  await page.locator('input[name="password"]').fill('a-long-passphrase');
  await page.getByLabel('Confirm password').fill('a-long-passphrase');
  await page.locator('input[name="terms"]').evaluate((el: HTMLInputElement) => el.click());
  await expect(page.locator('input[name="terms"]')).toBeChecked();
  await page.getByRole('button', { name: 'Create account' }).click();
  // Nobody is signed in yet: the page says where the link went (the same for a taken address).
  await expect(page).toHaveURL(/\/en\/account\/email-verification\?registered=/);
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(`We have sent a link to ${email}`)).toBeVisible();
  await expectAccessible(page);

  // The confirmation link arrives by mail.
  const verify = await waitForMail(mailDir(), email, /Confirm your email/);
  await open(page, localPart(verify.links.find((l) => l.includes('email-verification')) as string));
  await expect(page.getByRole('heading', { name: 'Your email is confirmed' })).toBeVisible();
  await expectAccessible(page);
  await open(page, '/en');

  await page.getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/en\/login$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await page.getByLabel('Email or phone number').fill(email);
  await page.locator('input[name="password"]').fill('wrong-passphrase');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toContainText('The email, phone number or password is not correct.');
  await expectAccessible(page);
  await page.locator('input[name="password"]').fill('a-long-passphrase');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

  // Forgotten password: a link by mail, a new password, then in with it.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  await open(page, '/en/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/en\/account\/forget-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot your password' })).toBeVisible();
  await page.getByLabel('Email or phone number').fill(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account uses this email');
  const reset = await waitForMail(mailDir(), email, /Reset your Souq password/);
  await open(page, localPart(reset.links.find((l) => l.includes('reset-password')) as string));
  await expectAccessible(page);
  await page.locator('input[name="password"]').fill('a-newer-passphrase');
  await page.locator('input[name="password_confirmation"]').fill('a-newer-passphrase');
  await page.getByRole('button', { name: 'Save the password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been changed');
  await page.getByLabel('Email or phone number').fill(email);
  await page.locator('input[name="password"]').fill('a-newer-passphrase');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
});

test('the login page in Arabic, right-to-left, and back to where the visitor was', async ({ page }) => {
  await open(page, '/login?redirect=%2Fcontact');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expectAccessible(page);
  await page.getByLabel('البريد الإلكتروني أو رقم الهاتف').fill('user@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'دخول' }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole('button', { name: 'تسجيل الخروج' })).toBeVisible();
});

test('the back office: staff see the dashboard, members get 404, visitors log in first @phone', async ({ page }) => {
  await open(page, '/en/admin');
  await expect(page).toHaveURL(/\/en\/login\?redirect=%2Fen%2Fadmin$/);
  await page.getByLabel('Email or phone number').fill('moderator@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/en\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('New members per day', { exact: true }).first()).toBeVisible();
  await expectAccessible(page);
  await open(page, '/admin');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'لوحة المعلومات' })).toBeVisible();
  await expectAccessible(page);

  await page.context().clearCookies();
  await open(page, '/en/login');
  await page.getByLabel('Email or phone number').fill('user@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  const res = await page.goto('/en/admin');
  expect(res?.status()).toBe(404);
});
