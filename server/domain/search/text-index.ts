// Keeping the text index's source (`ad_search`, migrations 0008 and 0015) in step with ads: called
// in the transaction that places or edits an ad; the index itself follows (FTS5 triggers on
// SQLite, a generated tsvector on PostgreSQL). A row holds, normalised (./normalize.ts):
//
// - `title` and `body`: the ad's own words;
// - `terms`: the words the catalogue gives the ad — the names of its category, of every category
//   above it and of its taxonomy, the labels of the options it carries (make, model, brand…),
//   its city and area, each in Arabic and English — so "تويوتا" finds an ad filed under Toyota
//   whose title says "كامري 2015", and "toyota" finds one titled "تويوتا";
// - `stems`: the stem (./analyzer.ts) of every word above that differs from the word itself, so a
//   plural finds the singular and a spelling finds the others.
import type { Insertable } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { toJson } from '../../db/values.ts';
import { stem } from './analyzer.ts';
import { normalizeText } from './normalize.ts';

/** The catalogue's words by id (normalised, Arabic and English), as plain data a worker thread can take. */
export interface CatalogueWords {
  /** The names of each category, of its ancestors and of its taxonomy. */
  category: Map<number, string>;
  city: Map<number, string>;
  area: Map<number, string>;
  /** The labels of each option, by attribute id and option value. */
  option: Map<number, Map<string, string>>;
}

/** The catalogue's words, read from its tables (inactive parts too: their ads keep their words). */
export async function loadCatalogueWords(db: DB): Promise<CatalogueWords> {
  const [taxonomies, categories, attributes, cities, areas] = await Promise.all([
    db.selectFrom('taxonomies').select(['id', 'name_ar', 'name_en']).execute(),
    db.selectFrom('categories').select(['id', 'taxonomy_id', 'parent_id', 'name_ar', 'name_en']).execute(),
    db.selectFrom('attributes').select(['id', 'options']).where('type', 'in', ['select', 'multiselect']).execute(),
    db.selectFrom('cities').select(['id', 'name_ar', 'name_en']).execute(),
    db.selectFrom('areas').select(['id', 'name_ar', 'name_en']).execute(),
  ]);
  const names = (r: { name_ar: string; name_en: string }) => normalizeText(`${r.name_ar} ${r.name_en}`);
  const taxonomy = new Map(taxonomies.map((t) => [t.id, names(t)]));
  const byId = new Map(categories.map((c) => [c.id, c]));
  const category = new Map<number, string>();
  for (const c of categories) {
    const chain: string[] = [];
    // A category tree is a few levels deep; the guard stops a cycle a bad edit could make.
    for (let at: typeof c | undefined = c, depth = 0; at && depth < 16; depth++) {
      chain.push(names(at));
      at = at.parent_id === null ? undefined : byId.get(at.parent_id);
    }
    chain.push(taxonomy.get(c.taxonomy_id) ?? '');
    category.set(c.id, uniqueWords(chain.join(' ')));
  }
  const option = new Map<number, Map<string, string>>();
  for (const a of attributes) {
    const labels = new Map<string, string>();
    for (const o of toJson<{ value: string; ar: string; en: string }[]>(a.options, [])) {
      labels.set(o.value, normalizeText(`${o.ar} ${o.en}`));
    }
    option.set(a.id, labels);
  }
  return {
    category,
    option,
    city: new Map(cities.map((c) => [c.id, names(c)])),
    area: new Map(areas.map((a) => [a.id, names(a)])),
  };
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

/** The words the catalogue gives an ad (see the top of this file). */
export function catalogueText(words: CatalogueWords, ad: AdPlace): string {
  const parts = [
    words.category.get(ad.category_id) ?? '',
    words.city.get(ad.city_id) ?? '',
    ad.area_id === null ? '' : (words.area.get(ad.area_id) ?? ''),
    // In a fixed order, however the values were read.
    ...ad.options
      .map((o) => words.option.get(o.attribute_id)?.get(o.value) ?? '')
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  ];
  return uniqueWords(parts.join(' '));
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
  const terms = catalogueText(words, place);
  return { ad_id: adId, title: t, body, terms, stems: stemsOf(t, body, terms) };
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
