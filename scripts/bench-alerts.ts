// `npm run bench`'s saved-search alerts row (docs/performance.md): one new ad matched against
// 100 000 saved searches — the candidates read from `saved_search_index` and each checked with the
// search service's rule (server/domain/search/alerts.ts `findSavedSearchMatches`), as the
// `alert-saved-searches` job does before it writes anything.
//
// The saved searches are made for the run (and removed after it) by 2 000 bench members, 50 each,
// shaped like what members save from listings: a category (weighted by its published ads: people
// save where the ads are) for 85 %, a taxonomy for 10 %, the whole site for 5 %; a city for 60 %
// (an area for a quarter of those), a price band for 35 %, text for 30 % (every search without a
// category or taxonomy has text), from the words of published titles.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { parseSearchQuery } from '../app/lib/search-query.ts';
import type { DatabaseHandle } from '../server/db/index.ts';
import { toNumber } from '../server/db/values.ts';
import { alertsCatalogue, findSavedSearchMatches, savedSearchCandidates } from '../server/domain/search/alerts.ts';
import { adInHand } from '../server/domain/search/match.ts';
import { savedSearchKeys } from '../server/domain/search/saved.ts';
import { resolveQuery } from '../server/domain/search/service.ts';
import { summarise } from './lib/bench-load.ts';

export const ALERTS_TARGET_MS = 20;

export interface AlertsBench {
  searches: number;
  ads: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  /** Per ad, on average: saved searches read from the index, and matched. */
  candidates: number;
  matches: number;
  /** The index lookup alone (step 1), p50. */
  lookup_p50_ms: number;
  /** The first pass over the ads (queries read and prepared as they come). */
  cold_p50_ms: number;
  cold_p95_ms: number;
}

