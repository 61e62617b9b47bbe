// Keeping the text index's source (`ad_search`, migrations 0008, 0016 and 0029) in step with ads:
// called in the transaction that places or edits an ad; the index itself follows (FTS5 triggers on
// SQLite, a generated tsvector on PostgreSQL). A row holds, normalised (./normalize.ts):
//
// - `title` and `body`: the ad's own words;
// - `terms`: the catalogue keys of the ad — one word naming its category by id, one its city and one
//   its area (`categoryKey`, `cityKey`, `areaKey`) — and the labels of the options it carries (make,
//   model, brand…) in Arabic and English. The names of the category, of the categories above it, of
//   its taxonomy and of its place are not stored: a query word that says one of them is read as
//   that category's, city's or area's key besides its own forms (./catalogue-keys.ts), so "تويوتا"
//   finds an ad filed under Toyota whose title says "كامري 2015", and a category moved or renamed,
//   or a place renamed or merged, changes no row here;
// - `stems`: the stem (./analyzer.ts) of every word of the title, the description and the option
//   labels that differs from the word itself, so a plural finds the singular and a spelling finds
//   the others.
import type { Insertable } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { toJson } from '../../db/values.ts';
import { stem } from './analyzer.ts';
import { normalizeText } from './normalize.ts';

/**
 * What starts a catalogue key: taa marbuta, which the normaliser writes as haa, so no word of an
 * ad's text or of a query has it (a key is found only through the catalogue's names).
 */
const KEY_MARK = '\u0629';
/** The index word naming the category with this id (the ad's own category only: a move keeps it). */
export const categoryKey = (id: number) => `${KEY_MARK}c${id}`;
/** The index word naming the city with this id (a merged city's ads keep its id: see `merged_cities`). */
export const cityKey = (id: number) => `${KEY_MARK}y${id}`;
/** The index word naming the area with this id (likewise `merged_areas`). */
export const areaKey = (id: number) => `${KEY_MARK}a${id}`;

/** The option labels by attribute id and option value (normalised, Arabic and English), as plain data a worker thread can take. */
export interface CatalogueWords {
  option: Map<number, Map<string, string>>;
}

/** The option labels, read from the catalogue's tables (inactive parts too: their ads keep their words). */
export async function loadCatalogueWords(db: DB): Promise<CatalogueWords> {
  const attributes = await db
    .selectFrom('attributes')
    .select(['id', 'options'])
    .where('type', 'in', ['select', 'multiselect'])
    .execute();
  const option = new Map<number, Map<string, string>>();
  for (const a of attributes) {
    const labels = new Map<string, string>();
    for (const o of toJson<{ value: string; ar: string; en: string }[]>(a.options, [])) {
      labels.set(o.value, normalizeText(`${o.ar} ${o.en}`));
    }
    option.set(a.id, labels);
  }
  return { option };
}

/** Distinct words, in their first order. */
function uniqueWords(text: string): string {
  return [...new Set(text.split(' ').filter((w) => w !== ''))].join(' ');
}

/** What the text index needs to know of an ad besides its title and description. */
export interface AdPlace {
  category_id: number;
  city_id: number;
  area_id: number | null;
  /** Its select and multiselect values. */
  options: { attribute_id: number; value: string }[];
}

/** The words of the labels of the ad's options, each once, in a fixed order however the values were read. */
export function optionText(words: CatalogueWords, ad: AdPlace): string {
  return uniqueWords(
    ad.options
      .map((o) => words.option.get(o.attribute_id)?.get(o.value) ?? '')
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .join(' '),
  );
}

/** The ad's `terms` (see the top of this file): its catalogue keys, then its option labels. */
export function catalogueText(words: CatalogueWords, ad: AdPlace): string {
  const keys = [
    categoryKey(ad.category_id),
    cityKey(ad.city_id),
    ...(ad.area_id === null ? [] : [areaKey(ad.area_id)]),
  ];
  const options = optionText(words, ad);
  return options === '' ? keys.join(' ') : `${keys.join(' ')} ${options}`;
}

/** The stems of the words of these texts that differ from the words, each once. */
export function stemsOf(...texts: string[]): string {
  const stems = new Set<string>();
  for (const text of texts) {
    for (const word of text.split(' ')) {
      if (word === '') continue;
      const s = stem(word);
      if (s !== word) stems.add(s);
    }
  }
  return [...stems].join(' ');
}

/** The `ad_search` row of an ad. */
export function adSearchRow(
  adId: number,
  title: string,
  description: string,
  words: CatalogueWords,
  place: AdPlace,
): Insertable<Database['ad_search']> {
  const t = normalizeText(title);
  const body = normalizeText(description);
  return {
    ad_id: adId,
    title: t,
    body,
    terms: catalogueText(words, place),
    stems: stemsOf(t, body, optionText(words, place)),
  };
}

/** Where the ads are and the options they carry, as the text index reads them. */
export async function adPlaces(db: DB, ids: readonly number[]): Promise<Map<number, AdPlace>> {
  const places = new Map<number, AdPlace>();
  if (ids.length === 0) return places;
  const [ads, values] = await Promise.all([
    db.selectFrom('ads').select(['id', 'category_id', 'city_id', 'area_id']).where('id', 'in', ids).execute(),
    db
      .selectFrom('ad_attribute_values')
      .select(['ad_id', 'attribute_id', 'value_option'])
      .where('ad_id', 'in', ids)
      .where('value_option', 'is not', null)
      .execute(),
  ]);
  for (const a of ads)
    places.set(a.id, { category_id: a.category_id, city_id: a.city_id, area_id: a.area_id, options: [] });
  for (const v of values) {
    if (v.value_option !== null)
      places.get(v.ad_id)?.options.push({ attribute_id: v.attribute_id, value: v.value_option });
  }
  return places;
}

/** Writes an ad's row of the text index from what the ad holds now (its category, place and options). */
export async function indexAdText(db: DB, adId: number, title: string, description: string): Promise<void> {
  const [words, places] = await Promise.all([loadCatalogueWords(db), adPlaces(db, [adId])]);
  const place = places.get(adId);
  if (!place) return;
  const row = adSearchRow(adId, title, description, words, place);
  await db
    .insertInto('ad_search')
    .values(row)
    .onConflict((oc) =>
      oc.column('ad_id').doUpdateSet((eb) => ({
        title: eb.ref('excluded.title'),
        body: eb.ref('excluded.body'),
        terms: eb.ref('excluded.terms'),
        stems: eb.ref('excluded.stems'),
      })),
    )
    .execute();
}
