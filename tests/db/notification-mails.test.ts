// Notification emails (docs/product/alerts.md, "Emails") on both dialects, from the change that
// plans them to a real SMTP server: the job worker (server/jobs/queue.ts, with the app's handlers)
// runs on a clock of the test's own, so a mail planned "after 10 minutes unless read" and the
// digest's "from 08:00 Libyan time" are reached by moving the clock, never by waiting. Each test
// drains the queue, so every mail it could cause has reached the SMTP server when it reads them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../app/lib/search-query.ts';
import { NOTIFICATION_TYPES } from '../../app/lib/validation/profile.ts';
import type { AlertFrequency } from '../../app/lib/validation/saved-search.ts';
import { placeholderEmail } from '../../server/auth/placeholder-email.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toNumber } from '../../server/db/values.ts';
import { moveAd } from '../../server/domain/ads/status.ts';
import { MINUTE } from '../../server/domain/notification-mail/plans.ts';
import {
  emailsOn,
  readUnsubscribeToken,
  stopEmails,
  UNSUBSCRIBE_DAYS,
  unsubscribeToken,
} from '../../server/domain/notification-mail/unsubscribe.ts';
import { markNotificationRead, notify } from '../../server/domain/notifications.ts';
import { saveNotificationPreferences } from '../../server/domain/profile.ts';
import { alertSavedSearches, digestStart } from '../../server/domain/search/alerts.ts';
import { saveSearch } from '../../server/domain/search/saved.ts';
import { resolveQuery, searchEngine } from '../../server/domain/search/service.ts';
import { jobHandlers } from '../../server/jobs/app-jobs.ts';
import { createWorker, type Worker } from '../../server/jobs/queue.ts';
import { enqueue } from '../../server/jobs/registry.ts';
import { createLogger } from '../../server/logger.ts';
import { createMailer } from '../../server/mail/index.ts';
import { insertMember } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { placeSearchAd } from '../support/search-ads.ts';
import { type CapturedMail, readMails, startSmtpCapture } from '../support/smtp-capture.ts';

