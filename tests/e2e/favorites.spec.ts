import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expectAccessible, open, placeAdAsAdmin, signUpMember } from './support/helpers.ts';
import { smallTargets } from './support/tap-targets.ts';
import { expect, type Page, test } from './support/test.ts';

// Favorites (docs/product/favorites.md) in real browsers: a member saves an ad with the heart in
// Arabic with JavaScript (turned at once, saved in the background), another in English without
// JavaScript (a plain form, back to the ad page with a message); both find it in /favorites. The
// seller lowers the price with the edit form (a drop needs no review) and the first member's bell
// rises without a reload; the notification says the price dropped, from what to what.

/** How many members saved the ad, from the e2e server's database. */
function savedCount(adId: number): number {
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'));
  try {
    db.exec('pragma busy_timeout = 5000');
    return Number((db.prepare('select favorites_count n from ads where id = ?').get(adId) as { n: number }).n);
  } finally {
    db.close();
  }
}

/** Resolves once the page's realtime client is subscribed to the member's channel. */
function subscribed(page: Page) {
  return page
    .waitForEvent('websocket', (ws) => ws.url().includes('/app/souq-key'))
    .then((ws) =>
      ws.waitForEvent('framereceived', (f) => String(f.payload).includes('pusher_internal:subscription_succeeded')),
    );
}

