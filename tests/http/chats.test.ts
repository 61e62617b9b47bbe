// Chats over real HTTP against the built server (docs/product/chats.md): the ad page's Chat link,
// the start page's forms (quick reply, own words, offer) without JavaScript, the thread's forms
// (send, photo, offer answers, archive, block, report) with post/redirect/get, and the JSON API
// (list, start, send with an idempotency key, catch-up cursor, read, photos, offers) with its
// guards: sign-in, XSRF, someone else's chat, bad input in both languages, closed and blocked chats;
// the email of unread messages, run by the server's own job worker, and its one-click unsubscribe.
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { member, placeToyota, publish } from '../support/ads.ts';
import { BROWSER_UA, type Browser, browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';
import { waitForMail } from '../support/smtp-capture.ts';

const base = inject('baseUrl');
const mailDir = inject('mailDir');

interface ApiMessage {
  id: number;
  chat_id: number;
  kind: string;
  body: string | null;
  flags: string[];
  client_key: string | null;
  image: { small: string; large: string; width: number; height: number } | null;
  offer: { amount: number; currency: string; status: string | null } | null;
}

/** An API request as the site's pages send it: session cookie, XSRF header, language. */
async function api(
  b: Browser,
  method: string,
  pathname: string,
  opts: { json?: unknown; body?: BodyInit; xsrf?: boolean; locale?: 'ar' | 'en' } = {},
) {
  if (!b.jar.get('XSRF-TOKEN')) await b.get('/api/csrf-cookie');
  const headers: Record<string, string> = {
    'user-agent': BROWSER_UA,
    cookie: b.cookieHeader(),
    'x-forwarded-for': b.ip,
    accept: 'application/json',
  };
  if (opts.xsrf !== false) headers['x-xsrf-token'] = b.jar.get('XSRF-TOKEN') ?? '';
  if (opts.locale) headers['x-locale'] = opts.locale;
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  return fetch(base + pathname, { method, headers, body, redirect: 'manual' });
}

/** A live ad of a new seller, and a buyer. */
async function setting(title = 'Toyota Corolla 2015 for chats') {
  const seller = await member('chat-seller');
  const ad = await placeToyota(seller, title);
  publish(ad.id);
  const buyer = await member('chat-buyer');
  return { seller, buyer, ad };
}

const messageCount = (chatId: number) =>
  sql<{ n: number }>('select count(*) n from chat_messages where chat_id = ?', chatId)[0]?.n ?? 0;

describe('starting a chat from the ad page', () => {
  it('links the ad page’s Chat to the start page, which makes the chat with a quick reply', async () => {
    const { seller, buyer, ad } = await setting();
    // A visitor is sent to log in, then to the start page.
    const visitorPage = await (await browser().get(ad.url)).text();
    expect(visitorPage).toContain(`href="/en/login?redirect=${encodeURIComponent(`/en/chats/new/${ad.id}`)}"`);
    expect(visitorPage).toContain('Log in to chat with the seller');
    const page = await (await buyer.get(ad.url)).text();
    expect(page).toContain(`href="/en/chats/new/${ad.id}"`);
    // The seller sees no Chat on their own ad.
    expect(await (await seller.get(ad.url)).text()).not.toContain(`/en/chats/new/${ad.id}`);

    const start = await buyer.get(`/en/chats/new/${ad.id}`);
    expect(start.status).toBe(200);
    const html = await start.text();
    expect(html).toContain('Hello, is it still available?');
    const key = /name="client_key" value="([^"]+-q)"/.exec(html)?.[1] as string;
    const posted = await buyer.post(`/en/chats/new/${ad.id}`, {
      intent: 'send',
      body: 'Hello, is it still available?',
      client_key: key,
    });
    expect(posted.status).toBe(303);
    const thread = posted.headers.get('location') as string;
    expect(thread).toMatch(/^\/en\/chats\/\d+$/);
    const chatId = Number(thread.split('/').pop());
    // The same tap again (a double submit) stores nothing more.
    expect(
      (
        await buyer.post(`/en/chats/new/${ad.id}`, {
          intent: 'send',
          body: 'Hello, is it still available?',
          client_key: key,
        })
      ).status,
    ).toBe(303);
    expect(messageCount(chatId)).toBe(1);
    // From now on the ad page and the start page lead to the chat.
    expect(await (await buyer.get(ad.url)).text()).toContain(`href="/en/chats/${chatId}"`);
    const again = await buyer.get(`/en/chats/new/${ad.id}`);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe(`/en/chats/${chatId}`);
    // The seller's list shows it unread; the header counts it.
    const list = await (await seller.get('/en/chats')).text();
    expect(list).toContain('Toyota Corolla 2015 for chats');
    expect(list).toContain('1 unread message');
    expect(list).toContain('data-testid="chats-link" data-count="1"');
    // The thread shows the member's chats beside it (on a wide screen), the open one marked.
    const threadPage = await (await seller.get(`/en/chats/${chatId}`)).text();
    const side = threadPage.slice(threadPage.indexOf('data-testid="chats-side"'));
    expect(side).toContain('Toyota Corolla 2015 for chats');
    const open = new RegExp(`<a[^>]*href="/en/chats/${chatId}"[^>]*>`).exec(side.slice(side.indexOf('<ul')))?.[0];
    expect(open).toContain('aria-current="page"');
  });

  it('refuses the seller’s own ad, ads that are not live, bad offers and empty messages', async () => {
    const { seller, buyer, ad } = await setting('Toyota Corolla 2015 refusals');
    const own = await seller.get(`/en/chats/new/${ad.id}`);
    expect(own.status).toBe(403);
    expect(await own.text()).toContain('This is your ad');
    expect((await seller.post(`/en/chats/new/${ad.id}`, { intent: 'send', body: 'hi' })).status).toBe(403);

    const empty = await buyer.post(`/en/chats/new/${ad.id}`, { intent: 'send', body: '   ' });
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain('The message field is required');
    const long = await buyer.post(`/chats/new/${ad.id}`, { intent: 'send', body: 'x'.repeat(2001) });
    expect(long.status).toBe(422);
    const offer = await buyer.post(`/en/chats/new/${ad.id}`, { intent: 'offer', amount: 'abc' });
    expect(offer.status).toBe(422);
    expect(await offer.text()).toContain('The offer field must only contain digits');
    expect(sql('select id from chats where ad_id = ?', ad.id)).toEqual([]);

    sql("update ads set status = 'sold' where id = ? returning id", ad.id);
    const sold = await buyer.get(`/en/chats/new/${ad.id}`);
    expect(sold.status).toBe(403);
    expect(await sold.text()).toContain('This ad is no longer open to new chats.');
    const refused = await buyer.post(`/en/chats/new/${ad.id}`, { intent: 'send', body: 'still for sale?' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('This ad is no longer open to new chats.');
    expect(sql('select id from chats where ad_id = ?', ad.id)).toEqual([]);
    expect((await buyer.get('/en/chats/new/999999999')).status).toBe(404);
    expect((await buyer.get('/en/chats/new/abc')).status).toBe(404);
  });
});

describe('the thread', () => {
  it('works without JavaScript: send, offer and its answer, archive, block, report', async () => {
    const { seller, buyer, ad } = await setting('Toyota Corolla 2015 thread');
    const started = await buyer.post(`/en/chats/new/${ad.id}`, { intent: 'offer', amount: '40,000' });
    const path = started.headers.get('location') as string;
    const chatId = Number(path.split('/').pop());
    // Someone else's chat is no chat at all.
    const stranger = await member('chat-stranger');
    expect((await stranger.get(path)).status).toBe(404);
    expect((await stranger.post(path, { intent: 'send', body: 'hi' })).status).toBe(404);
    expect((await browser().get(path)).status).toBe(302);

    // The seller opens it: read, the offer card with its answers.
    const page = await (await seller.get(path)).text();
    expect(page).toContain('40,000 LYD');
    expect(page).toContain('name="decision" value="accept"');
    expect(sql('select unread_count from chat_members where chat_id = ? and role = ?', chatId, 'seller')).toEqual([
      { unread_count: 0 },
    ]);
    const offerId = sql<{ id: number }>(
      'select id from chat_messages where chat_id = ? and kind = ?',
      chatId,
      'offer',
    )[0]?.id as number;
    // The buyer cannot answer their own offer.
    const notYours = await buyer.post(path, {
      intent: 'answer-offer',
      message_id: String(offerId),
      decision: 'accept',
    });
    expect(notYours.status).toBe(403);
    expect(await notYours.text()).toContain('Only the seller accepts or declines offers.');
    const accepted = await seller.post(path, {
      intent: 'answer-offer',
      message_id: String(offerId),
      decision: 'accept',
    });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toBe(path);
    expect(
      (await seller.post(path, { intent: 'answer-offer', message_id: String(offerId), decision: 'decline' })).status,
    ).toBe(403);

    // Words: one reply, bad input refused with nothing stored.
    expect((await seller.post(path, { intent: 'send', body: 'Deal. Come on Saturday.' })).status).toBe(303);
    const count = messageCount(chatId);
    expect((await seller.post(path, { intent: 'send', body: '' })).status).toBe(422);
    expect((await seller.post(path, { intent: 'send', body: 'y'.repeat(2001) })).status).toBe(422);
    expect((await seller.post(path, { intent: 'nonsense' })).status).toBe(400);
    expect(messageCount(chatId)).toBe(count);
    const buyerPage = await (await buyer.get(path)).text();
    expect(buyerPage).toContain('Offer of 40,000 LYD accepted');
    expect(buyerPage).toContain('Deal. Come on Saturday.');

    // Archive: out of the inbox, into the archive; a new message brings it back.
    const archived = await seller.post(path, { intent: 'archive' });
    expect(archived.headers.get('location')).toBe('/en/chats');
    expect(await (await seller.get('/en/chats')).text()).not.toContain('Toyota Corolla 2015 thread');
    expect(await (await seller.get('/en/chats?archived=1')).text()).toContain('Toyota Corolla 2015 thread');
    expect((await buyer.post(path, { intent: 'send', body: 'See you then' })).status).toBe(303);
    expect(await (await seller.get('/en/chats')).text()).toContain('Toyota Corolla 2015 thread');

    // Block: the blocked buyer is told only that they cannot reply.
    expect((await seller.post(path, { intent: 'block' })).status).toBe(302);
    const blockedPage = await (await buyer.get(path)).text();
    expect(blockedPage).toContain('You can’t reply here.');
    expect(blockedPage).not.toContain('name="intent" value="send"');
    const refused = await buyer.post(path, { intent: 'send', body: 'Why?' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('You can’t reply here.');
    expect(await (await seller.get(path)).text()).toContain('Unblock');
    expect((await seller.post(path, { intent: 'unblock' })).status).toBe(302);

    // Report: stored for staff, naming the chat.
    expect((await buyer.post(path, { intent: 'report', reason: 'nonsense' })).status).toBe(422);
    expect((await buyer.post(path, { intent: 'report', reason: 'scam', note: 'asked for a deposit' })).status).toBe(
      302,
    );
    expect(sql('select reason, chat_id from reports where chat_id = ?', chatId)).toEqual([
      { reason: 'scam', chat_id: chatId },
    ]);
  });

  it('shows the recipient a safety tip beside a message asking for a deposit, in both languages', async () => {
    const { seller, buyer, ad } = await setting('Toyota Corolla 2015 safety');
    const path = (await buyer.post(`/en/chats/new/${ad.id}`, { intent: 'send', body: 'Hello' })).headers.get(
      'location',
    ) as string;
    expect((await seller.post(path, { intent: 'send', body: 'ارسل العربون بحوالة على 0912345678' })).status).toBe(303);
    expect(await (await buyer.get(path)).text()).toContain('Never send a deposit or a money transfer');
    expect(await (await buyer.get(path.replace('/en', ''))).text()).toContain('لا ترسل عربونًا أو حوالة');
  });

  it('sends a photo from the plain form, stripped and re-encoded', async () => {
    const { buyer, ad } = await setting('Toyota Corolla 2015 photo form');
    const path = (await buyer.post(`/en/chats/new/${ad.id}`, { intent: 'send', body: 'Hello' })).headers.get(
      'location',
    ) as string;
    const jpeg = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#888' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Acme' } })
      .toBuffer();
    const form = new FormData();
    form.set('intent', 'photo');
    form.set('body', 'The dent');
    form.set('image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'car.jpg');
    const res = await fetch(base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: buyer.cookieHeader(), origin: base, 'user-agent': BROWSER_UA, 'x-forwarded-for': buyer.ip },
      body: form,
    });
    expect(res.status).toBe(303);
    const key = sql<{ image_key: string }>(
      "select image_key from chat_messages where kind = 'image' and body = 'The dent'",
    )[0]?.image_key as string;
    expect(key).toMatch(/^chats\/\d{4}\/\d{2}\/[0-9a-f]{32}$/);
    const small = await fetch(`${base}/uploads/${key}-small.webp`);
    expect(small.status).toBe(200);
    const meta = await sharp(Buffer.from(await small.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 480 });
    expect(meta.exif).toBeUndefined();
    // Not an image: refused in words, nothing stored.
    const bad = new FormData();
    bad.set('intent', 'photo');
    bad.set(
      'image',
      new Blob([new TextEncoder().encode('not a photo at all, just text')], { type: 'image/jpeg' }),
      'x.jpg',
    );
    const refused = await fetch(base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: buyer.cookieHeader(), origin: base, 'user-agent': BROWSER_UA, 'x-forwarded-for': buyer.ip },
      body: bad,
    });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('This file is not a photo we can use');
  });
});

