// The ad page on a phone (docs/product/ads.md, "The ad page on phones"): the seller's contact in a
// bar at the thumb's reach (its Chat starting a chat), a dark full-screen gallery to swipe, and
// a map box that names the place when its tiles cannot load (the e2e server's MAP_TILE_URL is a
// port nothing listens on).

import { expectAccessible, open, placeAdAsAdmin } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

/** A horizontal swipe across the gallery's photo, from `from` to `to` (shares of its width). */
async function swipe(page: Page, from: number, to: number) {
  const box = await page.getByRole('dialog').locator('section').boundingBox();
  if (!box) throw new Error('no gallery stage');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * from, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to, y, { steps: 8 });
  await page.mouse.up();
}

test('the contact bar reaches the seller, and its Chat starts a chat after signing in @phone', async ({
  page,
  browser,
  baseURL,
}) => {
  test.skip(test.info().project.name !== 'phone', 'a phone screen');
  const title = `Corolla on a phone ${Date.now().toString(36)}`;
  const { path: adPath } = await placeAdAsAdmin(browser, baseURL, { title, whatsapp: true, approve: true });
  await open(page, `/en${adPath}`);

  // The bar: three actions of at least 44 px, at the bottom of the screen, in place of the site's
  // navigation; the seller's column does not repeat them.
  const bar = page.getByRole('navigation', { name: 'Contact the seller' });
  await expect(bar).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();
  const actions = bar.getByRole('link');
  await expect(actions).toHaveCount(3);
  const viewport = page.viewportSize() as { width: number; height: number };
  for (const box of await Promise.all((await actions.all()).map((a) => a.boundingBox()))) {
    expect(box?.height).toBeGreaterThanOrEqual(44);
  }
  const barBox = await bar.boundingBox();
  expect(Math.round((barBox?.y ?? 0) + (barBox?.height ?? 0))).toBe(viewport.height);
  await expect(page.getByRole('link', { name: 'Log in to see the phone number' })).toHaveCount(1);
  // Nothing is left under the bar: the page's last line scrolls clear of it.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const lastLine = await page.locator('footer').last().locator('p').last().boundingBox();
  expect((lastLine?.y ?? 0) + (lastLine?.height ?? 0)).toBeLessThanOrEqual(barBox?.y ?? 0);
  await expectAccessible(page);
  await open(page, adPath);
  await expect(page.getByRole('navigation', { name: 'التواصل مع البائع' })).toBeVisible();
  await expectAccessible(page);

  // A visitor taps "Chat" and is sent to log in, then to the chat's start page (docs/product/chats.md).
  await open(page, `/en${adPath}`);
  await bar.getByRole('link', { name: 'Log in to chat with the seller' }).tap();
  await expect(page).toHaveURL(/\/en\/login\?redirect=/);
  await page.getByLabel('Email or phone number').fill('user@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/en\/chats\/new\/\d+$/);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await page.getByRole('button', { name: 'Hello, is it still available?' }).tap();
  await expect(page).toHaveURL(/\/en\/chats\/\d+$/);
  await expect(page.getByTestId('chat-messages')).toContainText('Hello, is it still available?');

  // Back on the ad, the bar's Chat opens that chat.
  await open(page, `/en${adPath}`);
  await expect(bar.getByRole('link', { name: 'Chat with the seller' })).toHaveAttribute('href', /^\/en\/chats\/\d+$/);

  // "Call" reveals the number in the bar, ready to dial.
  await bar.getByRole('button', { name: 'Show phone number' }).tap();
  await expect(bar.getByRole('link', { name: '+218910000001' })).toHaveAttribute('href', 'tel:+218910000001');
});

test('the gallery opens dark and full screen, swipes, and gives focus back @phone', async ({
  page,
  browser,
  baseURL,
}) => {
  test.skip(test.info().project.name !== 'phone', 'a phone screen');
  const title = `Corolla in photos ${Date.now().toString(36)}`;
  const { path: adPath } = await placeAdAsAdmin(browser, baseURL, { title, approve: true, photos: 3 });
  for (const [prefix, next, previous] of [
    ['/en', 'Next photo', 'Previous photo'],
    ['', 'الصورة التالية', 'الصورة السابقة'],
  ] as const) {
    await open(page, `${prefix}${adPath}`);
    const opener = page.locator('main a').filter({ has: page.getByRole('img', { name: title }) });
    await opener.tap();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveCSS('background-color', 'rgb(0, 0, 0)');
    const viewport = page.viewportSize() as { width: number; height: number };
    const box = await dialog.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: viewport.width, height: viewport.height });
    const counter = dialog.getByTestId('gallery-counter');
    await expect(counter).toHaveText('1 / 3');
    await expect(dialog.getByRole('button', { name: previous })).toBeHidden();
    await expectAccessible(page);
    // The next photo comes from the end of the line: a swipe towards its start (left in English,
    // right in Arabic). A swipe the other way from the first photo stays on it.
    const [start, end] = prefix ? [0.85, 0.15] : [0.15, 0.85];
    await swipe(page, end, start);
    await expect(counter).toHaveText('1 / 3');
    await swipe(page, start, end);
    await expect(counter).toHaveText('2 / 3');
    // A double tap zooms into the photo, a second one zooms back out.
    const photo = dialog.getByRole('img', { name: prefix ? 'Photo 2' : 'الصورة 2' });
    const stage = await dialog.locator('section').boundingBox();
    const centre = { x: (stage?.x ?? 0) + (stage?.width ?? 0) / 2, y: (stage?.y ?? 0) + (stage?.height ?? 0) / 2 };
    await page.touchscreen.tap(centre.x, centre.y);
    await page.touchscreen.tap(centre.x, centre.y);
    await expect(photo).toHaveAttribute('style', /scale\(2\.5\)/);
    await page.mouse.dblclick(centre.x, centre.y);
    await expect(photo).not.toHaveAttribute('style', /scale/);
    await dialog.getByRole('button', { name: next }).tap();
    await expect(counter).toHaveText('3 / 3');
    await page.keyboard.press(prefix ? 'ArrowLeft' : 'ArrowRight');
    await expect(counter).toHaveText('2 / 3');
    // Focus stays inside while it is open.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  }
});

test('the ad page names the place when map tiles cannot load, and keeps the contact in the column', async ({
  page,
  browser,
  baseURL,
}) => {
  const title = `Corolla on the map ${Date.now().toString(36)}`;
  const { path: adPath } = await placeAdAsAdmin(browser, baseURL, { title, approve: true });
  const thrown: string[] = [];
  page.on('pageerror', (error) => thrown.push(error.message));
  await open(page, `/en${adPath}`);
  // On a wide screen the contact is in the seller's column, and there is no bar.
  await expect(page.getByRole('navigation', { name: 'Contact the seller' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Log in to see the phone number' })).toBeVisible();
  const place = page.getByRole('region', { name: 'Map of the area around Tripoli' });
  await place.scrollIntoViewIfNeeded();
  await expect(place.locator('[data-map-fallback="failed"]')).toBeVisible({ timeout: 15_000 });
  await expect(place.getByText('The map could not be loaded.')).toBeVisible();
  await expect(place.getByRole('link', { name: 'Open Tripoli in a map' })).toHaveAttribute(
    'href',
    /^https:\/\/www\.openstreetmap\.org\/#map=\d+\//,
  );
  await expectAccessible(page);
  // Giving up on the map throws nothing in the page.
  expect(thrown).toEqual([]);
});
