// What a member's packages add to the free allowance (docs/product/back-office.md, "Packages"; the
// free allowance is AD_RULES in server/domain/ads/rules.ts). A subscription counts from its start
// to its end: before it starts and once it has ended it adds nothing, and its unused featured ads
// and reposts are lost with it.
//
// - Active ads: the free allowance plus the `max_active_ads` of every subscription that counts.
// - Featured ads and reposts: counters of each subscription that go down by one as the member uses
//   one, in the transaction of the use. The subscription ending first pays first. The decrement is
//   conditional (`remaining > 0`), so two uses at the same moment never spend one credit twice.
import type { DB } from '../../db/index.ts';
import { toIso, toNumber } from '../../db/values.ts';

export type Credit = 'featured' | 'reposts';

const column = (credit: Credit) => (credit === 'featured' ? 'featured_remaining' : 'reposts_remaining');

/** The member's subscriptions that count at `now`. */
const counting = (db: DB, userId: string, now: Date) =>
  db.selectFrom('subscriptions').where('user_id', '=', userId).where('starts_at', '<=', now).where('ends_at', '>', now);

/** Active ads the member's packages add to the free allowance now. */
export async function packageActiveAds(db: DB, userId: string, now = new Date()): Promise<number> {
  const row = await counting(db, userId, now)
    .select((eb) => eb.fn.sum<number>('max_active_ads').as('n'))
    .executeTakeFirst();
  return toNumber(row?.n ?? 0);
}

/** Featured ads or reposts the member has left now, over every subscription that counts. */
export async function creditsLeft(db: DB, userId: string, credit: Credit, now = new Date()): Promise<number> {
  const row = await counting(db, userId, now)
    .select((eb) => eb.fn.sum<number>(column(credit)).as('n'))
    .executeTakeFirst();
  return toNumber(row?.n ?? 0);
}

/**
 * Spends one featured ad or repost of the member's packages, in the transaction `trx` of the use:
 * from the subscription that ends first among those with one left. Returns the subscription's id,
 * or null when none has one left (the caller refuses).
 */
export async function spendCredit(trx: DB, userId: string, credit: Credit, now = new Date()): Promise<number | null> {
  const col = column(credit);
  const candidates = await counting(trx, userId, now)
    .select('id')
    .where(col, '>', 0)
    .orderBy('ends_at')
    .orderBy('id')
    .execute();
  for (const { id } of candidates) {
    const spent = await trx
      .updateTable('subscriptions')
      .set((eb) => ({ [col]: eb(col, '-', 1) }))
      .where('id', '=', id)
      .where(col, '>', 0)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) === 1) return Number(id);
  }
  return null;
}

export interface MemberPackage {
  id: number;
  package: { id: number; name_ar: string; name_en: string };
  starts_at: string;
  ends_at: string;
  /** Counting now (started, not ended); otherwise it starts later. */
  current: boolean;
  max_active_ads: number;
  featured_ads: number;
  featured_remaining: number;
  reposts: number;
  reposts_remaining: number;
}

/** The member's subscriptions that count now or start later, ending first first (the profile's "My package"). */
export async function memberPackages(db: DB, userId: string, now = new Date()): Promise<MemberPackage[]> {
  const rows = await db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .select([
      's.id',
      's.starts_at',
      's.ends_at',
      's.max_active_ads',
      's.featured_ads',
      's.featured_remaining',
      's.reposts',
      's.reposts_remaining',
      'p.id as package_id',
      'p.name_ar',
      'p.name_en',
    ])
    .where('s.user_id', '=', userId)
    .where('s.ends_at', '>', now)
    .orderBy('s.starts_at')
    .orderBy('s.id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    package: { id: Number(r.package_id), name_ar: r.name_ar, name_en: r.name_en },
    starts_at: toIso(r.starts_at),
    ends_at: toIso(r.ends_at),
    current: new Date(r.starts_at) <= now,
    max_active_ads: toNumber(r.max_active_ads),
    featured_ads: toNumber(r.featured_ads),
    featured_remaining: toNumber(r.featured_remaining),
    reposts: toNumber(r.reposts),
    reposts_remaining: toNumber(r.reposts_remaining),
  }));
}