describe('the chats API', () => {
  it('starts, sends once per key, catches up after a cursor, reads, and lists', async () => {
    const { seller, buyer, ad } = await setting('Toyota Corolla 2015 over the API');
    const started = await api(buyer, 'POST', '/api/chats', {
      json: { ad_id: ad.id, body: 'Is it still available?', client_key: 'api-start-0001' },
    });
    expect(started.status).toBe(201);
    const { data: first } = (await started.json()) as {
      data: { chat_id: number; created: boolean; message: ApiMessage };
    };
    expect(first.created).toBe(true);
    const chatId = first.chat_id;
    const repeat = await api(buyer, 'POST', '/api/chats', {
      json: { ad_id: ad.id, body: 'Is it still available?', client_key: 'api-start-0001' },
    });
    expect(repeat.status).toBe(200);

    const send = (b: Browser, json: unknown, locale?: 'ar' | 'en') =>
      api(b, 'POST', `/api/chats/${chatId}/messages`, { json, locale });
    const one = await send(seller, { body: 'Yes, call me on 091 234 5678', client_key: 'api-message-01' });
    expect(one.status).toBe(201);
    const sent = ((await one.json()) as { data: ApiMessage }).data;
    expect(sent.flags).toContain('phone');
    expect((await send(seller, { body: 'Yes, call me on 091 234 5678', client_key: 'api-message-01' })).status).toBe(
      200,
    );
    expect(messageCount(chatId)).toBe(2);

    // Bad input, in the asked language; nothing stored.
    const empty = await send(seller, { body: '' }, 'ar');
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { errors: Record<string, string[]> }).errors.body?.[0]).toContain('الرسالة');
    const long = await send(seller, { body: 'z'.repeat(2001) }, 'en');
    expect(long.status).toBe(422);
    expect(((await long.json()) as { errors: Record<string, string[]> }).errors.body).toEqual([
      'The message field must not be longer than 2,000 characters',
    ]);
    expect((await send(seller, { body: 'ok', client_key: 'bad key!' })).status).toBe(422);
    expect((await send(seller, { amount: 100 })).status).toBe(403);
    expect(messageCount(chatId)).toBe(2);

    // Guards: no session, no XSRF token, someone else's chat, no such chat.
    expect((await api(browser(), 'POST', `/api/chats/${chatId}/messages`, { json: { body: 'hi' } })).status).toBe(401);
    expect(
      (await api(buyer, 'POST', `/api/chats/${chatId}/messages`, { json: { body: 'hi' }, xsrf: false })).status,
    ).toBe(419);
    const stranger = await member('chat-api-stranger');
    expect((await api(stranger, 'POST', `/api/chats/${chatId}/messages`, { json: { body: 'hi' } })).status).toBe(404);
    expect((await api(stranger, 'GET', `/api/chats/${chatId}/messages`)).status).toBe(404);
    expect((await api(buyer, 'POST', '/api/chats/999999999/messages', { json: { body: 'hi' } })).status).toBe(404);
    expect((await api(buyer, 'POST', '/api/chats', { json: { ad_id: 999999999, body: 'hi' } })).status).toBe(404);
    expect((await api(seller, 'POST', '/api/chats', { json: { ad_id: ad.id, body: 'hi' } })).status).toBe(403);
    expect((await api(buyer, 'POST', '/api/chats', { json: { body: 'hi' } })).status).toBe(422);

    // Catch-up after the buyer's last message: the seller's reply, once.
    const after = await api(buyer, 'GET', `/api/chats/${chatId}/messages?after=${first.message.id}`);
    expect(after.status).toBe(200);
    const caught = (await after.json()) as { data: ApiMessage[]; meta: { more: boolean; other_last_read: number } };
    expect(caught.data.map((m) => m.id)).toEqual([sent.id]);
    expect(caught.meta.more).toBe(false);
    expect((await api(buyer, 'GET', `/api/chats/${chatId}/messages?after=-1`)).status).toBe(422);

    // Read receipts.
    const read = await api(buyer, 'POST', `/api/chats/${chatId}/read`, { json: {} });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: unknown }).data).toEqual({
      last_read_message_id: sent.id,
      unread: 0,
      unread_chats: 0,
    });
    const sellerSide = (await (await api(seller, 'GET', `/api/chats/${chatId}/messages?after=0`)).json()) as {
      meta: { other_last_read: number };
    };
    expect(sellerSide.meta.other_last_read).toBe(sent.id);

    // The lists.
    const list = (await (await api(seller, 'GET', '/api/chats')).json()) as {
      data: { id: number; unread: number; role: string }[];
      meta: { next: number | null };
    };
    // The buyer's first message is still unread for the seller.
    expect(list.data[0]).toMatchObject({ id: chatId, role: 'seller', unread: 1 });
    expect((await api(seller, 'GET', '/api/chats?before=abc')).status).toBe(422);
    expect((await api(browser(), 'GET', '/api/chats')).status).toBe(401);
  });

  it('takes a photo by content, and lets the seller answer an offer once', async () => {
    const { seller, buyer, ad } = await setting('Toyota Corolla 2015 API photo');
    const started = (await (
      await api(buyer, 'POST', '/api/chats', { json: { ad_id: ad.id, amount: '42000' } })
    ).json()) as { data: { chat_id: number; message: ApiMessage } };
    const chatId = started.data.chat_id;
    expect(started.data.message.offer).toEqual({ amount: 42000, currency: 'LYD', status: 'pending' });

    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const photo = new FormData();
    photo.set('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png');
    photo.set('client_key', 'api-photo-0001');
    const up = await api(buyer, 'POST', `/api/chats/${chatId}/images`, { body: photo });
    expect(up.status).toBe(201);
    const image = ((await up.json()) as { data: ApiMessage }).data;
    expect(image.kind).toBe('image');
    expect(image.image?.width).toBe(64);
    const text = new FormData();
    text.set(
      'image',
      new Blob([new TextEncoder().encode('hello there, not an image')], { type: 'image/png' }),
      'p.png',
    );
    const refused = await api(buyer, 'POST', `/api/chats/${chatId}/images`, { body: text, locale: 'en' });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors.image?.[0]).toContain(
      'not a photo we can use',
    );
    expect((await api(buyer, 'POST', `/api/chats/${chatId}/images`, { json: { body: 'x' } })).status).toBe(422);

    const answer = (b: Browser, decision: string) =>
      api(b, 'POST', `/api/chats/${chatId}/offers/${started.data.message.id}`, { json: { decision } });
    expect((await answer(seller, 'maybe')).status).toBe(422);
    expect((await answer(buyer, 'accept')).status).toBe(403);
    const declined = await answer(seller, 'decline');
    expect(declined.status).toBe(201);
    expect(((await declined.json()) as { data: ApiMessage }).data.kind).toBe('offer-declined');
    expect((await answer(seller, 'accept')).status).toBe(403);
  });
});