/** A small seeded random (the same searches every run). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function benchAlerts(handle: DatabaseHandle, searches = 100_000, runs = 200): Promise<AlertsBench | null> {
  const { db } = handle;
  const catalogue = await alertsCatalogue(db);
  const published = await db
    .selectFrom('ads')
    .select(['id', 'category_id', 'user_id'])
    .where('status', '=', 'published')
    .orderBy('id', 'desc')
    .limit(5000)
    .execute();
  if (published.length === 0) return null;
  const rand = random(20261126);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const titles = await db.selectFrom('ads').select('title').where('status', '=', 'published').limit(2000).execute();
  const words = [...new Set(titles.flatMap((t) => t.title.split(/\s+/)).filter((w) => w.length >= 3 && !/\d/.test(w)))];
  const categories = published.map((a) => catalogue.categoryById.get(a.category_id)).filter((c) => c !== undefined);
  const cities = catalogue.cities;

  const members = Math.ceil(searches / 50);
  const prefix = `bench-alerts-${randomUUID().slice(0, 8)}`;
  try {
    for (let from = 0; from < members; from += 500) {
      const rows = [];
      for (let i = from; i < Math.min(members, from + 500); i++) {
        rows.push({ id: `${prefix}-${i}`, name: `Bench ${i}`, email: `${prefix}-${i}@bench.invalid` });
      }
      await db
        .insertInto('users')
        .values(rows as never)
        .execute();
    }
    const BATCH = 500;
    for (let from = 0; from < searches; from += BATCH) {
      const made: { user: string; query: string; keys: ReturnType<typeof savedSearchKeys> }[] = [];
      for (let i = from; i < Math.min(searches, from + BATCH); i++) {
        const p = new URLSearchParams();
        const scope = rand();
        if (scope < 0.85) {
          // A category or, half the time, the one above it.
          let c = pick(categories);
          if (c.parent_id !== null && rand() < 0.5) c = catalogue.categoryById.get(c.parent_id) ?? c;
          p.set('category', c.slug);
        } else if (scope < 0.95) {
          p.set('taxonomy', pick(catalogue.taxonomies).slug);
        }
        if (rand() < 0.6) {
          const city = pick(cities);
          p.set('city', city.slug);
          if (city.areas.length > 0 && rand() < 0.25) {
            p.set('area', catalogue.areaById.get(pick(city.areas))?.slug ?? '');
          }
        }
        if (rand() < 0.35) {
          const lo = Math.round(rand() * 50) * 1000;
          p.set('price_min', String(lo));
          p.set('price_max', String(lo + Math.round(1 + rand() * 100) * 1000));
        }
        if (!p.has('category') && !p.has('taxonomy')) p.set('q', pick(words));
        else if (rand() < 0.3) p.set('q', pick(words));
        const resolved = resolveQuery(catalogue, parseSearchQuery(p));
        made.push({
          user: `${prefix}-${Math.floor(i / 50)}`,
          query: `${p.toString()}&n=${i}`,
          keys: savedSearchKeys(resolved),
        });
      }
      const ids = await db
        .insertInto('saved_searches')
        .values(made.map((m) => ({ user_id: m.user, name: 'bench', query: m.query, frequency: 'instant' })))
        .returning('id')
        .execute();
      await db
        .insertInto('saved_search_index')
        .values(
          made.map((m, k) => ({
            saved_search_id: toNumber(ids[k]?.id),
            user_id: m.user,
            frequency: 'instant',
            ...m.keys,
          })),
        )
        .execute();
    }
    // As autovacuum would leave them after a bulk load: statistics, and the visibility map an index-only scan needs.
    if (handle.dialect === 'postgres') await sql`vacuum analyze saved_search_index`.execute(db);

    const times: number[] = [];
    const lookups: number[] = [];
    let candidates = 0;
    let matches = 0;
    // The ads measured, each matched once unmeasured first: a running worker has its saved
    // searches' queries prepared (kept by id, server/domain/search/alerts.ts), and JIT and the
    // database's caches warm. The first pass is reported apart.
    const sample = Array.from({ length: runs }, () => pick(published));
    const cold: number[] = [];
    for (const ad of sample) {
      const started = performance.now();
      await findSavedSearchMatches(db, catalogue, ad.id, ad.user_id);
      cold.push(performance.now() - started);
    }
    for (const ad of sample) {
      const started = performance.now();
      const found = await findSavedSearchMatches(db, catalogue, ad.id, ad.user_id);
      const ms = performance.now() - started;
      times.push(ms);
      matches += found.length;
      const inHand = await adInHand(db, catalogue, ad.id);
      if (inHand) {
        const lookup = performance.now();
        candidates += (await savedSearchCandidates(db, catalogue, inHand, ad.user_id)).length;
        lookups.push(performance.now() - lookup);
      }
    }
    const s = summarise(times);
    return {
      searches,
      ads: runs,
      p50_ms: s.p50_ms,
      p95_ms: s.p95_ms,
      p99_ms: s.p99_ms,
      max_ms: Math.round(Math.max(...times) * 10) / 10,
      candidates: Math.round(candidates / runs),
      matches: Math.round(matches / runs),
      lookup_p50_ms: summarise(lookups).p50_ms,
      cold_p50_ms: summarise(cold).p50_ms,
      cold_p95_ms: summarise(cold).p95_ms,
    };
  } finally {
    // The bench members' saved searches go with them.
    await db.deleteFrom('users').where('id', 'like', `${prefix}-%`).execute();
  }
}

export function printAlertsBench(r: AlertsBench): void {
  console.log(
    `\nSaved-search alerts: one new ad against ${r.searches.toLocaleString('en-US').replaceAll(',', ' ')} saved searches ` +
      `(candidates from the index, each checked by the search's rule; ${r.ads} ads)\n`,
  );
  console.log(
    `  p50 ${r.p50_ms} ms, p95 ${r.p95_ms} ms, p99 ${r.p99_ms} ms, max ${r.max_ms} ms; ` +
      `${r.candidates} candidates and ${r.matches} matches per ad on average; the index lookup alone p50 ${r.lookup_p50_ms} ms`,
  );
  console.log(
    `  first pass (queries read and prepared as they come): p50 ${r.cold_p50_ms} ms, p95 ${r.cold_p95_ms} ms`,
  );
}
