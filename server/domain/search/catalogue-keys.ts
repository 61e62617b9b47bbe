// A query's words read against the catalogue's names (docs/product/search.md, "What a word
// matches"). The text index keeps an ad's category, city and area as keys, not as their names
// (./text-index.ts): a query word that says the name of a category, of one above it or of its
// taxonomy, or the name of a city or an area, matches the ads filed there through their keys, as
// one more of the word's forms. So the names are read from the catalogue as it is now, and a
// category moved or renamed, or a place renamed or merged, is searched by its new words at once,
// without writing any ad's row.
//
// A word "says" a set of names by the text index's own rule: one of its forms is one of the names'
// words or their stems; the last word of a query (the one still being typed) also when its typed
// form starts one of them.
import { queryWords, stem, type TextTerms } from './analyzer.ts';
import type { CatalogueSnapshot } from './catalogue.ts';
import { normalizeText, searchTerms } from './normalize.ts';
import { areaKey, categoryKey, cityKey } from './text-index.ts';

/** A set of names as words (with their stems), and the same words as a list for the prefix test. */
export interface NameWords {
  words: ReadonlySet<string>;
  list: readonly string[];
}

/** A category's words: those of its chain (its names, those above it, its taxonomy's), and each name of the chain. */
export interface CategoryWords extends NameWords {
  /** The words of the chain's names themselves (no stems). */
  own: ReadonlySet<string>;
  /** Each name (in each language) of the category and of those above it, as its words, each with its stem. */
  names: NameWords[][];
}

interface CatalogueNames {
  categories: Map<number, CategoryWords>;
  /** Every city and area with the keys that name it in the index (its own, those of places merged into it). */
  places: (NameWords & { keys: string[] })[];
}

const names = new WeakMap<CatalogueSnapshot, CatalogueNames>();

/** Words of these names with their stems. */
function nameWords(...texts: string[]): NameWords {
  const words = new Set<string>();
  for (const word of normalizeText(texts.join(' ')).split(' ')) if (word !== '') words.add(word).add(stem(word));
  return { words, list: [...words] };
}

function catalogueNames(catalogue: CatalogueSnapshot): CatalogueNames {
  let known = names.get(catalogue);
  if (known) return known;
  const categories = new Map<number, CategoryWords>();
  const withStem = (w: string): NameWords => {
    const words = new Set([w, stem(w)]);
    return { words, list: [...words] };
  };
  for (const c of catalogue.categoryById.values()) {
    const taxonomy = catalogue.taxonomyById.get(c.taxonomy_id);
    const texts = taxonomy ? [taxonomy.name_ar, taxonomy.name_en] : [];
    const own: NameWords[][] = [];
    for (
      let at: typeof c | undefined = c;
      at;
      at = at.parent_id === null ? undefined : catalogue.categoryById.get(at.parent_id)
    ) {
      texts.push(at.name_ar, at.name_en);
      own.push(queryWords(searchTerms(at.name_ar)).map(withStem), queryWords(searchTerms(at.name_en)).map(withStem));
    }
    const words = normalizeText(texts.join(' ')).split(' ');
    categories.set(c.id, { ...nameWords(...texts), own: new Set(words), names: own });
  }
  const places = [
    ...catalogue.cities.map((c) => ({ ...nameWords(c.name_ar, c.name_en), keys: [c.id, ...c.merged].map(cityKey) })),
    ...[...catalogue.areaById.values()].map((a) => ({
      ...nameWords(a.name_ar, a.name_en),
      keys: [a.id, ...a.merged].map(areaKey),
    })),
  ];
  known = { categories, places };
  names.set(catalogue, known);
  return known;
}

/** Each active category's words, by id (made once per catalogue snapshot). */
export function categoryWords(catalogue: CatalogueSnapshot): Map<number, CategoryWords> {
  return catalogueNames(catalogue).categories;
}

/**
 * Whether word `i` of `terms` says one of `names`' words: one of its forms is one of them (the
 * last word's typed form, the first, as the start of one).
 */
export function says(terms: TextTerms, i: number, names: NameWords): boolean {
  const [typed = '', ...forms] = terms[i] as string[];
  if (forms.some((f) => names.words.has(f))) return true;
  if (i !== terms.length - 1) return names.words.has(typed);
  if (typed === '') return false;
  for (const w of names.list) if (w.startsWith(typed)) return true;
  return false;
}

/**
 * The terms with, after each word's own forms, the keys of the categories, cities and areas whose
 * names it says: what the word matches in the text index besides the ads' own words.
 */
export function withCatalogueKeys(catalogue: CatalogueSnapshot, terms: TextTerms): TextTerms {
  const { categories, places } = catalogueNames(catalogue);
  return terms.map((forms, i) => {
    const keys: string[] = [];
    for (const [id, words] of categories) if (says(terms, i, words)) keys.push(categoryKey(id));
    for (const place of places) if (says(terms, i, place)) keys.push(...place.keys);
    return keys.length === 0 ? forms : [...forms, ...keys];
  });
}
