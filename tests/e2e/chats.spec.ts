import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expectAccessible, open, placeAdAsMember, signUpMember } from './support/helpers.ts';
import { type BrowserContext, expect, type Page, test } from './support/test.ts';

// Chats end to end (docs/product/chats.md): two members in two browser contexts, the seller in
// Arabic and the buyer in English. The buyer starts a chat from the ad page with a quick question;
// the seller's counter rises and the message arrives without a reload; the seller's typing shows
// on the buyer's side, then the reply, and the buyer's message is "Seen" once the seller opened
// it; a message the buyer writes while offline waits in the browser and arrives once when the
// connection is back.

/**
 * Watches a page's realtime WebSockets: `subscribed(channel)` resolves at the next successful
 * subscription to a channel starting so (what the server publishes next then reaches the page).
 */
function watch(page: Page) {
  const waiters = new Set<{ channel: string; resolve: () => void }>();
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/app/souq-key')) return;
    ws.on('framereceived', (frame) => {
      const text = String(frame.payload);
      if (!text.includes('pusher_internal:subscription_succeeded')) return;
      for (const w of waiters) {
        if (text.includes(w.channel)) {
          waiters.delete(w);
          w.resolve();
        }
      }
    });
  });
  return {
    subscribed: (channel: string) => new Promise<void>((resolve) => waiters.add({ channel, resolve })),
  };
}

function database() {
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'));
  db.exec('pragma busy_timeout = 5000');
  return db;
}

/** Publishes the ad (what a moderator's approval does) and answers its English address. */
function publishAd(id: number): string {
  const db = database();
  try {
    const day = 86_400_000;
    db.prepare(
      "update ads set status = 'published', published_at = ?, bumped_at = ?, expires_at = ?, updated_at = ? where id = ?",
    ).run(
      new Date().toISOString(),
      new Date().toISOString(),
      new Date(Date.now() + 20 * day).toISOString(),
      new Date().toISOString(),
      id,
    );
    const row = db
      .prepare(
        'select a.slug, t.slug as taxonomy, c.slug as category from ads a join taxonomies t on t.id = a.taxonomy_id join categories c on c.id = a.category_id where a.id = ?',
      )
      .get(id) as { slug: string; taxonomy: string; category: string };
    return `/en/${row.taxonomy}/${row.category}/${encodeURIComponent(row.slug)}-${id}`;
  } finally {
    db.close();
  }
}

const stored = (body: string) => {
  const db = database();
  try {
    return (db.prepare('select count(*) as n from chat_messages where body = ?').get(body) as { n: number }).n;
  } finally {
    db.close();
  }
};

