// The email for unread chat messages (server/domain/chats/reminders.ts, docs/product/chats.md
// "Emails") on every dialect, through the real job worker and a real SMTP server: a message plans
// one reminder per chat and recipient, run 15 minutes later (time is the worker's clock, moved past
// the job's run-at); it mails the recipient in their language — who wrote, the ad, how many are
// unread, the thread's link, one-click unsubscribe — unless they read up to the message, do not want
// chat emails (the default), cannot receive mail, or the chat is blocked or closed for them. No
// chat message writes a notification.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { placeholderEmail } from '../../server/auth/placeholder-email.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson } from '../../server/db/values.ts';
import { createAd, resolveCategoryPath } from '../../server/domain/ads/placing.ts';
import { listCategoryAttributes } from '../../server/domain/catalog.ts';
import { startChat } from '../../server/domain/chats/chats.ts';
import { blockChatMember } from '../../server/domain/chats/members.ts';
import { answerOffer, markChatRead, sendMessage } from '../../server/domain/chats/messages.ts';
import { CHAT_REMINDER_DELAY_MS } from '../../server/domain/notification-mail/plans.ts';
import { readUnsubscribeToken, stopEmails } from '../../server/domain/notification-mail/unsubscribe.ts';
import { wantsNotification } from '../../server/domain/profile.ts';
import { jobHandlers } from '../../server/jobs/app-jobs.ts';
import { createWorker, type Worker } from '../../server/jobs/queue.ts';
import { createLogger } from '../../server/logger.ts';
import { createMailer } from '../../server/mail/index.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { type CapturedMail, readMails, startSmtpCapture } from '../support/smtp-capture.ts';

const logger = createLogger('silent');
const SECRET = 'chat-reminder-test-secret-0123456789abcdef';
const MINUTE = 60_000;

