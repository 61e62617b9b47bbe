// The back-office dashboard (docs/product/back-office.md, "Dashboard"): new ads and new members
// per day over 30 days, the moderation queue's size and how long its oldest ad has waited, open
// reports, failed background jobs, the categories and cities with the most live ads, and contact
// messages.
import { sql } from 'kysely';
import { EMPTY_QUERY } from '../../app/lib/search-query.ts';
import type { DatabaseHandle } from '../db/index.ts';
import { toIso, toNumber } from '../db/values.ts';
import { countOpenReports } from './admin/reports.ts';
import { adStatusCounts, dailyCounts } from './ads/counts.ts';
import { search } from './search/service.ts';

export interface DayCount {
  day: string;
  count: number;
}

export interface Ranked {
  slug: string;
  name_ar: string;
  name_en: string;
  count: number;
}

/** Days the charts cover. */
export const DASHBOARD_DAYS = 30;
/** Categories and cities in each top list. */
export const DASHBOARD_TOP = 5;

export interface Dashboard {
  members: { total: number; last7Days: number; perDay: DayCount[] };
  ads: { last30Days: number; perDay: DayCount[] };
  /** Ads waiting for review, and since when the longest waiting one waits (when it entered review). */
  pending: { count: number; oldestSince: string | null };
  reports: { open: number };
  /** Background jobs that failed for good (`dead`: out of attempts). */
  jobs: { failed: number };
  /** Packages running now (subscriptions started and not ended), and the members holding them. */
  packages: { active: number; members: number };
  /** Leaf categories and cities by live (published) ads. */
  top: { categories: Ranked[]; cities: Ranked[] };
  contact: {
    unread: number;
    latest: { id: number; name: string; subject: string; created_at: string; status: string }[];
  };
}

/** The last `days` calendar days (UTC), oldest first, zero-filled. */
export function lastDays(days: number, now = new Date()): string[] {
  const out: string[] = [];
  for (let i = days - 1; i >= 0; i--) {
    out.push(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - i)).toISOString().slice(0, 10),
    );
  }
  return out;
}

/**
 * Rows of `table` created on each of `days` (UTC), from the per-day counters the database keeps as
 * rows are inserted and deleted (`daily_counts`, migration 0028): 30 rows read, however many ads
 * or members those days hold.
 */
async function perDay({ db }: DatabaseHandle, table: 'ads' | 'users', days: string[]): Promise<DayCount[]> {
  const counts = await dailyCounts(db, table, days);
  return days.map((day) => ({ day, count: counts.get(day) ?? 0 }));
}

/**
 * When the ad that has waited longest for review entered it: the first of the pending tab, whose
 * order is `ads.queued_at` (server/domain/moderation.ts): one end of the pending ads' own index
 * (`ads_queue`, migration 0028).
 */
export async function oldestWaiting({ db }: DatabaseHandle): Promise<string | null> {
  const row = await db
    .selectFrom('ads')
    .select('queued_at')
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .orderBy('queued_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.queued_at ? toIso(row.queued_at) : null;
}

export async function loadDashboard(handle: DatabaseHandle, now = new Date()): Promise<Dashboard> {
  const { db } = handle;
  const days = lastDays(DASHBOARD_DAYS, now);
  const weekStart = days[days.length - 7] as string;
  const [members, ads, total, pending, oldest, openReports, failed, categories, cities, unread, latest, running] =
    await Promise.all([
      perDay(handle, 'users', days),
      perDay(handle, 'ads', days),
      db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
      adStatusCounts(db).then((c) => c.pending),
      oldestWaiting(handle),
      countOpenReports(db),
      db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'dead')
        .executeTakeFirstOrThrow(),
      // Leaf categories by their live ads, as the category pages count them (`ads_count`, kept by the
      // recount-taxonomy job: server/domain/ads/bookkeeping.ts).
      db
        .selectFrom('categories as c')
        .select(['c.slug', 'c.name_ar', 'c.name_en', 'c.ads_count'])
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('categories as k').select('k.id').whereRef('k.parent_id', '=', 'c.id'))),
        )
        .where('c.ads_count', '>', 0)
        .orderBy('c.ads_count', 'desc')
        .orderBy('c.id')
        .limit(DASHBOARD_TOP)
        .execute(),
      // Cities by live ads: the search's own city counts (its in-memory index of published ads).
      search(handle, { ...EMPTY_QUERY, attributes: {} }, { pageSize: 1 }).then((r) => r.facets.cities),
      db
        .selectFrom('contact_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'new')
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('contact_messages')
        .select(['id', 'name', 'subject', 'created_at', 'status'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(5)
        .execute(),
      db
        .selectFrom('subscriptions')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('user_id').distinct().as('members')])
        .where('starts_at', '<=', now)
        .where('ends_at', '>', now)
        .executeTakeFirstOrThrow(),
    ]);
  return {
    members: {
      total: toNumber(total.n),
      last7Days: members.filter((d) => d.day >= weekStart).reduce((a, d) => a + d.count, 0),
      perDay: members,
    },
    ads: { last30Days: ads.reduce((a, d) => a + d.count, 0), perDay: ads },
    pending: { count: pending, oldestSince: oldest },
    reports: { open: openReports },
    jobs: { failed: toNumber(failed.n) },
    packages: { active: toNumber(running.n), members: toNumber(running.members) },
    top: {
      categories: categories.map((c) => ({
        slug: c.slug,
        name_ar: c.name_ar,
        name_en: c.name_en,
        count: toNumber(c.ads_count),
      })),
      cities: cities
        .filter((c) => c.count > 0)
        .slice(0, DASHBOARD_TOP)
        .map((c) => ({ slug: c.slug, name_ar: c.name_ar, name_en: c.name_en, count: c.count })),
    },
    contact: {
      unread: toNumber(unread.n),
      latest: latest.map((m) => ({ ...m, created_at: toIso(m.created_at) })),
    },
  };
}