test('members save an ad with and without JavaScript and hear live that its price dropped @phone', async ({
  page,
  browser,
  baseURL,
  isMobile,
}) => {
  // Three members, two browsers with and one without JavaScript, the seller's edit form.
  test.setTimeout(120_000);
  const title = `Corolla worth saving ${Date.now().toString(36)}`;
  const ad = await placeAdAsAdmin(browser, baseURL, { title, approve: true });
  expect(ad.path).not.toBe('');

  // A member with JavaScript, in Arabic: the heart on the search results turns at once.
  await signUpMember(page.context(), baseURL, 'Saving Member');
  await open(page, `/posts?q=${encodeURIComponent(title)}`);
  // The result's card (the applied query's chip names the title too).
  const results = page
    .getByRole('listitem')
    .filter({ hasText: title })
    .filter({ has: page.locator('button[aria-pressed]') });
  await expect(results).toHaveCount(1);
  const heart = results.getByRole('button', { name: 'احفظ في المفضلة' });
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await heart.click();
  const saved = results.getByRole('button', { name: 'أزل من المفضلة' });
  await expect(saved).toHaveAttribute('aria-pressed', 'true');
  // Saved in the background: the page did not reload (no message), the count is one.
  await expect.poll(() => savedCount(ad.id)).toBe(1);
  await expect(page.getByTestId('flash')).toHaveCount(0);
  if (isMobile) expect(await smallTargets(page)).toEqual([]);
  await expectAccessible(page);
  // The ad page knows it too.
  await open(page, ad.path);
  await expect(page.getByRole('button', { name: 'أزل من المفضلة' }).first()).toHaveAttribute('aria-pressed', 'true');

  // /favorites lists it (the header's link on wide screens; the account page's on phones).
  if (isMobile) {
    await open(page, '/profile');
    await page.getByRole('link', { name: /المفضلة/ }).click();
  } else {
    await page.getByTestId('favorites-link').click();
  }
  await expect(page).toHaveURL(/\/favorites$/);
  await expect(page.getByRole('heading', { name: 'المفضلة', level: 1 })).toBeVisible();
  await expect(page.getByTestId('favorite')).toHaveCount(1);
  await expect(page.getByTestId('favorite')).toContainText(title);
  await expect(page.getByTestId('favorite')).toContainText('45,000 د.ل');
  await expectAccessible(page);
  if (isMobile) expect(await smallTargets(page)).toEqual([]);

  // Another member, without JavaScript, in English: the heart is a form that comes back to the ad.
  const plainContext = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await signUpMember(plainContext, baseURL, 'Member Without Scripts');
  const plain = await plainContext.newPage();
  await plain.goto(`/en${ad.path}`);
  // The ad's own heart (similar ads' cards, after it, have theirs), from the keyboard: on a phone
  // the fixed header or contact bar may lie over it as the page scrolls.
  await plain.getByRole('button', { name: 'Save to favorites' }).first().press('Enter');
  await expect(plain).toHaveURL(new RegExp(`/en${ad.path}$`));
  await expect(plain.getByText('Saved to your favorites.')).toBeVisible();
  await expect(plain.getByRole('button', { name: 'Remove from favorites' }).first()).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await plain.goto('/en/favorites');
  await expect(plain.getByTestId('favorite')).toContainText(title);
  expect(savedCount(ad.id)).toBe(2);

  // The first member waits on their favorites, subscribed to their channel; nothing unread yet.
  const ready = subscribed(page);
  await open(page, '/favorites');
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAttribute('data-count', '0');
  await ready;

  // The seller lowers the price with the edit form: applied at once, no review needed.
  const sellerContext = await browser.newContext({ baseURL });
  const seller = await sellerContext.newPage();
  await open(seller, `/en/login?redirect=${encodeURIComponent(`/en/profile/posts${ad.path}/edit`)}`);
  await seller.getByLabel('Email or phone number').fill('admin@souq.test');
  await seller.locator('input[name="password"]').fill('password123');
  await seller.getByRole('button', { name: 'Log in' }).click();
  await expect(seller.getByRole('heading', { name: 'Edit your ad' })).toBeVisible();
  await seller.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await seller.locator('input[name="price"]').fill('40000');
  await seller.getByRole('button', { name: 'Save changes' }).click();
  await expect(seller.getByText('Your changes are saved.')).toBeVisible();
  // The owner sees how many saved it.
  await open(seller, `/en${ad.path}`);
  await expect(seller.getByTestId('ad-favorites')).toHaveText('Saved by 2 members');
  await sellerContext.close();

  // The first member's bell rises without a reload; the notification says what dropped to what.
  await expect(bell).toHaveAttribute('data-count', '1');
  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  const note = page.getByTestId('notification');
  await expect(note).toHaveCount(1);
  await expect(note).toContainText('انخفض سعر إعلان حفظته');
  await expect(note).toContainText(title);
  await expect(note.getByTestId('price-drop')).toHaveText('الآن 40,000 د.ل، وكان 45,000 د.ل');
  await expect(note.getByRole('link')).toHaveAttribute('href', ad.path);
  await expectAccessible(page);

  // In English and dark, /favorites shows the price then and now.
  await page.evaluate(() => localStorage.setItem('nuxt-color-mode', 'dark'));
  await open(page, '/en/favorites');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  const row = page.getByTestId('favorite');
  await expect(row).toContainText('Price dropped');
  await expect(row).toContainText('45,000 LYD');
  await expect(row).toContainText('40,000 LYD');
  await expectAccessible(page);

  // The member without JavaScript reads the same news in English.
  await plain.goto('/en/notifications');
  await expect(plain.getByTestId('notification')).toContainText('The price of an ad you saved dropped');
  await expect(plain.getByTestId('price-drop')).toHaveText('Now 40,000 LYD, was 45,000 LYD');

  // Removing it, without JavaScript: back on the list, which is empty now.
  await plain.goto('/en/favorites');
  await plain.getByRole('button', { name: `Remove from favorites: ${title}` }).click();
  await expect(plain.getByText('Removed from your favorites.')).toBeVisible();
  await expect(plain.getByText('No favorites yet')).toBeVisible();
  expect(savedCount(ad.id)).toBe(1);
  await plainContext.close();
});

test('a visitor’s heart leads to the login page and back to the same page', async ({ page, browser, baseURL }) => {
  const title = `Corolla for visitors ${Date.now().toString(36)}`;
  const ad = await placeAdAsAdmin(browser, baseURL, { title, approve: true });
  await open(page, `/en${ad.path}`);
  await expect(page.getByTestId('favorites-link')).toHaveCount(0);
  // The ad's own heart (the similar ads' cards come after it).
  await page.getByRole('button', { name: 'Save to favorites' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/en/login\\?redirect=${encodeURIComponent(`/en${ad.path}`)}$`));
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});
