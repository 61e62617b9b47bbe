// The categories a text query points to, offered above its results as chips ("تويوتا في سيارات ›",
// docs/product/search.md, "Categories a query names"): those whose names the query says (see
// `namedCategories` in ./service.ts) that hold some of its results, each once at the highest level
// that says as much, and never the category the query is already in or one above it.
import type { CatalogueSnapshot, SnapCategory } from './catalogue.ts';

/** At most this many chips. */
export const CATEGORY_CHIPS_MAX = 5;

export interface CategoryChip {
  slug: string;
  name_ar: string;
  name_en: string;
  /** The taxonomy's slug (a category page's path starts with it). */
  taxonomy: string;
  /** The category above it (or its taxonomy, for a top-level one): the "in …" of the chip. */
  parent: { name_ar: string; name_en: string } | null;
  /** Results of the query in this category and below it. */
  count: number;
}

/**
 * The chips of a query's results. `named`: by category id, how well the query names it
 * (`namedCategories`); `counts`: by category id, the results filed directly under it; `current`:
 * the category the query is in (null for none).
 */
export function categoryChips(
  catalogue: CatalogueSnapshot,
  named: Uint8Array,
  counts: Uint32Array,
  current: number | null,
): CategoryChip[] {
  // The category the query is in and every one above it say nothing new.
  const above = new Set<number>();
  for (let c = current === null ? undefined : catalogue.categoryById.get(current); c; ) {
    above.add(c.id);
    c = c.parent_id === null ? undefined : catalogue.categoryById.get(c.parent_id);
  }
  const picked: { id: number; score: number; count: number }[] = [];
  for (const c of catalogue.categoryById.values()) {
    const score = named[c.id] ?? 0;
    // At least one word of the query says a name of its chain (see namedCategories).
    if (score < 2 || above.has(c.id)) continue;
    // A category whose parent is named as much says no more than it (nor than the current one).
    if (c.parent_id !== null && (named[c.parent_id] ?? 0) >= score) continue;
    let count = 0;
    for (const id of c.subtree) count += counts[id] ?? 0;
    if (count > 0) picked.push({ id: c.id, score, count });
  }
  picked.sort((a, b) => b.score - a.score || b.count - a.count || a.id - b.id);
  return picked.slice(0, CATEGORY_CHIPS_MAX).map(({ id, count }) => {
    const c = catalogue.categoryById.get(id) as SnapCategory;
    const taxonomy = catalogue.taxonomyById.get(c.taxonomy_id);
    const parent = c.parent_id === null ? taxonomy : catalogue.categoryById.get(c.parent_id);
    return {
      slug: c.slug,
      name_ar: c.name_ar,
      name_en: c.name_en,
      taxonomy: taxonomy?.slug ?? '',
      parent: parent ? { name_ar: parent.name_ar, name_en: parent.name_en } : null,
      count,
    };
  });
}
