// Saved searches (docs/product/search.md, docs/product/alerts.md): a member keeps a query of /posts
// in its canonical form, named after what it asks for; the same query twice is kept once. Each has
// an alert frequency (instant, daily, off) and the time its results were last seen, which counts
// its new results on /searches. Every write keeps the search's row of `saved_search_index`, which
// the alerts look candidates up by (migration 0020, ./alerts.ts).

import type { Insertable } from 'kysely';
import { type Locale, localName } from '../../../app/i18n/config.ts';
import { parseSearchQuery, type SearchQuery, searchParamsOf } from '../../../app/lib/search-query.ts';
import {
  type AlertFrequency,
  DEFAULT_ALERT_FREQUENCY,
  isAlertFrequency,
  SAVED_SEARCH_NAME_MAX,
} from '../../../app/lib/validation/saved-search.ts';
import type { DatabaseHandle, DB } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toIso } from '../../db/values.ts';
import { Invalid, NotFound } from '../errors.ts';
import type { CatalogueSnapshot } from './catalogue.ts';
import type { ResolvedQuery } from './service.ts';
import { resolveQuery, search, searchEngine } from './service.ts';

/** Saved searches a member may keep. */
export const SAVED_SEARCH_LIMIT = 50;
/** The longest canonical query kept. */
const QUERY_MAX = 2000;

/** The lookup keys of a saved search's alerts (docs/product/alerts.md, "Finding the searches an ad matches"). */
export function savedSearchKeys(
  resolved: ResolvedQuery,
): Omit<Insertable<Database['saved_search_index']>, 'saved_search_id' | 'user_id' | 'frequency'> {
  const q = resolved.query;
  return {
    scope_id: resolved.categoryId ?? (resolved.taxonomyId !== null ? -resolved.taxonomyId : 0),
    city_id: resolved.cityId ?? 0,
    area_id: resolved.areaId ?? 0,
    price_min: q.priceMin,
    price_max: q.priceMax,
    currency: q.currency,
  };
}

/**
 * Keeps `resolved` (a query checked against the catalogue) for the member, named `name`; an equal
 * query already kept stays as it is. At most SAVED_SEARCH_LIMIT.
 */
export async function saveSearch(
  db: DB,
  userId: string,
  resolved: ResolvedQuery,
  name: string,
  frequency: AlertFrequency = DEFAULT_ALERT_FREQUENCY,
): Promise<{ id: number; created: boolean }> {
  const query = searchParamsOf(resolved.query).toString();
  if (query.length > QUERY_MAX) throw new Invalid({ form: ['search-too-long'] });
  return withTransaction(db, async (tx) => {
    const existing = await tx
      .selectFrom('saved_searches')
      .select('id')
      .where('user_id', '=', userId)
      .where('query', '=', query)
      .executeTakeFirst();
    if (existing) return { id: Number(existing.id), created: false };
    const count = await tx
      .selectFrom('saved_searches')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= SAVED_SEARCH_LIMIT) throw new Invalid({ form: ['saved-searches-full'] });
    const row = await tx
      .insertInto('saved_searches')
      .values({
        user_id: userId,
        name: name.trim().slice(0, SAVED_SEARCH_NAME_MAX) || '—',
        query,
        frequency,
        last_seen_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await tx
      .insertInto('saved_search_index')
      .values({ saved_search_id: id, user_id: userId, frequency, ...savedSearchKeys(resolved) })
      .execute();
    return { id, created: true };
  });
}

export interface SavedSearch {
  id: number;
  name: string;
  /** Canonical URL parameters of the query (`/posts?<query>`). */
  query: string;
  frequency: AlertFrequency;
  last_seen_at: string | null;
  created_at: string;
}

const COLUMNS = ['id', 'name', 'query', 'frequency', 'last_seen_at', 'created_at'] as const;

function savedSearchOf(r: {
  id: number;
  name: string;
  query: string;
  frequency: string;
  last_seen_at: unknown;
  created_at: unknown;
}): SavedSearch {
  return {
    id: Number(r.id),
    name: r.name,
    query: r.query,
    frequency: isAlertFrequency(r.frequency) ? r.frequency : 'off',
    last_seen_at: r.last_seen_at === null ? null : toIso(r.last_seen_at),
    created_at: toIso(r.created_at),
  };
}

/** One of the member's saved searches; someone else's, or a missing one, is NotFound. */
export async function getSavedSearch(db: DB, userId: string, id: number): Promise<SavedSearch> {
  const row = await db
    .selectFrom('saved_searches')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFound('errors.not-found');
  return savedSearchOf(row);
}

export interface SavedSearchWithNews extends SavedSearch {
  /** Ads the search lists now that were posted or reposted since it was last opened. */
  new_results: number;
  /** Whether `new_results` is exact (a very common word caps the text's matches: then "more than"). */
  new_results_exact: boolean;
}

/** The member's saved searches, newest first, each with its count of new results (the search service's). */
export async function listSavedSearches(
  handle: DatabaseHandle,
  userId: string,
  now = Date.now(),
): Promise<SavedSearchWithNews[]> {
  const rows = await handle.db
    .selectFrom('saved_searches')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  const catalogue = await searchEngine(handle).catalogue();
  const list: SavedSearchWithNews[] = [];
  for (const r of rows) {
    const s = savedSearchOf(r);
    const since = s.last_seen_at === null ? Date.parse(s.created_at) : Date.parse(s.last_seen_at);
    const resolved = resolveQuery(catalogue, queryOf(s));
    const found = await search(handle, resolved.query, { since, now, facets: false, pageSize: 1 });
    list.push({ ...s, new_results: found.total, new_results_exact: found.exact });
  }
  return list;
}

/** A saved search's query, read back as the listing reads it. */
export const queryOf = (s: Pick<SavedSearch, 'query'>): SearchQuery => parseSearchQuery(new URLSearchParams(s.query));

/** Renames one of the member's saved searches. */
export async function renameSavedSearch(db: DB, userId: string, id: number, name: string): Promise<void> {
  const done = await db
    .updateTable('saved_searches')
    .set({ name: name.trim().slice(0, SAVED_SEARCH_NAME_MAX) })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) throw new NotFound('errors.not-found');
}

