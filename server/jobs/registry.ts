// Every job this app runs, by name, with the schema of its payload: the one list `enqueue` and the
// handlers (./app-jobs.ts) are typed against. A payload is checked when it is enqueued (a bug fails
// the change that carries it) and again when the job runs (rows written by an older version, or by
// hand): one its schema refuses marks the job dead with the reason, it is never retried.
import { z } from 'zod';
import type { DB } from '../db/index.ts';
import { UNREAD_CHECK_KINDS } from '../domain/notification-mail/plans.ts';
import { mailPayload } from '../mail/outbox.ts';
import { type EnqueueOptions, enqueueJob, type JobContext, type JobHandler, PermanentJobError } from './queue.ts';

const none = z.object({}).strict();

export const JOBS = {
  /** A rendered mail, sent when the job runs (server/mail/outbox.ts). */
  'send-mail': mailPayload,
  /** Category ad counts of one taxonomy (enqueued, de-duplicated, by every status change). */
  'recount-taxonomy': z.object({ taxonomyId: z.number().int().positive() }),
  /** Published ads past their lifetime become expired; their owners are told. */
  'expire-ads': none,
  /** Owners hear a few days before an ad expires (once). */
  'remind-expiring-ads': none,
  /** Members hear a few days before a package of theirs ends (once per subscription). */
  'remind-expiring-packages': none,
  /** Expired rate-limit windows are dropped (the table stays small). */
  'prune-rate-limits': none,
  /** Finished jobs are forgotten after a week; dead ones stay for staff. */
  'prune-jobs': none,
  /** Ad photos uploaded a day ago and never attached to an ad are deleted with their files. */
  'prune-orphan-ad-images': none,
  /** SQLite's planner statistics kept fresh as tables grow. */
  'optimize-database': none,
  /** Phone sign-ups never confirmed within a week are removed (ADR 0005). */
  'prune-unconfirmed-phone-signups': none,
  /** A notification's mail, if the member wants it when this runs (server/domain/notification-mail/). */
  'notification-mail': z.object({
    notificationId: z.number().int().positive(),
    /** Sent only if this check still finds it unread (server/domain/notification-mail/send.ts). */
    unlessRead: z.enum(UNREAD_CHECK_KINDS).optional(),
  }),
  /** A chat's unread messages mailed to their recipient, if still due (server/domain/chats/reminders.ts). */
  'chat-unread-reminder': z.object({
    chatId: z.number().int().positive(),
    userId: z.string().min(1).max(200),
    messageId: z.number().int().positive(),
  }),
  /** An ad went live: the saved searches it matches are told (server/domain/search/alerts.ts). */
  'alert-saved-searches': z.object({ adId: z.number().int().positive() }),
  /**
   * After a catalogue edit: the text index's catalogue words of the ads of some categories, or of
   * those holding some options, written again a batch at a time from `after` (ad id); a run hands
   * what is left to the next (server/domain/admin/catalogue-effects.ts).
   */
  'rewrite-ad-terms': z.union([
    z.object({
      categoryIds: z.array(z.number().int().positive()).min(1).max(5000),
      after: z.number().int().nonnegative(),
    }),
    z.object({
      attributeId: z.number().int().positive(),
      values: z.array(z.string().min(1).max(60)).min(1).max(500),
      after: z.number().int().nonnegative(),
    }),
  ]),
  /** After a catalogue edit: saved searches' slugs and alert keys derived again (server/domain/admin/catalogue-effects.ts). */
  'refresh-saved-searches': none,
  /** Daily saved searches' matches, delivered once a day (server/domain/search/alerts.ts). */
  'saved-search-digests': none,
  /**
   * The members who saved an ad hear that its price dropped or it was sold, a batch per job (the
   * next batch enqueued with the last one's end): many of them, so the seller's request does not
   * wait (server/domain/favorites.ts).
   */
  'notify-favoriters': z.object({
    adId: z.number().int().positive(),
    sellerId: z.string().nullable(),
    type: z.enum(['favorite-price-drop', 'favorite-sold']),
    data: z.record(z.string(), z.unknown()),
    after: z.number().int().nonnegative(),
    upTo: z.number().int().positive(),
  }),
} as const;

export type JobName = keyof typeof JOBS;
/** What `enqueue` takes for a job. */
export type JobPayload<N extends JobName> = z.input<(typeof JOBS)[N]>;

/**
 * Defaults per job. Mail is retried for longer than the queue's default (8 attempts: about 40
 * minutes of backoff), within the hour its links stay valid.
 */
const DEFAULTS: Partial<Record<JobName, EnqueueOptions>> = {
  'send-mail': { maxAttempts: 8 },
};

/**
 * Adds a job in the transaction of the change it belongs to (`tx` of server/db/transaction.ts), or
 * on its own with a plain `db` (work asked for outside our transactions, e.g. Better Auth's
 * callbacks). Returns its id, or null when de-duplicated by `uniqueKey`.
 */
export async function enqueue<N extends JobName>(
  db: DB,
  name: N,
  payload: JobPayload<N>,
  options: EnqueueOptions = {},
): Promise<number | null> {
  const parsed = JOBS[name].parse(payload);
  return enqueueJob(db, name, parsed, { ...DEFAULTS[name], ...options });
}

/** A handler per job, typed by the registry. */
export type JobHandlers = {
  [N in JobName]: (payload: z.output<(typeof JOBS)[N]>, job: JobContext) => Promise<void>;
};

/** The queue's handlers: each payload checked against its schema first (refused: dead at once). */
export function checkedHandlers(handlers: JobHandlers): Record<JobName, JobHandler> {
  const checked = {} as Record<JobName, JobHandler>;
  for (const name of Object.keys(JOBS) as JobName[]) {
    const run = handlers[name] as (payload: unknown, job: JobContext) => Promise<void>;
    checked[name] = async (payload, job) => {
      const parsed = JOBS[name].safeParse(payload);
      if (!parsed.success) {
        throw new PermanentJobError(`invalid payload for "${name}": ${z.prettifyError(parsed.error)}`);
      }
      await run(parsed.data, job);
    };
  }
  return checked;
}
