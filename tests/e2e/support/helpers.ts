import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { codeOf, waitForSms } from '../../support/sms-outbox.ts';

/** Opens a page and waits until React has hydrated it. */
export async function open(page: Page, path: string) {
  const res = await page.goto(path);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  return res;
}

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * On the ad form of a member without a confirmed phone number (English pages): follows the form's
 * link to add one, confirms it with the SMS code (the e2e server writes texts to DATA_DIR/sms) and
 * comes back to the form, whose contact options are then open. Returns the number (E.164).
 */
export async function confirmPhoneFromAdForm(page: Page): Promise<string> {
  const form = new URL(page.url()).pathname;
  await expect(page.getByText('A confirmed phone number is needed')).toBeVisible();
  await expect(page.locator('input[name="contact_phone"]')).toBeDisabled();
  await page.getByRole('link', { name: 'Add and confirm your phone number' }).first().click();
  await expect(page).toHaveURL(/\/en\/account\/phone-verification\?/);
  const rest = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  await page.getByLabel('Phone number').fill(`+21892${rest}`);
  await page.getByRole('button', { name: 'Send the code' }).click();
  const sms = await waitForSms(process.env.E2E_DATA_DIR as string, `+21892${rest}`, /Souq/);
  await page.getByLabel('6-digit code').fill(codeOf(sms));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(new RegExp(`${form}(\\?.*)?$`));
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(page.locator('input[name="contact_phone"]')).toBeEnabled();
  return `+21892${rest}`;
}