describe('the email of unread messages', () => {
  const reminders = (chatId: number, status: string) =>
    sql<{ id: number; run_at: number }>(
      "select id, run_at from jobs where name = 'chat-unread-reminder' and status = ? and payload like ?",
      status,
      `{"chatId":${chatId},%`,
    );
  /** The reminder's time comes: its run-at moved to now, the server's own worker runs it. */
  const due = async (chatId: number) => {
    const [job] = reminders(chatId, 'pending');
    expect(job).toBeDefined();
    sql('update jobs set run_at = ? where id = ? returning id', Date.now(), job?.id as number);
    const deadline = Date.now() + 15_000;
    while (!sql("select 1 from jobs where id = ? and status = 'done'", job?.id as number).length) {
      if (Date.now() > deadline) throw new Error('the reminder did not run');
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('mails a seller who turned chat emails on, once for a burst, 15 minutes on; one click stops them', async () => {
    const { seller, buyer, ad } = await setting('Toyota Corolla 2015 for a chat reminder');
    const [owner] = sql<{ id: string; email: string }>(
      'select users.id, users.email from ads join users on users.id = ads.user_id where ads.id = ?',
      ad.id,
    );
    expect((await seller.post('/en/profile', { intent: 'notifications', email: 'chat-message' })).status).toBe(302);
    const started = await api(buyer, 'POST', '/api/chats', { json: { ad_id: ad.id, body: 'Is it still available?' } });
    const chatId = ((await started.json()) as { data: { chat_id: number } }).data.chat_id;
    const more = await api(buyer, 'POST', `/api/chats/${chatId}/messages`, { json: { body: 'Your final price?' } });
    expect(more.status).toBe(201);
    // One reminder for both messages, 15 minutes on; no notification.
    const [pending, ...others] = reminders(chatId, 'pending');
    expect(others).toEqual([]);
    expect(Number(pending?.run_at) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(sql('select id from notifications where user_id = ?', owner?.id as string)).toEqual([]);

    await due(chatId);
    const mail = await waitForMail(mailDir, owner?.email as string, /wrote to you about/, 15_000);
    expect(mail.subject).toBe('Member wrote to you about “Toyota Corolla 2015 for a chat reminder”');
    expect(mail.body).toContain('You have 2 unread messages from Member in the chat about:');
    expect(mail.links.some((l) => l.endsWith(`/en/chats/${chatId}`))).toBe(true);
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const token = (/<([^>]+)>/.exec(mail.header('List-Unsubscribe'))?.[1] ?? '').split('/').pop() as string;
    const res = await fetch(`${base}/api/unsubscribe/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(204);
    expect(
      sql(
        'select enabled from notification_preferences where user_id = ? and type = ? and channel = ?',
        owner?.id as string,
        'chat-message',
        'email',
      ),
    ).toEqual([{ enabled: 0 }]);

    // Still unread, a new message plans a new reminder; chat emails are off now, so it sends nothing.
    await api(buyer, 'POST', `/api/chats/${chatId}/messages`, { json: { body: 'Hello?' } });
    await due(chatId);
    // Mails are handed to `send-mail` jobs as the reminder runs: one notification mail to the seller, ever.
    const mails = sql(
      "select id from jobs where name = 'send-mail' and payload like ? and payload like ?",
      '{"kind":"notification",%',
      `%"to":"${owner?.email}"%`,
    );
    expect(mails).toHaveLength(1);
  });
});
