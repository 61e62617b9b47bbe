// The handlers of the jobs this app runs (names and payloads: ./registry.ts), and the recurring
// ones. Later features add their jobs to the registry and their handlers here.
import { sql } from 'kysely';
import { loadConfig } from '../config.ts';
import { pruneUnconfirmedPhoneSignups } from '../domain/account-cleanup.ts';
import { pruneOrphanAdImages } from '../domain/ad-images.ts';
import { refreshSavedSearches, rewriteAdTermsJob } from '../domain/admin/catalogue-effects.ts';
import { recountTaxonomy } from '../domain/ads/bookkeeping.ts';
import { expireAds, remindExpiringAds } from '../domain/ads/status.ts';
import { sendChatReminder } from '../domain/chats/reminders.ts';
import { tellFavoritersBatch } from '../domain/favorites.ts';
import { type MailLinks, sendNotificationMail } from '../domain/notification-mail/send.ts';
import { remindExpiringSubscriptions } from '../domain/packages/subscriptions.ts';
import { pruneRateLimits } from '../domain/rate-limit.ts';
import { alertSavedSearches, deliverDailyDigests } from '../domain/search/alerts.ts';
import type { Mailer } from '../mail/index.ts';
import { createStorage, type MediaStorage } from '../media/storage.ts';
import { type JobHandler, pruneJobs, type Schedule } from './queue.ts';
import { checkedHandlers, type JobName } from './registry.ts';

// Job handlers get { db, logger } only; the media storage comes from the process's configuration
// (the same environment the web or worker process started with), read the first time a file is
// actually deleted, so a run with nothing to do touches neither the environment nor the disk.
let configuredStorage: MediaStorage | undefined;
const media = () => (configuredStorage ??= createStorage(loadConfig()));
const storage: MediaStorage = {
  put: (key, bytes, contentType) => media().put(key, bytes, contentType),
  delete: (key) => media().delete(key),
  url: (key) => media().url(key),
};

export interface JobDeps {
  /** Where `send-mail` jobs go (server/mail/index.ts: SMTP, or files without SMTP_URL). */
  mailer: Mailer;
  /** The links of mails rendered by jobs: the public origin (APP_URL) and the secret of unsubscribe tokens. */
  links: MailLinks;
}

/** The links of jobs' mails from the configuration: APP_URL, else this machine at PORT. */
export const mailLinks = (config: { appUrl: string | undefined; port: number; authSecret: string }): MailLinks => ({
  origin: config.appUrl ?? `http://localhost:${config.port}`,
  secret: config.authSecret,
});

/** The queue's handlers for every job of the registry, payloads checked against their schemas. */
export const jobHandlers = ({ mailer, links }: JobDeps): Record<JobName, JobHandler> =>
  checkedHandlers({
    /** Sends a rendered mail (server/mail/outbox.ts); an SMTP failure is retried with backoff. */
    'send-mail': async (payload) => mailer.send(payload.message),
    /** After a catalogue edit: ads' catalogue words in the text index written again, a batch at a time. */
    'rewrite-ad-terms': async (payload, { db }) => void (await rewriteAdTermsJob(db, payload)),
    /** After a catalogue edit: saved searches' slugs and alert keys derived again. */
    'refresh-saved-searches': async (_payload, { db }) => void (await refreshSavedSearches(db)),
    /** Category ad counts of one taxonomy (enqueued, de-duplicated, by every status change). */
    'recount-taxonomy': async (payload, { db }) => recountTaxonomy(db, payload.taxonomyId),
    /** Published ads past their lifetime become expired; their owners are told. */
    'expire-ads': async (_payload, { db }) => void (await expireAds(db)),
    /** Owners hear a few days before an ad expires (once). */
    'remind-expiring-ads': async (_payload, { db }) => void (await remindExpiringAds(db)),
    /** Members hear a few days before a package of theirs ends (once per subscription). */
    'remind-expiring-packages': async (_payload, { db, now }) =>
      void (await remindExpiringSubscriptions(db, new Date(now()))),
    /** Expired rate-limit windows are dropped (the table stays small). */
    'prune-rate-limits': async (_payload, { db }) => pruneRateLimits(db),
    /** Finished jobs are forgotten after a week; dead ones stay for staff. */
    'prune-jobs': async (_payload, { db }) => pruneJobs(db),
    /** Ad photos uploaded a day ago and never attached to an ad are deleted with their files. */
    'prune-orphan-ad-images': async (_payload, { db, logger }) => {
      const removed = await pruneOrphanAdImages(db, storage);
      if (removed) logger.info({ removed }, 'orphan ad photos removed');
    },
    /**
     * SQLite's planner statistics kept fresh as tables grow (`PRAGMA optimize` re-analyses only what
     * changed a lot). PostgreSQL's autovacuum does this by itself.
     */
    'optimize-database': async (_payload, { db, dialect }) => {
      if (dialect === 'sqlite') await sql`pragma optimize`.execute(db);
    },
    /** Phone sign-ups never confirmed within a week are removed (ADR 0005). */
    'prune-unconfirmed-phone-signups': async (_payload, { db, logger }) => {
      const removed = await pruneUnconfirmedPhoneSignups(db, Date.now(), storage);
      if (removed) logger.info({ removed }, 'unconfirmed phone sign-ups removed');
    },
    /** A notification's mail, if the member wants it when this runs (server/domain/notification-mail/). */
    'notification-mail': async (payload, { db }) => void (await sendNotificationMail(db, links, payload)),
    /** A chat's unread messages mailed to their recipient, if still due (server/domain/chats/reminders.ts). */
    'chat-unread-reminder': async (payload, { db, id }) => void (await sendChatReminder(db, links, payload, id)),
    /** An ad went live: the saved searches it matches are told (server/domain/search/alerts.ts). */
    'alert-saved-searches': async (payload, { db }) => void (await alertSavedSearches(db, payload.adId)),
    /** Daily saved searches' matches, delivered once a day (server/domain/search/alerts.ts). */
    'saved-search-digests': async (_payload, { db, logger, now }) => {
      const delivered = await deliverDailyDigests(db, links, new Date(now()));
      if (delivered) logger.info({ delivered }, 'saved-search digests delivered');
    },
    /** A batch of the members who saved an ad hear of its price drop or sale (server/domain/favorites.ts). */
    'notify-favoriters': async (payload, { db }) => void (await tellFavoritersBatch(db, payload)),
  });

export const schedules: (Schedule & { name: JobName })[] = [
  { name: 'expire-ads', everySeconds: 15 * 60 },
  { name: 'remind-expiring-ads', everySeconds: 60 * 60 },
  { name: 'remind-expiring-packages', everySeconds: 60 * 60 },
  { name: 'prune-rate-limits', everySeconds: 10 * 60 },
  { name: 'prune-orphan-ad-images', everySeconds: 60 * 60 },
  { name: 'prune-jobs', everySeconds: 24 * 60 * 60 },
  { name: 'optimize-database', everySeconds: 6 * 60 * 60 },
  { name: 'prune-unconfirmed-phone-signups', everySeconds: 24 * 60 * 60 },
  { name: 'saved-search-digests', everySeconds: 60 * 60 },
];
