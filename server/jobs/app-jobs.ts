// The jobs this app runs, by name, and the recurring ones. Later features add their handlers here
// (image variants, ad expiry and reminders, counters, notifications).
import { pruneUnconfirmedPhoneSignups } from '../domain/account-cleanup.ts';
import { expireAds, recountTaxonomy, remindExpiringAds } from '../domain/ads.ts';
import { pruneRateLimits } from '../domain/rate-limit.ts';
import { type JobHandler, pruneJobs, type Schedule } from './queue.ts';

export const handlers: Record<string, JobHandler> = {
  /** Category ad counts of one taxonomy (enqueued, de-duplicated, by every status change). */
  'recount-taxonomy': async (payload: { taxonomyId: number }, { db }) => recountTaxonomy(db, payload.taxonomyId),
  /** Published ads past their lifetime become expired; their owners are told. */
  'expire-ads': async (_payload, { db }) => void (await expireAds(db)),
  /** Owners hear a few days before an ad expires (once). */
  'remind-expiring-ads': async (_payload, { db }) => void (await remindExpiringAds(db)),
  /** Expired rate-limit windows are dropped (the table stays small). */
  'prune-rate-limits': async (_payload, { db }) => pruneRateLimits(db),
  /** Finished jobs are forgotten after a week; dead ones stay for staff. */
  'prune-jobs': async (_payload, { db }) => pruneJobs(db),
  /** Phone sign-ups never confirmed within a week are removed (ADR 0005). */
  'prune-unconfirmed-phone-signups': async (_payload, { db, logger }) => {
    const removed = await pruneUnconfirmedPhoneSignups(db);
    if (removed) logger.info({ removed }, 'unconfirmed phone sign-ups removed');
  },
};

export const schedules: Schedule[] = [
  { name: 'expire-ads', everySeconds: 15 * 60 },
  { name: 'remind-expiring-ads', everySeconds: 60 * 60 },
  { name: 'prune-rate-limits', everySeconds: 10 * 60 },
  { name: 'prune-jobs', everySeconds: 24 * 60 * 60 },
  { name: 'prune-unconfirmed-phone-signups', everySeconds: 24 * 60 * 60 },
];
