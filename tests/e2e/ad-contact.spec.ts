// A buyer on a phone reaches the seller: a visitor is sent to log in first and comes back to the ad;
// a member taps WhatsApp and lands in it (wa.me) in one tap, or reveals the number to call.

import { expectAccessible, open, placeAdAsAdmin } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('a visitor logs in from the ad, then taps WhatsApp or reveals the number @phone', async ({
  page,
  browser,
  baseURL,
}) => {
  // The demo super admin places an ad offering calls and WhatsApp, and approves it.
  const title = `Corolla to call ${Date.now().toString(36)}`;
  const { path: adPath } = await placeAdAsAdmin(browser, baseURL, { title, whatsapp: true, approve: true });

  // WhatsApp itself is not reached from the tests: the browser's arrival there is what counts.
  let whatsapp: URL | null = null;
  await page.route('https://wa.me/**', (route) => {
    whatsapp = new URL(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>WhatsApp</title>' });
  });

  await open(page, `/en${adPath}`);
  await expect(page.getByRole('link', { name: 'Log in to contact on WhatsApp' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('910000001');
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Log in to contact on WhatsApp' }).click();
  await expect(page).toHaveURL(new RegExp(`/en/login\\?redirect=${encodeURIComponent(`/en${adPath}`)}$`));
  await page.getByLabel('Email or phone number').fill('user@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(new RegExp(`/en${adPath}$`));
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });

  await page.getByRole('button', { name: 'Show phone number' }).click();
  await expect(page.getByRole('link', { name: '+218910000001' })).toHaveAttribute('href', 'tel:+218910000001');
  await page.getByRole('button', { name: 'WhatsApp' }).click();
  await expect(page).toHaveTitle('WhatsApp');
  expect(whatsapp).not.toBeNull();
  const sent = whatsapp as unknown as URL;
  expect(sent.pathname).toBe('/218910000001');
  expect(sent.searchParams.get('text')).toContain(title);

  // Without JavaScript the form post lands in WhatsApp too (the answer is a 303 to wa.me).
  const plain = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const noJs = await plain.newPage();
  let landed: URL | null = null;
  await noJs.route('https://wa.me/**', (route) => {
    landed = new URL(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>WhatsApp</title>' });
  });
  await noJs.goto(`/en/login?redirect=${encodeURIComponent(`/en${adPath}`)}`);
  await noJs.getByLabel('Email or phone number').fill('user@souq.test');
  await noJs.locator('input[name="password"]').fill('password123');
  await noJs.getByRole('button', { name: 'Log in' }).click();
  await expect(noJs).toHaveURL(new RegExp(`/en${adPath}$`));
  // The URL changes before the page's stylesheets arrive; until they do, the phone's contact bar
  // (hidden on this wide screen by CSS) is counted as a second WhatsApp button.
  await noJs.waitForLoadState('load');
  await noJs.getByRole('button', { name: 'WhatsApp' }).click();
  await expect(noJs).toHaveTitle('WhatsApp');
  expect((landed as unknown as URL | null)?.pathname).toBe('/218910000001');
  await plain.close();

  // The same in Arabic, right to left, for a visitor.
  await page.context().clearCookies();
  await open(page, adPath);
  await expect(page.getByRole('link', { name: 'سجّل الدخول للتواصل عبر واتساب' })).toBeVisible();
  await expectAccessible(page);
});