test('a buyer and a seller chat live, in Arabic and English; a message written offline arrives once', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const sellerContext: BrowserContext = await browser.newContext({ baseURL });
  const buyerContext: BrowserContext = await browser.newContext({ baseURL });
  await signUpMember(sellerContext, baseURL, 'Salem Seller');
  const title = `Corolla to chat about ${Date.now().toString(36)}`;
  const ad = await placeAdAsMember(sellerContext, baseURL, { title });
  const adPath = publishAd(ad.id);
  await signUpMember(buyerContext, baseURL, 'Buyer Bashir');

  // The seller waits on their (empty) list of chats, in Arabic.
  const seller = await sellerContext.newPage();
  const sellerSocket = watch(seller);
  const sellerReady = sellerSocket.subscribed('private-users.');
  await open(seller, '/chats');
  await expect(seller.getByRole('heading', { name: 'المحادثات', level: 1 })).toBeVisible();
  await expect(seller.getByText('لا توجد محادثات بعد')).toBeVisible();
  const counter = seller.getByTestId('chats-link');
  await expect(counter).toHaveAttribute('data-count', '0');
  await sellerReady;

  // The buyer opens the ad in English and starts a chat with a quick question.
  const buyer = await buyerContext.newPage();
  const buyerSocket = watch(buyer);
  await open(buyer, adPath);
  await buyer.getByRole('link', { name: 'Chat with the seller' }).click();
  await expect(buyer).toHaveURL(/\/en\/chats\/new\/\d+$/);
  await expect(buyer.getByRole('heading', { name: 'Chat with the seller', level: 1 })).toBeVisible();
  await expectAccessible(buyer);
  const buyerJoined = buyerSocket.subscribed('presence-chats.');
  await buyer.getByRole('button', { name: 'Hello, is it still available?' }).click();
  await expect(buyer).toHaveURL(/\/en\/chats\/\d+$/);
  await buyerJoined;
  const buyerMessages = buyer.getByTestId('chat-messages');
  await expect(buyerMessages).toContainText('Hello, is it still available?');
  await expect(buyer.getByTestId('receipt').last()).toHaveText('Sent');

  // Without a reload: the seller's counter rises and the chat appears in their list.
  await expect(counter).toHaveAttribute('data-count', '1');
  await expect(counter).toHaveAccessibleName('المحادثات: محادثة واحدة غير مقروءة');
  const row = seller.getByTestId('chat-row');
  await expect(row).toContainText('Hello, is it still available?');
  await expect(row).toContainText(title);
  await expect(row).toContainText('رسالة واحدة غير مقروءة');

  // The seller opens the thread: the buyer sees "Seen" and "Online" live.
  const sellerJoined = sellerSocket.subscribed('presence-chats.');
  await row.getByRole('link').click();
  await expect(seller).toHaveURL(/\/chats\/\d+$/);
  await sellerJoined;
  await expect(seller.getByTestId('chat-messages')).toContainText('Hello, is it still available?');
  await expect(counter).toHaveAttribute('data-count', '0');
  await expect(buyer.getByTestId('receipt').last()).toHaveText('Seen');
  await expect(buyer.getByTestId('chat-status')).toHaveText('Online');
  await expectAccessible(seller);

  // The seller types: the buyer sees it; then the reply arrives.
  const box = seller.getByRole('textbox', { name: 'الرسالة' });
  await box.pressSequentially('نعم، ما زالت متوفرة', { delay: 30 });
  await expect(buyer.getByTestId('chat-status')).toHaveText('Typing…');
  await box.press('Enter');
  await expect(buyerMessages).toContainText('نعم، ما زالت متوفرة');
  await expect(seller.getByTestId('chat-messages')).toContainText('نعم، ما زالت متوفرة');
  await expect(buyer.getByTestId('chat-status')).toHaveText('Online');

  // The buyer goes offline and writes: the message waits in the browser, the page says so.
  const words = `Can I see it tomorrow at ten? ${Date.now().toString(36)}`;
  await buyerContext.setOffline(true);
  await buyer.getByRole('textbox', { name: 'Message' }).fill(words);
  await buyer.getByRole('button', { name: 'Send' }).click();
  const waiting = buyer.locator('[data-delivery="queued"]');
  await expect(waiting).toContainText(words);
  await expect(waiting).toContainText('Waiting to send');
  await expect(buyer.getByTestId('connection-hint')).toBeVisible();
  expect(stored(words)).toBe(0);

  // Back online: delivered once, on both sides.
  await buyerContext.setOffline(false);
  await expect(seller.getByTestId('chat-message').filter({ hasText: words })).toHaveCount(1);
  await expect(buyer.getByTestId('chat-message').filter({ hasText: words })).toHaveCount(1);
  await expect(waiting).toHaveCount(0);
  await expect(buyer.getByTestId('connection-hint')).toHaveCount(0);
  expect(stored(words)).toBe(1);
  // A reload shows it once too (nothing left in the outbox to send again).
  await buyer.reload();
  await expect(buyer.getByTestId('chat-message').filter({ hasText: words })).toHaveCount(1);
  await buyer.waitForTimeout(500);
  expect(stored(words)).toBe(1);

  await sellerContext.close();
  await buyerContext.close();
});
