// The back-office dashboard (docs/product/back-office.md, "Dashboard"): new ads and new members
// per day over 30 days, the moderation queue's size and how long its oldest ad has waited, open
// reports, failed background jobs, the categories and cities with the most live ads, and contact
// messages.
import { sql } from 'kysely';
import { EMPTY_QUERY } from '../../app/lib/search-query.ts';
import { timestampValue } from '../db/dates.ts';
import type { DatabaseHandle } from '../db/index.ts';
import { toIso, toNumber } from '../db/values.ts';
import { countOpenReports } from './admin/reports.ts';
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

/** How long a finished day's count is kept (per database handle, in this process). */
export const FINISHED_DAY_TTL_MS = 10 * 60_000;
const finishedDays = new WeakMap<DatabaseHandle, Map<string, { count: number; until: number }>>();

/** Drops the kept day counts of `handle` (the bench's figure of a dashboard that counts every day). */
export const forgetDayCounts = (handle: DatabaseHandle) => finishedDays.delete(handle);

/**
 * Rows of `table` created on each of `days` (UTC): one range count per day, each a range of the
 * table's created_at index (migration 0027). A finished day's count hardly changes (only rows
 * deleted since), so it is kept for FINISHED_DAY_TTL_MS: a dashboard view counts today's rows
 * and, at most every ten minutes, the month's — about a million rows at the sizes of
 * docs/performance.md, too many to count on every view.
 */
async function perDay(handle: DatabaseHandle, table: 'ads' | 'users', days: string[], now: Date): Promise<DayCount[]> {
  const { db, dialect } = handle;
  const today = now.toISOString().slice(0, 10);
  let kept = finishedDays.get(handle);
  if (!kept) {
    kept = new Map();
    finishedDays.set(handle, kept);
  }
  const cache = kept;
  const fresh = (day: string) => {
    const hit = day < today ? cache.get(`${table}:${day}`) : undefined;
    return hit && hit.until > now.getTime() ? hit.count : null;
  };
  const wanted = days.filter((day) => fresh(day) === null);
  const counted = new Map<string, number>();
  if (wanted.length > 0) {
    const row = await db
      .selectNoFrom(
        wanted.map((day, i) => {
          const start = new Date(`${day}T00:00:00.000Z`);
          const from = timestampValue(dialect, start);
          const until = timestampValue(dialect, new Date(start.getTime() + 86_400_000));
          return sql<number>`(select count(*) from ${sql.table(table)} where created_at >= ${from} and created_at < ${until})`.as(
            `d${i}`,
          );
        }),
      )
      .executeTakeFirstOrThrow();
    const counts = row as Record<string, unknown>;
    wanted.forEach((day, i) => {
      const count = toNumber(counts[`d${i}`]);
      counted.set(day, count);
      if (day < today) cache.set(`${table}:${day}`, { count, until: now.getTime() + FINISHED_DAY_TTL_MS });
    });
  }
  return days.map((day) => ({ day, count: counted.get(day) ?? fresh(day) ?? 0 }));
}

/**
 * When the ad that has waited longest for review entered it: the queue's first ad
 * (server/domain/moderation.ts orders pending ads by when they last entered review, else by their
 * creation). An ad enters review after it is created, so the pending ads are read oldest first,
 * a batch at a time, until the next one was created after the best time found: usually one batch,
 * however long the queue (each a range of ads_status_created, each entry time one seek of
 * ad_status_history_entered: migration 0027).
 */
export async function oldestWaiting({ db }: DatabaseHandle, batch = 50): Promise<string | null> {
  let best: number | null = null;
  let after: { created_at: unknown; id: number } | null = null;
  for (;;) {
    const rows: { id: number; created_at: unknown; entered: unknown }[] = await db
      .selectFrom('ads as a')
      .select(['a.id', 'a.created_at'])
      .select((eb) =>
        eb
          .selectFrom('ad_status_history as h')
          .select((h) => h.fn.max('h.created_at').as('q'))
          .whereRef('h.ad_id', '=', 'a.id')
          .where('h.to_status', '=', 'pending')
          .as('entered'),
      )
      .where('a.status', '=', 'pending')
      .$if(after !== null, (q) => {
        const { created_at, id } = after as { created_at: unknown; id: number };
        return q.where(sql<boolean>`(a.created_at, a.id) > (${created_at}, ${id})`);
      })
      .orderBy('a.created_at')
      .orderBy('a.id')
      .limit(batch)
      .execute();
    for (const r of rows) {
      const created = Date.parse(toIso(r.created_at));
      if (best !== null && created >= best) return new Date(best).toISOString();
      const entered = r.entered ? Date.parse(toIso(r.entered)) : created;
      if (best === null || entered < best) best = entered;
    }
    const last: { id: number; created_at: unknown } | undefined = rows[rows.length - 1];
    if (rows.length < batch || !last) return best === null ? null : new Date(best).toISOString();
    after = { created_at: last.created_at, id: Number(last.id) };
  }
}

export async function loadDashboard(handle: DatabaseHandle, now = new Date()): Promise<Dashboard> {
  const { db } = handle;
  const days = lastDays(DASHBOARD_DAYS, now);
  const weekStart = days[days.length - 7] as string;
  const [members, ads, total, pending, oldest, openReports, failed, categories, cities, unread, latest, running] =
    await Promise.all([
      perDay(handle, 'users', days, now),
      perDay(handle, 'ads', days, now),
      db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('ads')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow(),
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
    pending: { count: toNumber(pending.n), oldestSince: oldest },
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