describe.each(dialects)('chat reminders on %s', (dialect) => {
  let t: TestDatabase;
  let cityId: number;
  let mailDir: string;
  let smtp: { url: string; stop: () => Promise<void> };
  let worker: Worker;
  let clock = Date.now();

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    cityId = (await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow()).id;
    mailDir = mkdtempSync(path.join(tmpdir(), 'souq-chat-mail-'));
    smtp = await startSmtpCapture(mailDir);
    worker = createWorker({
      db: t.db,
      dialect,
      logger,
      handlers: jobHandlers({
        mailer: createMailer({ smtpUrl: smtp.url, mailFrom: 'Souq <no-reply@souq.test>', dataDir: mailDir }, logger),
        links: { origin: 'http://souq.test', secret: SECRET },
      }),
      now: () => clock,
    });
  });
  afterAll(async () => {
    await smtp.stop();
    await t.drop();
    rmSync(mailDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.db.deleteFrom('jobs').execute();
    clock = Date.now();
  });

  let members = 0;
  /** A member with a confirmed address of their own, in `locale`, who wants chat emails unless told. */
  const member = async (
    name: string,
    locale: 'ar' | 'en',
    options: { chatMail?: boolean; email?: string; verified?: boolean } = {},
  ) => {
    const m = await insertMember(t.db, { name });
    const email = options.email ?? `member-${++members}-${Date.now()}@example.ly`;
    await t.db
      .updateTable('users')
      .set({ locale, email, email_verified: options.verified ?? true })
      .where('id', '=', m.id)
      .execute();
    if (options.chatMail !== false) {
      await t.db
        .insertInto('notification_preferences')
        .values({ user_id: m.id, type: 'chat-message', channel: 'email', enabled: true, updated_at: new Date() })
        .execute();
    }
    return { id: m.id, email };
  };
  const liveAd = async (owner: { id: string }, title = 'Toyota Corolla 2015') => {
    const ad = await createAd(
      t.db,
      { moderation: 'pre' },
      { ...owner, ip: '10.0.0.1', userAgent: 'test' },
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      await listCategoryAttributes(t.db, 'toyota'),
      toyotaAdInput(cityId, { title }),
    );
    await t.db.updateTable('ads').set({ status: 'published' }).where('id', '=', ad.id).execute();
    return ad;
  };
  /** A seller (Arabic unless told), a buyer, a live ad and a chat the buyer started with `first`. */
  const chatOf = async (
    seller: { id: string },
    buyer: { id: string },
    first = 'هل ما زالت متوفرة؟',
    title?: string,
  ) => {
    const ad = await liveAd(seller, title);
    const started = await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, { kind: 'text', body: first });
    return { chatId: started.message.chat_id, adId: ad.id, firstId: started.message.id };
  };
  const say = (chatId: number, senderId: string, body: string) =>
    sendMessage(t.db, { chatId, senderId }, { kind: 'text', body });
  /** The worker's clock moved `ms` past now, and every job due by then run (mails go out as they run). */
  const runAfter = async (ms: number) => {
    clock = Date.now() + ms;
    return worker.drain();
  };
  const mailsTo = (email: string): CapturedMail[] => readMails(mailDir).filter((m) => m.to === email);
  /** The reminder jobs (by status), payloads read. */
  const reminders = async (status?: 'pending' | 'done') => {
    let q = t.db.selectFrom('jobs').select(['status', 'payload', 'run_at']).where('name', '=', 'chat-unread-reminder');
    if (status) q = q.where('status', '=', status);
    return (await q.execute()).map((j) => ({ ...j, payload: toJson<Record<string, unknown>>(j.payload, {}) }));
  };

  it('mails the recipient in Arabic after 15 minutes when the message is still unread', async () => {
    const seller = await member('سالم', 'ar');
    const buyer = await member('أمل', 'en');
    const { chatId, firstId } = await chatOf(seller, buyer, 'هل ما زالت متوفرة؟', 'تويوتا كورولا 2015');
    const [job] = await reminders('pending');
    expect(job?.payload).toMatchObject({ chatId, userId: seller.id, messageId: firstId });
    // Not before its time.
    await runAfter(CHAT_REMINDER_DELAY_MS - MINUTE);
    expect(await reminders('pending')).toHaveLength(1);
    expect(mailsTo(seller.email)).toEqual([]);

    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    const mails = mailsTo(seller.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0] as CapturedMail;
    expect(mail.subject).toBe('راسلك أمل بخصوص «تويوتا كورولا 2015»');
    expect(mail.body).toContain('مرحبًا سالم،');
    expect(mail.body).toContain('لديك رسالة واحدة غير مقروءة من أمل في المحادثة عن:');
    expect(mail.body).toContain('تويوتا كورولا 2015');
    expect(mail.body).toContain('افتح المحادثة');
    expect(mail.body).toContain('dir="rtl"');
    expect(mail.links).toContain(`http://souq.test/chats/${chatId}`);
    expect(mail.body).toContain('إيقاف الرسائل عن: رسالة جديدة في محادثة');
    // RFC 8058 one-click unsubscribe, for this member and chat emails.
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const oneClick = /<([^>]+)>/.exec(mail.header('List-Unsubscribe'))?.[1] ?? '';
    expect(oneClick).toMatch(/^http:\/\/souq\.test\/api\/unsubscribe\/[\w-]+\.[\w-]+$/);
    expect(readUnsubscribeToken(SECRET, oneClick.split('/').pop() as string)).toEqual({
      userId: seller.id,
      type: 'chat-message',
    });
    expect(mail.links.some((l) => l.startsWith('http://souq.test/unsubscribe/'))).toBe(true);
    // Chat messages are not notifications.
    const rows = await t.db.selectFrom('notifications').select('id').where('user_id', '=', seller.id).execute();
    expect(rows).toEqual([]);
  });

  it('mails in English to an English-speaking member, with the count and the /en link', async () => {
    const seller = await member('Salem', 'ar', { chatMail: false });
    const buyer = await member('Amal', 'en');
    const { chatId } = await chatOf(seller, buyer, 'Is it still available?');
    await say(chatId, seller.id, 'Yes, it is.');
    await say(chatId, seller.id, 'You can see it in Tripoli.');
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    const mails = mailsTo(buyer.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0] as CapturedMail;
    expect(mail.subject).toBe('Salem wrote to you about “Toyota Corolla 2015”');
    expect(mail.body).toContain('Hello Amal,');
    expect(mail.body).toContain('You have 2 unread messages from Salem in the chat about:');
    expect(mail.body).toContain('Open the chat');
    expect(mail.body).toContain('Stop emails about: New chat message');
    expect(mail.links).toContain(`http://souq.test/en/chats/${chatId}`);
    expect(mail.links.some((l) => l.startsWith('http://souq.test/en/unsubscribe/'))).toBe(true);
    expect(mail.header('List-Unsubscribe')).toMatch(/^<http:\/\/souq\.test\/api\/unsubscribe\/.+>$/);
    // The seller (chat emails off, the default) got nothing for the buyer's first message.
    expect(mailsTo(seller.email)).toEqual([]);
  });

  it('sends one reminder for a burst of messages; after it, the next message plans another', async () => {
    const seller = await member('سالم', 'ar');
    const buyer = await member('أمل', 'ar');
    const { chatId } = await chatOf(seller, buyer);
    await say(chatId, buyer.id, 'السعر نهائي؟');
    await say(chatId, buyer.id, 'أين أستطيع رؤيتها؟');
    expect(await reminders('pending')).toHaveLength(1);
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    let mails = mailsTo(seller.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body).toContain('لديك 3 رسائل غير مقروءة من أمل في المحادثة عن:');
    expect(await reminders('pending')).toEqual([]);
    // A later drain sends nothing more for the same messages.
    await runAfter(3 * CHAT_REMINDER_DELAY_MS);
    expect(mailsTo(seller.email)).toHaveLength(1);

    // Still unread: the next message plans a new reminder, which counts all four.
    await say(chatId, buyer.id, 'هل تقبل المبادلة؟');
    expect(await reminders('pending')).toHaveLength(1);
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    mails = mailsTo(seller.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.body).toContain('لديك 4 رسائل غير مقروءة من أمل في المحادثة عن:');
  });

  it('sends nothing when the recipient read the message before the delay', async () => {
    const seller = await member('سالم', 'ar');
    const buyer = await member('أمل', 'ar');
    const { chatId } = await chatOf(seller, buyer);
    await markChatRead(t.db, seller.id, chatId);
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    expect(await reminders('done')).toHaveLength(1);
    expect(await reminders('pending')).toEqual([]);
    expect(mailsTo(seller.email)).toEqual([]);

    // The next unread message plans a reminder of its own.
    await say(chatId, buyer.id, 'السعر نهائي؟');
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    const mails = mailsTo(seller.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body).toContain('لديك رسالة واحدة غير مقروءة');
  });

  it('read up to the message but not the ones after it: those get their own reminder', async () => {
    const seller = await member('Salem', 'en');
    const buyer = await member('Amal', 'en');
    const { chatId, firstId } = await chatOf(seller, buyer, 'Is it still available?');
    await markChatRead(t.db, seller.id, chatId);
    // Written five minutes later, while the first reminder is pending: it plans none of its own.
    const later = await sendMessage(
      t.db,
      { chatId, senderId: buyer.id },
      { kind: 'text', body: 'Can I see it tomorrow?' },
      new Date(Date.now() + 5 * MINUTE),
    );
    expect(await reminders('pending')).toHaveLength(1);
    expect((await reminders('pending'))[0]?.payload).toMatchObject({ messageId: firstId });
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    expect(mailsTo(seller.email)).toEqual([]);
    const [next] = await reminders('pending');
    expect(next?.payload).toMatchObject({ chatId, userId: seller.id, messageId: later.message.id });
    expect(Number(next?.run_at)).toBe(new Date(later.message.created_at).getTime() + CHAT_REMINDER_DELAY_MS);
    await runAfter(CHAT_REMINDER_DELAY_MS + 6 * MINUTE);
    const mails = mailsTo(seller.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body).toContain('You have 1 unread message from Amal in the chat about:');
  });

  it('sends nothing to a member who did not turn chat emails on (the default)', async () => {
    const seller = await member('سالم', 'ar', { chatMail: false });
    const buyer = await member('أمل', 'ar');
    expect(await wantsNotification(t.db, seller.id, 'chat-message', 'email')).toBe(false);
    await chatOf(seller, buyer);
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    expect(await reminders('done')).toHaveLength(1);
    expect(mailsTo(seller.email)).toEqual([]);
  });

  it('sends nothing where mail does not reach: a placeholder, an unconfirmed address, a banned member', async () => {
    const buyer = await member('أمل', 'ar');
    const phoneOnly = await member('هاتف', 'ar', { email: placeholderEmail() });
    const unconfirmed = await member('غير مؤكد', 'ar', { verified: false });
    const banned = await member('محظور', 'ar');
    for (const seller of [phoneOnly, unconfirmed, banned]) await chatOf(seller, buyer);
    await t.db.updateTable('users').set({ banned_at: new Date() }).where('id', '=', banned.id).execute();
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    expect(await reminders('done')).toHaveLength(3);
    for (const seller of [phoneOnly, unconfirmed, banned]) expect(mailsTo(seller.email)).toEqual([]);
  });

  it('sends nothing once the chat is blocked either way or closed', async () => {
    const buyer = await member('أمل', 'ar');
    const blocker = await member('حاجب', 'ar');
    const blocked = await member('محجوب', 'ar');
    const closed = await member('مغلق', 'ar');
    const a = await chatOf(blocker, buyer);
    const b = await chatOf(blocked, buyer);
    const c = await chatOf(closed, buyer);
    await blockChatMember(t.db, blocker.id, a.chatId);
    await blockChatMember(t.db, buyer.id, b.chatId);
    await t.db.updateTable('ads').set({ status: 'deleted' }).where('id', '=', c.adId).execute();
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    expect(await reminders('done')).toHaveLength(3);
    for (const seller of [blocker, blocked, closed]) expect(mailsTo(seller.email)).toEqual([]);
  });

  it('reminds the buyer of the seller’s answer to an offer', async () => {
    const seller = await member('Salem', 'en', { chatMail: false });
    const buyer = await member('Amal', 'en');
    const ad = await liveAd(seller);
    const started = await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, { kind: 'offer', amount: 40_000 });
    await answerOffer(t.db, {
      chatId: started.message.chat_id,
      userId: seller.id,
      messageId: started.message.id,
      decision: 'accept',
    });
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    expect(mailsTo(buyer.email).map((m) => m.subject)).toEqual(['Salem wrote to you about “Toyota Corolla 2015”']);
  });

  it('stops with the mail’s unsubscribe link: chat emails off, the next reminder sends nothing', async () => {
    const seller = await member('سالم', 'ar');
    const buyer = await member('أمل', 'ar');
    const { chatId } = await chatOf(seller, buyer);
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    const [mail] = mailsTo(seller.email);
    const oneClick = /<([^>]+)>/.exec(mail?.header('List-Unsubscribe') ?? '')?.[1] ?? '';
    const page = mail?.links.find((l) => l.startsWith('http://souq.test/unsubscribe/')) ?? '';
    // The page's link and the one-click address carry the same token.
    expect(page.split('/').pop()).toBe(oneClick.split('/').pop());
    // What `POST /api/unsubscribe/{token}` does (server/http: tested end to end in tests/http/saved-searches.test.ts).
    const request = readUnsubscribeToken(SECRET, oneClick.split('/').pop() as string);
    expect(request).toEqual({ userId: seller.id, type: 'chat-message' });
    if (!request || request === 'expired') throw new Error('token refused');
    expect(await stopEmails(t.db, request)).toBe(true);
    expect(await wantsNotification(t.db, seller.id, 'chat-message', 'email')).toBe(false);

    await say(chatId, buyer.id, 'السعر نهائي؟');
    await runAfter(CHAT_REMINDER_DELAY_MS + MINUTE);
    expect(await reminders('pending')).toEqual([]);
    expect(mailsTo(seller.email)).toHaveLength(1);
  });
});
