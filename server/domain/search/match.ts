// Whether one ad in hand matches a query: the search service's own rule (./service.ts), for the
// saved-search alerts (docs/product/alerts.md) that ask it of one new ad against many queries.
//
// Nothing here is a second implementation. The ad is read into an index of its own by the code that
// keeps the search index (`refreshAds`, ./ad-index.ts: published ads only, with the typed values of
// its filterable attributes); a query is resolved against the catalogue (`resolveQuery`) and becomes
// the scan filter a search runs (`scanFilter`), with the ad as its one candidate, so category scope,
// price band and currency, photos, posting time and attribute filters are tested by
// `AdIndex.matching`; city and area as `rankIndex` tests them; the text by the text index's rule
// (`textHasTerms` / `hasTextTerms`, ./normalize.ts) over the ad's indexed text (`adTexts`: its words and those the
// catalogue gives it, with their stems), with the query's words read as a search reads them
// (`queryTextTerms`: stop words, spellings, stems, broken plurals, near spellings of the
// catalogue's words; the last word as a prefix).
import type { SearchQuery } from '../../../app/lib/search-query.ts';
import type { DB } from '../../db/index.ts';
import { adTexts } from '../../db/text-search.ts';
import type { ScanFilter } from './ad-index.ts';
import { AdIndex, refreshAds } from './ad-index.ts';
import type { TextTerms } from './analyzer.ts';
import type { CatalogueSnapshot } from './catalogue.ts';
import { hasTextTerms, wordSet } from './normalize.ts';
import { queryTextTerms, type ResolvedQuery, resolveQuery, scanFilter } from './service.ts';

/** A published ad read for matching: its one-ad index and its indexed text. */
export interface AdInHand {
  id: number;
  index: AdIndex;
  slot: number;
  /** The words of its text as the text index holds them (its own, the catalogue's, stems). */
  words: ReadonlySet<string>;
}

/** The ad, when it is published (an ad in any other status matches nothing). */
export async function adInHand(db: DB, catalogue: CatalogueSnapshot, adId: number): Promise<AdInHand | null> {
  const index = new AdIndex();
  const [, texts] = await Promise.all([refreshAds(db, index, catalogue, [adId]), adTexts(db, [adId])]);
  const slot = index.slot(adId);
  if (slot < 0) return null;
  return { id: adId, index, slot, words: wordSet(texts[0]?.text ?? '') };
}

/** A query made ready to be asked of many ads: resolved, its text read once. */
export interface PreparedQuery {
  resolved: ResolvedQuery;
  /** The text's terms; null without text. */
  terms: TextTerms | null;
  /**
   * Its scan filter, built once when it holds no test of time (`within` bounds the posting time
   * from now: then it is built for each ad), its one candidate written in before each use.
   */
  filter: (ScanFilter & { candidates: number[] }) | null;
}

/** Text terms by text, per catalogue snapshot: saved searches repeat their words. */
const termsByText = new WeakMap<CatalogueSnapshot, Map<string, TextTerms>>();
const TERMS_KEPT = 20_000;

function termsOf(catalogue: CatalogueSnapshot, q: string): TextTerms {
  let memo = termsByText.get(catalogue);
  if (!memo) {
    memo = new Map();
    termsByText.set(catalogue, memo);
  }
  let terms = memo.get(q);
  if (!terms) {
    terms = queryTextTerms(catalogue, q);
    if (memo.size >= TERMS_KEPT) memo.clear();
    memo.set(q, terms);
  }
  return terms;
}

export function prepareQuery(catalogue: CatalogueSnapshot, query: SearchQuery): PreparedQuery {
  const resolved = resolveQuery(catalogue, query);
  const q = resolved.query.q;
  const candidates = [0];
  const filter = { ...scanFilter(catalogue, resolved, candidates), candidates };
  const timeless = filter.columns.every((c) => c.kind !== 'at-least');
  return { resolved, terms: q ? termsOf(catalogue, q) : null, filter: timeless ? filter : null };
}

/** Whether the search of `query` would list the ad now. */
export function adMatches(catalogue: CatalogueSnapshot, ad: AdInHand, query: PreparedQuery, now = Date.now()): boolean {
  const { resolved, terms } = query;
  if (resolved.cityId !== null && ad.index.city[ad.slot] !== resolved.cityId) return false;
  if (resolved.areaId !== null && ad.index.area[ad.slot] !== resolved.areaId) return false;
  // Text with no words (only signs) finds nothing, as in a search.
  if (terms !== null && !hasTextTerms(terms, ad.words)) return false;
  const { filter } = query;
  if (filter === null) return ad.index.matching(scanFilter(catalogue, resolved, [ad.id], now)).length > 0;
  filter.candidates[0] = ad.id;
  return ad.index.matching(filter).length > 0;
}
