import { expectAccessible, open, placeAdAsMember, signUpMember } from './support/helpers.ts';
import { smallTargets } from './support/tap-targets.ts';
import { expect, type Page, test } from './support/test.ts';

// Saved-search alerts (docs/product/alerts.md): a member saves a search and turns its alerts to
// instant; a moderator approves a matching ad in another browser; the member's open page hears of
// it live (the bell rises without a reload) and the notification says so in Arabic, then in English.

/** Resolves once the page's realtime client is subscribed to the member's channel. */
function subscribed(page: Page) {
  return page
    .waitForEvent('websocket', (ws) => ws.url().includes('/app/souq-key'))
    .then((ws) =>
      ws.waitForEvent('framereceived', (f) => String(f.payload).includes('pusher_internal:subscription_succeeded')),
    );
}

test('a saved search’s member is told live when a matching ad is approved, in Arabic and English @phone', async ({
  page,
  browser,
  baseURL,
  isMobile,
}) => {
  const word = `zq${Date.now().toString(36)}`;
  await signUpMember(page.context(), baseURL, 'Alert Watcher');

  // Save the search from its listing, in Arabic.
  await open(page, `/posts?category=toyota&q=${word}`);
  await page.getByRole('button', { name: 'احفظ هذا البحث' }).click();
  await expect(page.getByText('حُفظ البحث.')).toBeVisible();

  // On /searches: daily by default; make it instant.
  await open(page, '/searches');
  await expect(page.getByRole('heading', { name: 'عمليات البحث المحفوظة', level: 1 })).toBeVisible();
  const card = page.getByTestId('saved-search');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(word);
  await expect(card.getByTestId('frequency-daily')).toHaveAttribute('aria-pressed', 'true');
  await card.getByTestId('frequency-instant').click();
  await expect(page.getByTestId('flash')).toContainText('تم تغيير تنبيهات هذا البحث.');
  await expect(page.getByTestId('saved-search').getByTestId('frequency-instant')).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expectAccessible(page);
  if (isMobile) expect(await smallTargets(page)).toEqual([]);

  // A seller places a matching ad; it waits for review.
  const sellerContext = await browser.newContext({ baseURL });
  await signUpMember(sellerContext, baseURL, 'Alert Seller');
  const approve = async (title: string) => {
    const ad = await placeAdAsMember(sellerContext, baseURL, { title });
    expect(ad.status).toBe('pending');
    const staff = await browser.newContext({ baseURL });
    const queue = await staff.newPage();
    await open(queue, '/en/login?redirect=%2Fen%2Fadmin%2Fposts');
    await queue.getByLabel('Email or phone number').fill('moderator@souq.test');
    await queue.locator('input[name="password"]').fill('password123');
    await queue.getByRole('button', { name: 'Log in' }).click();
    await expect(queue.getByRole('heading', { name: 'Ads moderation', level: 1 })).toBeVisible();
    await queue.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await queue.getByRole('button', { name: `Approve: ${title}` }).click();
    await expect(queue.getByRole('status')).toContainText('1 ad approved and published.');
    await staff.close();
    return ad;
  };

  // Arabic: the member waits on the home page; the approval reaches it without a reload.
  let ready = subscribed(page);
  await open(page, '/');
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAttribute('data-count', '0');
  await ready;
  const first = `Toyota Corolla ${word} one`;
  await approve(first);
  await expect(bell).toHaveAttribute('data-count', '1');
  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  const item = page.getByTestId('notification').first();
  await expect(item).toContainText('إعلان جديد لبحثك المحفوظ');
  await expect(item).toContainText(first);
  await expect(item).toContainText(word);

  // English, dark: the next matching ad, heard on the saved searches page.
  await page.evaluate(() => localStorage.setItem('nuxt-color-mode', 'dark'));
  ready = subscribed(page);
  await open(page, '/en/searches');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await ready;
  const englishBell = page.getByTestId('notification-bell');
  const before = Number(await englishBell.getAttribute('data-count'));
  const second = `Toyota Corolla ${word} two`;
  const ad = await approve(second);
  await expect(englishBell).toHaveAttribute('data-count', String(before + 1));
  await open(page, '/en/notifications');
  const link = page.getByRole('link', { name: new RegExp(`New ad for your saved search\\s*${second}`) });
  await expect(link).toHaveAttribute('href', new RegExp(`^/en/motors/toyota/.+-${ad.id}$`));
  await expectAccessible(page);

  // The saved search counts both as new until it is opened.
  await open(page, '/en/searches');
  await expect(page.getByTestId('new-count')).toHaveText('2 new ads');
  await page.getByRole('button', { name: new RegExp(`Show results\\s*: ${word}`) }).click();
  await expect(page).toHaveURL(new RegExp(`q=${word}`));
  await expect(page.getByText(second)).toBeVisible();
  await open(page, '/en/searches');
  await expect(page.getByText('No new ads since you last looked')).toBeVisible();
  await sellerContext.close();
});
