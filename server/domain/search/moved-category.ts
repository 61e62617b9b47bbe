// A search naming a category by an old slug (docs/product/search.md, "Moved categories"): when
// staff rename or move a category, its old slug is kept in `category_redirects` (migration 0026)
// with the category it now names. The category pages answer 301 from the old address; a search's
// `category=<old slug>` is followed the same way — the pages (`/posts`, `/posts/map`) answer 301 to
// the same query with the new slug, and the API (`GET /api/posts`, `/api/posts/map`, saved
// searches) answers for the category as it is now, its `meta.query` naming the new slug.
import type { SearchQuery } from '../../../app/lib/search-query.ts';
import type { DB } from '../../db/index.ts';
import type { CatalogueSnapshot } from './catalogue.ts';

/**
 * The slug the query's category has now when the query names it by an old one, or null: null too
 * when the slug is a live category's, unknown, or was the slug of a category now switched off.
 */
export async function movedCategorySlug(
  db: DB,
  catalogue: CatalogueSnapshot,
  slug: string | null,
): Promise<string | null> {
  if (slug === null || catalogue.categoryBySlug.has(slug)) return null;
  const row = await db
    .selectFrom('category_redirects')
    .select('category_id')
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row ? (catalogue.categoryById.get(row.category_id)?.slug ?? null) : null;
}

/** The query with an old category slug replaced by the category's slug now (the same query otherwise). */
export async function followMovedCategory(
  db: DB,
  catalogue: CatalogueSnapshot,
  query: SearchQuery,
): Promise<SearchQuery> {
  const moved = await movedCategorySlug(db, catalogue, query.category);
  return moved === null ? query : { ...query, category: moved, taxonomy: null };
}
