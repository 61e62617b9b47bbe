// The counters the back office reads instead of counting ads (migration 0028, ADR 0017): ads per
// status, taxonomy and city (`ad_counts`), and ads and members created per UTC day
// (`daily_counts`). Triggers keep both in the transaction of every write to `ads` and `users`;
// this module reads them, and rebuilds them from the rows after a bulk load that set the triggers
// aside (server/db/seed/ads.ts) or to check them (tests/db/ad-counts.test.ts).
import { sql } from 'kysely';
import { QUEUE_TABS } from '../../../app/lib/moderation.ts';
import type { DB } from '../../db/index.ts';
import type { AdStatus } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toNumber } from '../../db/values.ts';

export type StatusCounts = Record<AdStatus, number>;

export const zeroCounts = (): StatusCounts => Object.fromEntries(QUEUE_TABS.map((s) => [s, 0])) as StatusCounts;

/** Ads per status, of one taxonomy and/or city or of all: a sum over at most a few thousand rows. */
export async function adStatusCounts(db: DB, where: { taxonomyId?: number; cityId?: number } = {}) {
  const rows = await db
    .selectFrom('ad_counts')
    .select(['status', (eb) => eb.fn.sum<number | string>('n').as('n')])
    .$if(where.taxonomyId !== undefined, (q) => q.where('taxonomy_id', '=', where.taxonomyId as number))
    .$if(where.cityId !== undefined, (q) => q.where('city_id', '=', where.cityId as number))
    .groupBy('status')
    .execute();
  const counts = zeroCounts();
  for (const r of rows) counts[r.status] = toNumber(r.n);
  return counts;
}

/** Rows of `kind` created on each of `days` ('YYYY-MM-DD', UTC), zero for a day without any. */
export async function dailyCounts(db: DB, kind: 'ads' | 'users', days: string[]): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('daily_counts')
    .select(['day', 'n'])
    .where('kind', '=', kind)
    .where('day', 'in', days)
    .execute();
  const out = new Map(days.map((d) => [d, 0]));
  for (const r of rows) out.set(r.day, toNumber(r.n));
  return out;
}

/** The UTC day of a `created_at` column in SQL, as 'YYYY-MM-DD' (as the triggers write it). */
const dayOf = (dialect: 'sqlite' | 'postgres') =>
  dialect === 'postgres' ? sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')` : sql`substr(created_at, 1, 10)`;

/** Both counters as the rows say, counted afresh (grouped scans of `ads` and `users`). */
export async function countAfresh(db: DB, dialect: 'sqlite' | 'postgres') {
  const [ads, days] = await Promise.all([
    db
      .selectFrom('ads')
      .select(['status', 'taxonomy_id', 'city_id', (eb) => eb.fn.countAll().as('n')])
      .groupBy(['status', 'taxonomy_id', 'city_id'])
      .execute(),
    sql<{ kind: 'ads' | 'users'; day: string; n: number | string }>`
      select 'ads' as kind, ${dayOf(dialect)} as day, count(*) as n from ads group by ${dayOf(dialect)}
      union all
      select 'users', ${dayOf(dialect)}, count(*) from users group by ${dayOf(dialect)}`.execute(db),
  ]);
  return {
    ads: ads.map((r) => ({ status: r.status, taxonomy_id: r.taxonomy_id, city_id: r.city_id, n: toNumber(r.n) })),
    days: days.rows.map((r) => ({ kind: r.kind, day: r.day, n: toNumber(r.n) })),
  };
}

/** The counters as stored, without their zero rows (comparable with countAfresh). */
export async function storedCounts(db: DB) {
  const [ads, days] = await Promise.all([
    db.selectFrom('ad_counts').selectAll().where('n', '<>', 0).execute(),
    db.selectFrom('daily_counts').selectAll().where('n', '<>', 0).execute(),
  ]);
  return {
    ads: ads.map((r) => ({ status: r.status, taxonomy_id: r.taxonomy_id, city_id: r.city_id, n: toNumber(r.n) })),
    days: days.map((r) => ({ kind: r.kind, day: r.day, n: toNumber(r.n) })),
  };
}

/** Rewrites both counters from the rows (after a bulk load that set the triggers aside). */
export async function recountAll(db: DB, dialect: 'sqlite' | 'postgres') {
  await withTransaction(db, async (tx) => {
    const fresh = await countAfresh(tx, dialect);
    await tx.deleteFrom('ad_counts').execute();
    await tx.deleteFrom('daily_counts').execute();
    for (let i = 0; i < fresh.ads.length; i += 500) {
      await tx
        .insertInto('ad_counts')
        .values(fresh.ads.slice(i, i + 500))
        .execute();
    }
    for (let i = 0; i < fresh.days.length; i += 500) {
      await tx
        .insertInto('daily_counts')
        .values(fresh.days.slice(i, i + 500))
        .execute();
    }
  });
}
