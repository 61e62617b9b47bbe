// The jobs this app runs, by name, and the recurring ones. Later features add their handlers here
// (image variants, ad expiry and reminders, counters, notifications).
import { pruneUnconfirmedPhoneSignups } from '../domain/account-cleanup.ts';
import { pruneRateLimits } from '../domain/rate-limit.ts';
import { type JobHandler, pruneJobs, type Schedule } from './queue.ts';

export const handlers: Record<string, JobHandler> = {
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
  { name: 'prune-rate-limits', everySeconds: 10 * 60 },
  { name: 'prune-jobs', everySeconds: 24 * 60 * 60 },
  { name: 'prune-unconfirmed-phone-signups', everySeconds: 24 * 60 * 60 },
];
