// Search relevance measured against the judged queries of ./judged-queries.ts: for each query, the
// ads a buyer expects (read from the database by the query's judgement: the ads filed under a
// category, carrying an option, in a city) against what the search service answers. Recall is the
// share of the expected ads found among every result a listing can show (ALL_RESULTS): when more
// ads are expected than a listing can show (a bench database of a million ads), the share of those
// results that are expected ads; precision the share of expected ads among the first ten
// results — among the first k when only k < 10 ads are expected (no ranking could do better than
// k in ten then), and among all of them when fewer are found. `strict` keeps ten whatever is expected. `npm run search:quality` (scripts/search-quality.ts)
// prints them for the demo ads on either database.
import { parseSearchQuery } from '../../../../app/lib/search-query.ts';
import type { DatabaseHandle } from '../../../db/index.ts';
import { search } from '../service.ts';
import { JUDGED_QUERIES, type JudgedQuery, type Judgement } from './judged-queries.ts';

/** The published ads a judgement expects. */
async function expected(handle: DatabaseHandle, j: Judgement): Promise<Set<number>> {
  const { db } = handle;
  if ('any' in j || 'all' in j) {
    const parts = await Promise.all(('any' in j ? j.any : j.all).map((p) => expected(handle, p)));
    if ('any' in j) return new Set(parts.flatMap((p) => [...p]));
    const [first = new Set<number>(), ...rest] = parts;
    return new Set([...first].filter((id) => rest.every((p) => p.has(id))));
  }
  const published = db.selectFrom('ads').select('ads.id').where('ads.status', '=', 'published');
  let rows: { id: number }[];
  if ('category' in j) {
    // A taxonomy, or a category and every one below it (slugs are unique across both).
    const taxonomy = await db.selectFrom('taxonomies').select('id').where('slug', '=', j.category).executeTakeFirst();
    if (taxonomy) rows = await published.where('ads.taxonomy_id', '=', taxonomy.id).execute();
    else {
      const all = await db.selectFrom('categories').select(['id', 'parent_id', 'slug']).execute();
      const root = all.find((c) => c.slug === j.category);
      if (!root) throw new Error(`judged queries: no category ${j.category}`);
      const scope = new Set([root.id]);
      for (let grown = true; grown; ) {
        grown = false;
        for (const c of all) {
          if (c.parent_id !== null && scope.has(c.parent_id) && !scope.has(c.id)) {
            scope.add(c.id);
            grown = true;
          }
        }
      }
      rows = await published.where('ads.category_id', 'in', [...scope]).execute();
    }
  } else if ('option' in j) {
    const [key, value] = j.option;
    rows = await published
      .innerJoin('ad_attribute_values as v', 'v.ad_id', 'ads.id')
      .innerJoin('attributes as a', 'a.id', 'v.attribute_id')
      .where('a.key', '=', key)
      .where('v.value_option', '=', value)
      .execute();
  } else {
    rows = await published.innerJoin('cities', 'cities.id', 'ads.city_id').where('cities.slug', '=', j.city).execute();
  }
  return new Set(rows.map((r) => r.id));
}

export interface QueryQuality {
  query: JudgedQuery;
  expected: number;
  found: number;
  recall: number;
  precision: number;
  /** The share of expected ads among the first ten results, however few are expected. */
  strict: number;
}

export interface RelevanceReport {
  queries: QueryQuality[];
  recall: number;
  precision: number;
  strict: number;
}

/** How many results a query's recall looks at: every one a listing can show. */
const ALL_RESULTS = 1200;

/** Recall and precision of the first ten of every judged query, and their means. */
export async function measureRelevance(
  handle: DatabaseHandle,
  queries: readonly JudgedQuery[] = JUDGED_QUERIES,
): Promise<RelevanceReport> {
  const out: QueryQuality[] = [];
  for (const query of queries) {
    const want = await expected(handle, query.expect);
    if (want.size === 0) throw new Error(`judged queries: nothing expected for "${query.q}"`);
    const result = await search(handle, parseSearchQuery(new URLSearchParams({ q: query.q })), {
      pageSize: ALL_RESULTS,
      facets: false,
    });
    const ids = result.ids;
    const share = (top: number[]) => (top.length === 0 ? 0 : top.filter((id) => want.has(id)).length / top.length);
    out.push({
      query,
      expected: want.size,
      found: ids.length,
      recall: ids.filter((id) => want.has(id)).length / Math.min(want.size, ALL_RESULTS),
      precision: share(ids.slice(0, Math.min(10, want.size))),
      strict: share(ids.slice(0, 10)),
    });
  }
  const mean = (f: (q: QueryQuality) => number) => out.reduce((s, q) => s + f(q), 0) / out.length;
  return {
    queries: out,
    recall: mean((q) => q.recall),
    precision: mean((q) => q.precision),
    strict: mean((q) => q.strict),
  };
}