/**
 * How often one of the member's searches alerts them. Matches waiting for a daily digest are
 * dropped when it stops being daily (instant ones were told already; off wants none).
 */
export async function setSavedSearchFrequency(
  db: DB,
  userId: string,
  id: number,
  frequency: AlertFrequency,
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const done = await tx
      .updateTable('saved_searches')
      .set({ frequency })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw new NotFound('errors.not-found');
    await tx.updateTable('saved_search_index').set({ frequency }).where('saved_search_id', '=', id).execute();
    if (frequency !== 'daily') {
      await tx
        .updateTable('saved_search_matches')
        .set({ delivered_at: new Date() })
        .where('saved_search_id', '=', id)
        .where('delivered_at', 'is', null)
        .execute();
    }
  });
}

/** Deletes one of the member's saved searches (its index row and matches go with it). */
export async function deleteSavedSearch(db: DB, userId: string, id: number): Promise<void> {
  const done = await db
    .deleteFrom('saved_searches')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(done.numDeletedRows) === 0) throw new NotFound('errors.not-found');
}

/** The member opens a saved search: its results are seen from now on. Returns it. */
export async function openSavedSearch(db: DB, userId: string, id: number, now = new Date()): Promise<SavedSearch> {
  const s = await getSavedSearch(db, userId, id);
  await db
    .updateTable('saved_searches')
    .set({ last_seen_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
  return { ...s, last_seen_at: now.toISOString() };
}

/**
 * The name a new saved search gets: what it asks for — its text, its category (or taxonomy) and
 * its city, in the member's language ("تويوتا · طرابلس") — or `fallback` ("All ads").
 */
export function savedSearchNameOf(
  catalogue: CatalogueSnapshot,
  query: SearchQuery,
  locale: Locale,
  fallback: string,
): string {
  const place = query.category
    ? catalogue.categoryBySlug.get(query.category)
    : query.taxonomy
      ? catalogue.taxonomyBySlug.get(query.taxonomy)
      : undefined;
  const city = query.city ? catalogue.cityBySlug.get(query.city) : undefined;
  const named = [query.q, place ? localName(locale, place) : null, city ? localName(locale, city) : null].filter(
    (x): x is string => !!x,
  );
  return named.length > 0 ? named.join(' · ') : fallback;
}

/** The listing of a saved search: `/posts?<query>` (the listing redirects to its canonical page). */
export const savedSearchPath = (s: Pick<SavedSearch, 'query'>) => (s.query ? `/posts?${s.query}` : '/posts');
