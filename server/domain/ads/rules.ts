// The rules every ad obeys whoever changes it (docs/product/ads.md): lifetime and allowance, who
// acts, and the seller's confirmed number that calls and WhatsApp need.
import type { DB } from '../../db/index.ts';
import type { AdStatus } from '../../db/schema.ts';
import { toNumber } from '../../db/values.ts';
import { Invalid } from '../errors.ts';
import { BUILT_IN_SETTINGS, readSettings } from '../settings.ts';
import { hasConfirmedPhone } from './view.ts';

/**
 * The built-in values of the ad rules (docs/product/ads.md). What is in force is read with
 * `readSettings` (server/domain/settings.ts): the super admin may change them at /admin/settings.
 */
export const AD_RULES = {
  lifetimeDays: BUILT_IN_SETTINGS.lifetimeDays,
  reminderDaysBefore: BUILT_IN_SETTINGS.reminderDaysBefore,
  freeActiveAds: BUILT_IN_SETTINGS.freeActiveAds,
  repostCooldownDays: BUILT_IN_SETTINGS.repostCooldownDays,
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

/** Refuses when the member already has as many pending or published ads as the free allowance. */
export async function checkAllowance(trx: DB, userId: string) {
  const { freeActiveAds } = await readSettings(trx);
  if ((await countActiveAds(trx, userId)) >= freeActiveAds) {
    throw new Invalid({ form: [`allowance-exceeded:${freeActiveAds}`] });
  }
}
