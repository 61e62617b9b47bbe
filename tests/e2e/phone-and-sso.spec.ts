import { codeOf, waitForSms } from '../support/sms-outbox.ts';
import { expectAccessible, open } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/** The e2e server sends SMS through the console adapter: files in DATA_DIR/sms. */

test('sign up with a phone number, confirm it with the SMS code, log out and in by phone @phone', async ({ page }) => {
  const rest = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  const local = `091${rest}`;
  const e164 = `+21891${rest}`;
  await open(page, '/register');
  await page.getByLabel('الاسم').fill('سالم');
  await page.getByLabel('البريد الإلكتروني أو رقم الهاتف').fill(local);
  await page.locator('input[name="password"]').fill('phone-passphrase');
  await page.locator('input[name="password_confirmation"]').fill('phone-passphrase');
  await page.locator('input[name="terms"]').evaluate((el: HTMLInputElement) => el.click());
  await page.getByRole('button', { name: 'إنشاء الحساب' }).click();

  await expect(page).toHaveURL(/\/account\/phone-verification\?/);
  await expect(page.getByRole('heading', { name: 'تأكيد رقم الهاتف' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText(e164);
  await expectAccessible(page);
  const sms = await waitForSms(process.env.E2E_DATA_DIR as string, e164, /رمزك في سوق/);
  await page.getByLabel('الرمز المكوّن من 6 أرقام').fill('12');
  await page.getByRole('button', { name: 'تأكيد' }).click();
  await expect(page.getByText('يجب أن يتكون حقل الرمز من 6 أرقام')).toBeVisible();
  await page.getByLabel('الرمز المكوّن من 6 أرقام').fill(codeOf(sms));
  await page.getByRole('button', { name: 'تأكيد' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('flash')).toContainText('تم تأكيد رقم هاتفك.');

  await page.getByRole('button', { name: 'تسجيل الخروج' }).click();
  await expect(page.getByRole('link', { name: 'تسجيل الدخول' })).toBeVisible();
  await open(page, '/login');
  await page.getByLabel('البريد الإلكتروني أو رقم الهاتف').fill(local);
  await page.locator('input[name="password"]').fill('phone-passphrase');
  await page.getByRole('button', { name: 'دخول' }).click();
  await expect(page.getByRole('button', { name: 'تسجيل الخروج' })).toBeVisible();
});

test('sign in with the OpenID Connect provider and come back signed in', async ({ page }) => {
  await open(page, '/en/login?redirect=%2Fen%2Fcontact');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continue with Test SSO' }).click();

  // The local provider's own pages (oidc-provider's development interactions).
  await page.getByPlaceholder('Enter any login').fill('e2e-oidc');
  await page.getByPlaceholder('and password').fill('ignored');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/en\/contact$/);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  const me = await (await page.request.get('/api/is-logged-in')).json();
  expect(me.user).toMatchObject({ name: 'Idris OIDC', email_verified: true, locale: 'en' });
});

test('a cancelled provider sign-in comes back with a translated message', async ({ page }) => {
  await open(page, '/en/login');
  await page.getByRole('button', { name: 'Continue with Test SSO' }).click();
  await page.getByPlaceholder('Enter any login').fill('e2e-oidc');
  await page.getByPlaceholder('and password').fill('ignored');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
  await expect(page).toHaveURL(/\/en\/login\?.*error=access_denied/);
  await expect(page.getByRole('alert')).toContainText('Sign-in was cancelled before it finished.');
});