const ORIGIN = 'http://souq.test';
const SECRET = 'notification-mail-test-secret-0123456789';
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe.each(dialects)('notification emails on %s', (dialect) => {
  let t: TestDatabase;
  let mailDir: string;
  let smtp: { url: string; stop: () => Promise<void> };
  let worker: Worker;
  /** The worker's clock: a job runs once its run_at is at or before it. */
  let clock = Date.now();

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    mailDir = mkdtempSync(path.join(tmpdir(), 'souq-notification-mails-'));
    smtp = await startSmtpCapture(mailDir);
    const logger = createLogger('silent');
    worker = createWorker({
      db: t.db,
      dialect,
      logger,
      handlers: jobHandlers({
        mailer: createMailer({ smtpUrl: smtp.url, mailFrom: 'Souq <no-reply@souq.test>', dataDir: mailDir }, logger),
        links: { origin: ORIGIN, secret: SECRET },
      }),
      now: () => clock,
    });
  });
  afterAll(async () => {
    await smtp.stop();
    await t.drop();
    rmSync(mailDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    // Jobs enqueued now (run_at: now) are due; delayed ones are not, until a test moves the clock.
    clock = Date.now() + MINUTE;
  });

  /** Runs every due job (mails included: `send-mail` jobs are due as soon as they are enqueued). */
  const drain = () => worker.drain();
  const mailsTo = (email: string): CapturedMail[] => readMails(mailDir).filter((m) => m.to === email);

  /** A member whose mail arrives: a confirmed address of their own, in `locale`. */
  async function recipient(name: string, locale: 'ar' | 'en', over: Record<string, unknown> = {}) {
    const m = await insertMember(t.db, { name });
    await t.db
      .updateTable('users')
      .set({ email_verified: true, locale, ...over } as never)
      .where('id', '=', m.id)
      .execute();
    const { email } = await t.db.selectFrom('users').select('email').where('id', '=', m.id).executeTakeFirstOrThrow();
    return { ...m, name, email };
  }

  async function saved(userId: string, params: string, name: string, frequency: AlertFrequency) {
    const catalogue = await searchEngine(t).catalogue();
    const query = resolveQuery(catalogue, parseSearchQuery(new URLSearchParams(params)));
    return (await saveSearch(t.db, userId, query, name, frequency)).id;
  }

  /** The one-click address of a mail's List-Unsubscribe header, and its token. */
  function oneClickOf(mail: CapturedMail): { url: string; token: string } {
    const url = /^<([^>]+)>$/.exec(mail.header('List-Unsubscribe'))?.[1] ?? '';
    return { url, token: url.split('/').pop() ?? '' };
  }

  const jobsNamed = async (name: string) =>
    (await t.db.selectFrom('jobs').select(['status', 'payload', 'run_at']).where('name', '=', name).execute()).map(
      (j) => ({ ...j, payload: typeof j.payload === 'string' ? JSON.parse(j.payload) : j.payload }),
    );

  it('mails an instant match in English to an English-speaking member, with its link and one-click unsubscribe', async () => {
    const watcher = await recipient('Sam', 'en');
    await saved(watcher.id, 'category=toyota', 'Toyota', 'instant');
    await saved(watcher.id, 'category=cars&city=tripoli', 'Cars in Tripoli', 'instant');
    const seller = await recipient('Seller', 'en');
    await saved(seller.id, 'category=toyota', 'Mine', 'instant');
    const title = 'Toyota Corolla 2015 full option';
    const adId = await placeSearchAd(t, {
      title,
      category: 'toyota',
      city: 'tripoli',
      price: 45000,
      status: 'pending',
    });
    await t.db.updateTable('ads').set({ user_id: seller.id }).where('id', '=', adId).execute();

    // A moderator publishes it: the alert job, then the notification's mail job, then the mail.
    await moveAd(t.db, await insertMember(t.db), adId, 'approve');
    await drain();

    const [mail, ...more] = mailsTo(watcher.email);
    expect(more).toEqual([]);
    if (!mail) throw new Error('no mail to the watcher');
    // Both of the member's searches named, listed the English way.
    expect(mail.subject).toMatch(/^New on Souq for “(Toyota, Cars in Tripoli|Cars in Tripoli, Toyota)”: /);
    expect(mail.subject.endsWith(`: ${title}`)).toBe(true);
    expect(mail.body).toContain('Hello Sam,');
    expect(mail.body).toContain('A new ad matches your saved search “');
    expect(mail.body).toContain('Price: 45,000 LYD');
    expect(mail.body).toContain('See the ad');
    expect(mail.body).toContain('Stop emails about: New ads for a saved search');
    expect(mail.body).toMatch(/<html lang="en[-\w]*" dir="ltr">/);
    expect(mail.body).not.toMatch(/[\u0600-\u06FF]/);
    expect(mail.links).toContain(`${ORIGIN}/en/motors/toyota/ad-${adId}`);
    expect(mail.links).toContain(`${ORIGIN}/en/profile#notifications`);

    // RFC 8058: the one-click address (a POST stops them) and the page the foot links to.
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const oneClick = oneClickOf(mail);
    expect(oneClick.url).toBe(`${ORIGIN}/api/unsubscribe/${oneClick.token}`);
    expect(mail.links).toContain(`${ORIGIN}/en/unsubscribe/${oneClick.token}`);
    expect(readUnsubscribeToken(SECRET, oneClick.token)).toEqual({ userId: watcher.id, type: 'saved-search-match' });

    // The seller's own search says nothing of their own ad (they hear of its approval only).
    expect(mailsTo(seller.email).map((m) => m.subject)).toEqual([]);
  });

  it('sends each member one digest a day, with a count per search in their language; none without matches', async () => {
    // The digest's day: tomorrow in Libya, so every job enqueued today is due by then.
    const morning = digestStart(new Date(Date.now() + DAY)).getTime();
    const en = await recipient('Nadia', 'en');
    const ar = await recipient('سالم', 'ar');
    const quiet = await recipient('Quiet', 'en');
    await saved(en.id, 'category=toyota&city=misrata', 'Toyota in Misrata', 'daily');
    await saved(en.id, 'category=hyundai&city=misrata', 'Hyundai in Misrata', 'daily');
    await saved(en.id, 'category=apartments-for-sale&city=misrata', 'Flats in Misrata', 'daily');
    await saved(ar.id, 'category=toyota&city=misrata', 'تويوتا مصراتة', 'daily');
    await saved(quiet.id, 'category=apartments-for-rent&city=misrata', 'Rentals in Misrata', 'daily');
    const place = async (title: string, category: string) => {
      const id = await placeSearchAd(t, { title, category, city: 'misrata', price: 30000 });
      await alertSavedSearches(t.db, id);
      return id;
    };
    await place('Toyota Yaris', 'toyota');
    await place('Toyota Hilux', 'toyota');
    await place('Hyundai Tucson', 'hyundai');
    await drain();
    expect([...mailsTo(en.email), ...mailsTo(ar.email), ...mailsTo(quiet.email)]).toEqual([]);

    /** The hourly digest job run at `at` (the worker's clock). */
    const digestAt = async (at: number) => {
      clock = at;
      await enqueue(t.db, 'saved-search-digests', {});
      await drain();
    };

    // Before 08:00 Libyan time: nothing.
    await digestAt(morning - 5 * MINUTE);
    expect(mailsTo(en.email)).toEqual([]);

    await digestAt(morning + 5 * MINUTE);
    const [digest, ...moreEn] = mailsTo(en.email);
    expect(moreEn).toEqual([]);
    if (!digest) throw new Error('no digest to the English member');
    expect(digest.subject).toBe('3 new ads for your saved searches');
    expect(digest.body).toContain('Hello Nadia,');
    expect(digest.body).toContain('New ads that match your saved searches since yesterday:');
    expect(digest.body).toContain(`Toyota in Misrata: 2 new ads: ${ORIGIN}/en/posts?category=toyota&city=misrata`);
    expect(digest.body).toContain(`Hyundai in Misrata: 1 new ad: ${ORIGIN}/en/posts?category=hyundai&city=misrata`);
    // A search without new ads is not listed.
    expect(digest.body).not.toContain('Flats in Misrata');
    expect(digest.links).toContain(`${ORIGIN}/en/searches`);
    expect(digest.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(readUnsubscribeToken(SECRET, oneClickOf(digest).token)).toEqual({
      userId: en.id,
      type: 'saved-search-match',
    });

    const [arDigest, ...moreAr] = mailsTo(ar.email);
    expect(moreAr).toEqual([]);
    expect(arDigest?.subject).toBe('إعلانان جديدان لعمليات بحثك المحفوظة');
    expect(arDigest?.body).toContain('مرحبًا سالم');
    expect(arDigest?.body).toContain(`تويوتا مصراتة: إعلانان جديدان: ${ORIGIN}/posts?category=toyota&city=misrata`);
    expect(arDigest?.body).toMatch(/<html lang="ar[-\w]*" dir="rtl">/);

    // A member whose searches found nothing gets neither a mail nor a notification.
    expect(mailsTo(quiet.email)).toEqual([]);
    const quietNotes = await t.db.selectFrom('notifications').select('id').where('user_id', '=', quiet.id).execute();
    expect(quietNotes).toEqual([]);
    // On the site: one notification per search delivered, none mailed on its own.
    const enNotes = await t.db
      .selectFrom('notifications')
      .select(['id', 'type'])
      .where('user_id', '=', en.id)
      .execute();
    expect(enNotes.map((n) => n.type)).toEqual(['saved-search-match', 'saved-search-match']);
    for (const { payload } of await jobsNamed('notification-mail')) {
      expect(enNotes.map((n) => toNumber(n.id))).not.toContain(payload.notificationId);
    }

    // The job runs every hour: the same day it sends nothing again, even when a search of the member's
    // that had nothing this morning finds an ad since (it waits for tomorrow's digest).
    await digestAt(morning + HOUR);
    await place('شقة للبيع في مصراتة', 'apartments-for-sale');
    await digestAt(morning + 4 * HOUR);
    await digestAt(morning + 15 * HOUR);
    expect(mailsTo(en.email)).toHaveLength(1);
    expect(mailsTo(ar.email)).toHaveLength(1);

    // The next day: one digest with what waited.
    await place('Toyota Corolla', 'toyota');
    await digestAt(morning + DAY + 5 * MINUTE);
    const next = mailsTo(en.email).slice(1);
    expect(next.map((m) => m.subject)).toEqual(['2 new ads for your saved searches']);
    expect(next[0]?.body).toContain('Flats in Misrata: 1 new ad');
    expect(next[0]?.body).toContain('Toyota in Misrata: 1 new ad');
    expect(next[0]?.body).not.toContain('Hyundai in Misrata');
    expect(
      mailsTo(ar.email)
        .slice(1)
        .map((m) => m.subject),
    ).toEqual(['إعلان جديد واحد لعمليات بحثك المحفوظة']);
  });

  it('mails an approval or a rejection after 10 minutes only while its notification is unread', async () => {
    const staff = await insertMember(t.db);
    const pending = async (owner: { id: string }, title: string) => {
      const id = await placeSearchAd(t, { title, category: 'toyota', city: 'benghazi', status: 'pending' });
      await t.db.updateTable('ads').set({ user_id: owner.id }).where('id', '=', id).execute();
      return id;
    };
    const reader = await recipient('Reader', 'en');
    const away = await recipient('Away', 'en');
    const rejected = await recipient('Rejected', 'en');
    const read = await pending(reader, 'Read in time');
    await moveAd(t.db, staff, read, 'approve');
    await moveAd(t.db, staff, await pending(away, 'Approved while away'), 'approve');
    await moveAd(t.db, staff, await pending(rejected, 'Rejected while away'), 'reject', {
      reason: 'The photos show another car',
    });

    // Within the 10 minutes: nothing yet; the jobs wait for their time.
    await drain();
    expect([...mailsTo(reader.email), ...mailsTo(away.email), ...mailsTo(rejected.email)]).toEqual([]);
    const planned = await jobsNamed('notification-mail');
    const waiting = planned.filter((j) => j.status === 'pending' && j.payload.unlessRead === 'notification');
    expect(waiting).toHaveLength(3);
    for (const j of waiting) expect(toNumber(j.run_at)).toBeGreaterThanOrEqual(Date.now() + 9 * MINUTE);

    // The reader opens the notification on the site before the delay runs out.
    const note = await t.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', reader.id)
      .executeTakeFirstOrThrow();
    await markNotificationRead(t.db, reader.id, toNumber(note.id));

    clock = Date.now() + 10 * MINUTE + MINUTE;
    await drain();
    expect(mailsTo(reader.email)).toEqual([]);
    expect(mailsTo(away.email).map((m) => m.subject)).toEqual(['Your ad “Approved while away” is live on Souq']);
    const [rejection] = mailsTo(rejected.email);
    expect(rejection?.subject).toBe('Your ad “Rejected while away” was not approved');
    expect(rejection?.body).toContain('Reason: The photos show another car');
    expect(rejection?.links.some((l) => l.startsWith(`${ORIGIN}/en/profile/posts/motors/toyota/`))).toBe(true);
    // Every planned mail ran, the read one included (it sent nothing).
    expect((await jobsNamed('notification-mail')).filter((j) => j.status !== 'done')).toEqual([]);
  });

  it('mails only a confirmed address of the member’s own, for the types they want', async () => {
    const confirmed = await recipient('Confirmed', 'en');
    const unconfirmed = await recipient('Unconfirmed', 'en', { email_verified: false });
    const phoneOnly = await recipient('Phone', 'en', { email: placeholderEmail() });
    const banned = await recipient('Banned', 'en', { banned_at: new Date() });
    const choosy = await recipient('Choosy', 'en');
    // The profile's settings, saved without "My ad expired" by email.
    const wanted = NOTIFICATION_TYPES.filter((type) => type !== 'ad-expired' && type !== 'chat-message');
    await saveNotificationPreferences(t.db, choosy.id, { email: wanted, sms: [] });

    for (const m of [confirmed, unconfirmed, phoneOnly, banned, choosy]) {
      await notify(t.db, m.id, 'ad-expired', { title: `Expired for ${m.name}` });
    }
    await notify(t.db, choosy.id, 'ad-expiring', { title: 'Still wanted', expires_at: new Date().toISOString() });
    await drain();
    expect(mailsTo(confirmed.email).map((m) => m.subject)).toEqual(['Your ad “Expired for Confirmed” has expired']);
    for (const m of [unconfirmed, phoneOnly, banned]) expect(mailsTo(m.email), m.name).toEqual([]);
    // Choosy gets the types they left on, not the one they turned off.
    expect(mailsTo(choosy.email).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Your ad “Still wanted” expires on /),
    ]);
    // Nothing was left to retry: the mails not wanted were decided, not failed.
    expect((await jobsNamed('notification-mail')).filter((j) => j.status !== 'done')).toEqual([]);
  });

  it('one-click unsubscribe stops exactly the mail’s type; forged or expired tokens change nothing', async () => {
    const member = await recipient('Layla', 'en');
    await notify(t.db, member.id, 'ad-expired', { title: 'First' });
    await drain();
    const [first] = mailsTo(member.email);
    if (!first) throw new Error('no first mail');
    const { token } = oneClickOf(first);
    const preferences = () =>
      t.db
        .selectFrom('notification_preferences')
        .select(['type', 'channel', 'enabled'])
        .where('user_id', '=', member.id)
        .execute();

    // Not ours: another site's key, a changed signature, the payload of another member or type
    // under this signature, an expired one. What the endpoint and the page read: none stops anything.
    const [payload, signature] = token.split('.') as [string, string];
    const other = await recipient('Other', 'en');
    const otherPayload = unsubscribeToken(SECRET, other.id, 'ad-expired').split('.')[0] as string;
    const typePayload = unsubscribeToken(SECRET, member.id, 'system').split('.')[0] as string;
    for (const forged of [
      unsubscribeToken('another-site-secret-0123456789abcdef', member.id, 'ad-expired'),
      `${payload}.${signature.slice(0, -2)}AA`,
      `${otherPayload}.${signature}`,
      `${typePayload}.${signature}`,
      `${payload}.${signature}.x`,
      payload,
      '',
    ]) {
      expect(readUnsubscribeToken(SECRET, forged), forged).toBeNull();
    }
    const expired = unsubscribeToken(SECRET, member.id, 'ad-expired', Date.now() - (UNSUBSCRIBE_DAYS + 1) * DAY);
    expect(readUnsubscribeToken(SECRET, expired)).toBe('expired');
    // Within its 90 days it works; past them it is expired.
    const issued = Date.now();
    expect(readUnsubscribeToken(SECRET, token, issued + (UNSUBSCRIBE_DAYS - 1) * DAY)).toEqual({
      userId: member.id,
      type: 'ad-expired',
    });
    expect(readUnsubscribeToken(SECRET, token, issued + (UNSUBSCRIBE_DAYS + 1) * DAY)).toBe('expired');
    expect(await preferences()).toEqual([]);

    // What `POST /api/unsubscribe/{token}` does with the mail's own token: that type off, as the settings would.
    const request = readUnsubscribeToken(SECRET, token);
    if (!request || request === 'expired') throw new Error('the mail’s token is not valid');
    expect(await stopEmails(t.db, request)).toBe(true);
    expect(await stopEmails(t.db, request)).toBe(true);
    const rows = await preferences();
    expect(rows.map((r) => [r.type, r.channel, Boolean(r.enabled)])).toEqual([['ad-expired', 'email', false]]);
    for (const type of NOTIFICATION_TYPES) {
      expect(await emailsOn(t.db, member.id, type), type).toBe(type !== 'ad-expired' && type !== 'chat-message');
    }
    // A token of a member who is gone stops nothing.
    expect(await stopEmails(t.db, { userId: 'gone', type: 'ad-expired' })).toBe(false);

    await notify(t.db, member.id, 'ad-expired', { title: 'Second' });
    await notify(t.db, member.id, 'system', { title: 'Other news' });
    await notify(t.db, member.id, 'ad-expiring', { title: 'Third', expires_at: '2030-01-01' });
    await drain();
    expect(
      mailsTo(member.email)
        .slice(1)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(['A notice from Souq', 'Your ad “Third” expires on January 1, 2030']);
    // The other member, whose payload was tried, still gets every mail.
    await notify(t.db, other.id, 'ad-expired', { title: 'Theirs' });
    await drain();
    expect(mailsTo(other.email).map((m) => m.subject)).toEqual(['Your ad “Theirs” has expired']);
  });
});
