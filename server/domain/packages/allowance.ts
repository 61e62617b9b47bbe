// What packages add to the free allowance (docs/product/back-office.md, "Packages"; the free
// allowance is AD_RULES in server/domain/ads/rules.ts). A subscription counts from its start to its
// end: before it starts and once it has ended it adds nothing, and its unused featured ads and
// reposts are lost with it.
//
// A subscription is held by a member or by a company. A member places, features and reposts for
// the company they belong to (`company_members`, at most one): every ad they have is the company's
// while they belong to it (`ads.company_id`, kept in step by server/domain/companies/members.ts), so
// the company's packages count for every one of its members, on top of the member's own.
//
// - Active ads: the member's own limit is the free allowance plus the `max_active_ads` of their
//   own subscriptions. The company's subscriptions add a pool shared by its members: the company's
//   ads beyond its members' own limits take places from it. A member's limit is their own limit
//   plus what the other members leave of the pool.
// - Featured ads and reposts: counters of each subscription that go down by one as a member uses
//   one, in the transaction of the use. The member's own subscriptions pay first, then the
//   company's; among each, the one ending first. The decrement is conditional (`remaining > 0`),
//   so two uses at the same moment never spend one credit twice.
import { sql } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { AdStatus } from '../../db/schema.ts';
import { toIso, toNumber } from '../../db/values.ts';

export type Credit = 'featured' | 'reposts';

/** Who holds a subscription: a member or a company. */
export type Holder = { userId: string } | { companyId: number };

const column = (credit: Credit) => (credit === 'featured' ? 'featured_remaining' : 'reposts_remaining');

/** Statuses that count against the allowance (ACTIVE_STATUSES in server/domain/ads/rules.ts). */
const ACTIVE: AdStatus[] = ['pending', 'published'];

/** The company the member places, features and reposts for: the one they belong to, or null. */
export async function memberCompany(db: DB, userId: string): Promise<number | null> {
  const row = await db
    .selectFrom('company_members')
    .select('company_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? Number(row.company_id) : null;
}

/** The holder's subscriptions that count at `now`. */
const counting = (db: DB, holder: Holder, now: Date) =>
  db
    .selectFrom('subscriptions')
    .where((eb) => ('userId' in holder ? eb('user_id', '=', holder.userId) : eb('company_id', '=', holder.companyId)))
    .where('starts_at', '<=', now)
    .where('ends_at', '>', now);

/** The subscriptions that count for the member now: their own and their company's. */
const countingFor = (db: DB, userId: string, companyId: number | null, now: Date) =>
  db
    .selectFrom('subscriptions')
    .where((eb) =>
      companyId === null
        ? eb('user_id', '=', userId)
        : eb.or([eb('user_id', '=', userId), eb('company_id', '=', companyId)]),
    )
    .where('starts_at', '<=', now)
    .where('ends_at', '>', now);

/** Active ads the holder's own packages add now. */
export async function heldActiveAds(db: DB, holder: Holder, now = new Date()): Promise<number> {
  const row = await counting(db, holder, now)
    .select((eb) => eb.fn.sum<number>('max_active_ads').as('n'))
    .executeTakeFirst();
  return toNumber(row?.n ?? 0);
}

/**
 * What the company's packages leave now for `userId`, one of its members: the company's pool
 * (its subscriptions' active ads) less the places its other members take from it (each member's
 * pending and published ads beyond their own limit, `free` plus their own packages).
 */
export async function companyActiveAdsLeft(
  db: DB,
  companyId: number,
  userId: string,
  free: number,
  now = new Date(),
): Promise<number> {
  const pool = await heldActiveAds(db, { companyId }, now);
  if (pool === 0) return 0;
  const others = await db
    .selectFrom('company_members as m')
    .select((eb) => [
      eb
        .selectFrom('ads as a')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('a.user_id', '=', 'm.user_id')
        .where('a.status', 'in', ACTIVE)
        .as('active'),
      eb
        .selectFrom('subscriptions as s')
        .select(sql<number>`coalesce(sum(s.max_active_ads), 0)`.as('n'))
        .whereRef('s.user_id', '=', 'm.user_id')
        .where('s.starts_at', '<=', now)
        .where('s.ends_at', '>', now)
        .as('extra'),
    ])
    .where('m.company_id', '=', companyId)
    .where('m.user_id', '<>', userId)
    .execute();
  const used = others.reduce((sum, r) => sum + Math.max(0, toNumber(r.active) - free - toNumber(r.extra)), 0);
  return Math.max(0, pool - used);
}

/**
 * Active ads the member's packages add to the free allowance `free` now: their own, and what their
 * company's leave them.
 */
export async function packageActiveAds(db: DB, userId: string, free: number, now = new Date()): Promise<number> {
  const [own, companyId] = await Promise.all([heldActiveAds(db, { userId }, now), memberCompany(db, userId)]);
  if (companyId === null) return own;
  return own + (await companyActiveAdsLeft(db, companyId, userId, free, now));
}

/** Featured ads or reposts the member has left now, over their own and their company's subscriptions. */
export async function creditsLeft(db: DB, userId: string, credit: Credit, now = new Date()): Promise<number> {
  const companyId = await memberCompany(db, userId);
  const row = await countingFor(db, userId, companyId, now)
    .select((eb) => eb.fn.sum<number>(column(credit)).as('n'))
    .executeTakeFirst();
  return toNumber(row?.n ?? 0);
}

/**
 * Spends one featured ad or repost for the member, in the transaction `trx` of the use: from their
 * own subscription that ends first among those with one left, else from their company's. Returns
 * the subscription's id, or null when none has one left (the caller refuses).
 */
export async function spendCredit(trx: DB, userId: string, credit: Credit, now = new Date()): Promise<number | null> {
  const col = column(credit);
  const companyId = await memberCompany(trx, userId);
  const candidates = await countingFor(trx, userId, companyId, now)
    .select('id')
    .where(col, '>', 0)
    .orderBy(sql`case when user_id is null then 1 else 0 end`)
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

/**
 * The holder's subscriptions that count now or start later, ending first first (the profile's "My
 * package", a member's and a company's page in the back office).
 */
export async function heldPackages(db: DB, holder: Holder, now = new Date()): Promise<MemberPackage[]> {
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
    .where((eb) =>
      'userId' in holder ? eb('s.user_id', '=', holder.userId) : eb('s.company_id', '=', holder.companyId),
    )
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

/** The member's own subscriptions that count now or start later (the profile's "My package"). */
export function memberPackages(db: DB, userId: string, now = new Date()): Promise<MemberPackage[]> {
  return heldPackages(db, { userId }, now);
}
