// The rules every ad obeys whoever changes it (docs/product/ads.md): lifetime and allowance, who
// acts, and the seller's confirmed number that calls and WhatsApp need.
import { sql } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { AdStatus } from '../../db/schema.ts';
import { toNumber } from '../../db/values.ts';
import { Invalid } from '../errors.ts';
import { memberCompany, packageActiveAds } from '../packages/allowance.ts';
import { BUILT_IN_SETTINGS, readSettings } from '../settings.ts';
import { hasConfirmedPhone } from './view.ts';

/**
 * The built-in values of the ad rules (docs/product/ads.md). What is in force is read with
 * `readSettings` (server/domain/settings.ts): the super admin may change them at /admin/settings.
 */
export const AD_RULES = {
  lifetimeDays: BUILT_IN_SETTINGS.lifetimeDays,
  reminderDaysBefore: BUILT_IN_SETTINGS.reminderDaysBefore,
  /** Ads a member may have pending or published at once without a package. */
  freeActiveAds: BUILT_IN_SETTINGS.freeActiveAds,
  /** A published ad may be bumped once per this many days (more often with a package's reposts). */
  repostCooldownDays: BUILT_IN_SETTINGS.repostCooldownDays,
  /** How long one of a package's featured ads keeps an ad featured. */
  featureDays: 7,
} as const;

/** Statuses that count against the allowance and the member's active-ad count. */
export const ACTIVE_STATUSES: AdStatus[] = ['pending', 'published'];

export interface Actor {
  id: string;
  ip?: string;
  userAgent?: string;
}

export const DAY = 86_400_000;

/** The member's confirmed phone number (E.164), or null: what the ad form offers buyers. */
export async function confirmedPhone(db: DB, userId: string): Promise<string | null> {
  const user = await db
    .selectFrom('users')
    .select(['phone_number', 'phone_number_verified'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user && hasConfirmedPhone(user.phone_number, user.phone_number_verified) ? user.phone_number : null;
}

/** The member's pending and published ads (what the allowance counts). */
export async function countActiveAds(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('ads')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('status', 'in', ACTIVE_STATUSES)
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}

/**
 * How many ads the member may have pending or published at once: the free allowance (the setting:
 * server/domain/settings.ts) plus what their packages, and their company's, add now
 * (server/domain/packages/allowance.ts).
 */
export async function activeAdLimit(db: DB, userId: string, now = new Date()): Promise<number> {
  const { freeActiveAds } = await readSettings(db);
  return freeActiveAds + (await packageActiveAds(db, userId, freeActiveAds, now));
}

/**
 * Refuses when the member already has as many pending or published ads as their allowance. Runs in
 * the transaction of the change that would add one; the member's row is locked first (an update
 * that changes nothing: a row lock on PostgreSQL, SQLite has one writer), then their company's,
 * whose package's places its members share, so two placements at the same moment are counted one
 * after the other and cannot both take the last place.
 */
export async function checkAllowance(trx: DB, userId: string, now = new Date()) {
  await trx
    .updateTable('users')
    .set({ active_ads_count: sql<number>`active_ads_count` })
    .where('id', '=', userId)
    .execute();
  const companyId = await memberCompany(trx, userId);
  if (companyId !== null) {
    await trx.updateTable('companies').set({ slug: sql<string>`slug` }).where('id', '=', companyId).execute();
  }
  const limit = await activeAdLimit(trx, userId, now);
  if ((await countActiveAds(trx, userId)) >= limit) {
    throw new Invalid({ form: [`allowance-exceeded:${limit}`] });
  }
}
