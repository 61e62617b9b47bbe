// Fixed-window rate limits kept in the database so every app process shares them.
import { sql } from 'kysely';
import type { DB } from '../db/index.ts';
import { TooManyRequests } from './errors.ts';

export interface RateLimitRule {
  /** Bucket name, e.g. "contact". */
  name: string;
  limit: number;
  windowSeconds: number;
}

/** Counts one hit for `subject` (an IP, an account); throws TooManyRequests past the limit. */
export async function hitRateLimit(db: DB, rule: RateLimitRule, subject: string, now = Date.now()): Promise<void> {
  const key = `${rule.name}:${subject}`;
  const resetAt = now + rule.windowSeconds * 1000;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.hits + 1 end`,
        reset_at: sql`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
      }),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow();
  if (Number(row.hits) > rule.limit) {
    throw new TooManyRequests(Math.max(1, Math.ceil((Number(row.reset_at) - now) / 1000)));
  }
}

/**
 * Refuses (TooManyRequests) when `subject` has already used up `rule` in the current window,
 * without counting this call: for limits that count failures only (sign-in).
 */
export async function checkRateLimit(db: DB, rule: RateLimitRule, subject: string, now = Date.now()): Promise<void> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['hits', 'reset_at'])
    .where('key', '=', `${rule.name}:${subject}`)
    .executeTakeFirst();
  if (row && Number(row.reset_at) > now && Number(row.hits) >= rule.limit) {
    throw new TooManyRequests(Math.max(1, Math.ceil((Number(row.reset_at) - now) / 1000)));
  }
}

/** Drops expired buckets; run from time to time. */
export async function pruneRateLimits(db: DB, now = Date.now()): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute();
}
