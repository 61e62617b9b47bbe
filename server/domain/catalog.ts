// Catalogue: taxonomies, nested categories, their attributes, cities and areas.
import { sql } from 'kysely';
import { isReservedSegment, SLUG_PATTERN } from '../../app/lib/slug.ts';
import type { DB } from '../db/index.ts';
import type { AttributeOption, AttributeRow, AttributeType, CategoryRow, TaxonomyRow } from '../db/schema.ts';
import { toBool, toJson, toNumber } from '../db/values.ts';
import { Invalid, NotFound } from './errors.ts';

export interface Named {
  name_ar: string;
  name_en: string;
}

export interface Taxonomy extends Named {
  id: number;
  slug: string;
  icon: string | null;
  position: number;
  /** Active categories at every level below the taxonomy. */
  categories_count: number;
  ads_count: number;
}

export interface Category extends Named {
  id: number;
  taxonomy_id: number;
  parent_id: number | null;
  slug: string;
  icon: string | null;
  position: number;
  depth: number;
  ads_count: number;
  /** Active direct children. */
  children_count: number;
}

export interface Attribute extends Named {
  id: number;
  key: string;
  type: AttributeType;
  options: AttributeOption[];
  unit_ar: string | null;
  unit_en: string | null;
  required: boolean;
  filterable: boolean;
  shown_on_card: boolean;
  min: number | null;
  max: number | null;
  position: number;
  /** Where the attribute is defined: the taxonomy or a category of the chain. */
  owner: { type: 'taxonomy' | 'category'; slug: string };
}

/** What a page shows of an attribute beside its values: its key, names, type and unit. */
export function attributeLabel<
  A extends Pick<Attribute, 'key' | 'name_ar' | 'name_en' | 'type' | 'unit_ar' | 'unit_en'>,
>(a: A) {
  return { key: a.key, name_ar: a.name_ar, name_en: a.name_en, type: a.type, unit_ar: a.unit_ar, unit_en: a.unit_en };
}

export interface Area extends Named {
  id: number;
  slug: string;
  lat: number;
  lng: number;
}

export interface City extends Named {
  id: number;
  slug: string;
  lat: number;
  lng: number;
  areas: Area[];
}

const toCategory = (r: CategoryRow & { children_count?: unknown }): Category => ({
  id: r.id,
  taxonomy_id: r.taxonomy_id,
  parent_id: r.parent_id,
  slug: r.slug,
  name_ar: r.name_ar,
  name_en: r.name_en,
  icon: r.icon,
  position: r.position,
  depth: r.depth,
  ads_count: toNumber(r.ads_count),
  children_count: toNumber(r.children_count),
});

/** An attribute row's own fields as both dialects read them (the back office's editor shows them too). */
export const attributeFields = (r: AttributeRow): Omit<Attribute, 'owner'> => ({
  id: r.id,
  key: r.key,
  name_ar: r.name_ar,
  name_en: r.name_en,
  type: r.type,
  options: toJson<AttributeOption[]>(r.options, []),
  unit_ar: r.unit_ar,
  unit_en: r.unit_en,
  required: toBool(r.required),
  filterable: toBool(r.filterable),
  shown_on_card: toBool(r.shown_on_card),
  min: r.min === null ? null : toNumber(r.min),
  max: r.max === null ? null : toNumber(r.max),
  position: r.position,
});

const toAttribute = (r: AttributeRow, owner: Attribute['owner']): Attribute => ({ ...attributeFields(r), owner });

/** Active taxonomies with their category and ad counts, in display order. */
function taxonomiesQuery(db: DB) {
  return db
    .selectFrom('taxonomies as t')
    .leftJoin('categories as c', (j) => j.onRef('c.taxonomy_id', '=', 't.id').on('c.active', '=', true))
    .where('t.active', '=', true)
    .select(['t.id', 't.slug', 't.name_ar', 't.name_en', 't.icon', 't.position'])
    .select((eb) => [
      eb.fn.count<number>('c.id').as('categories_count'),
      eb.fn
        .coalesce(eb.fn.sum<number>(sql`case when c.parent_id is null then c.ads_count else 0 end`), sql.lit(0))
        .as('ads_count'),
    ])
    .groupBy(['t.id', 't.slug', 't.name_ar', 't.name_en', 't.icon', 't.position'])
    .orderBy('t.position')
    .orderBy('t.id');
}

type TaxonomyRowWithCounts = Omit<Taxonomy, 'categories_count' | 'ads_count'> & {
  categories_count: unknown;
  ads_count: unknown;
};
const toTaxonomy = (r: TaxonomyRowWithCounts): Taxonomy => ({
  ...r,
  categories_count: toNumber(r.categories_count),
  ads_count: toNumber(r.ads_count),
});

export async function listTaxonomies(db: DB): Promise<Taxonomy[]> {
  return (await taxonomiesQuery(db).execute()).map(toTaxonomy);
}

export interface TaxonomyWithCategories extends Taxonomy {
  /** Active top-level categories, in display order (as listChildren gives them). */
  categories: Category[];
}

/** Active taxonomies, each with its active top-level categories: the whole first level of the catalogue in two queries. */
export async function listTaxonomiesWithCategories(db: DB): Promise<TaxonomyWithCategories[]> {
  const [taxonomies, categories] = await Promise.all([
    taxonomiesQuery(db).execute(),
    db
      .selectFrom('categories as c')
      .innerJoin('taxonomies as t', 't.id', 'c.taxonomy_id')
      .selectAll('c')
      .select(childCount.as('children_count'))
      .where('t.active', '=', true)
      .where('c.active', '=', true)
      .where('c.parent_id', 'is', null)
      .orderBy('c.position')
      .orderBy('c.id')
      .execute(),
  ]);
  const byTaxonomy = new Map<number, Category[]>();
  for (const row of categories) {
    const list = byTaxonomy.get(row.taxonomy_id) ?? [];
    list.push(toCategory(row));
    byTaxonomy.set(row.taxonomy_id, list);
  }
  return taxonomies.map((row) => ({ ...toTaxonomy(row), categories: byTaxonomy.get(row.id) ?? [] }));
}

/**
 * A taxonomy's slug is the first segment of its pages' paths (`/{taxonomy}/…`): the slug pattern,
 * and none of the site's own first segments (RESERVED_SEGMENTS in app/lib/slug.ts), or its pages
 * would be unreachable and `/admin/…` could read as a taxonomy. Throws Invalid otherwise.
 */
export function assertTaxonomySlug(slug: string): void {
  if (!SLUG_PATTERN.test(slug)) throw new Invalid({ slug: ['validation.slug'] });
  if (isReservedSegment(slug)) throw new Invalid({ slug: ['validation.reserved-slug'] });
}

export interface NewTaxonomy {
  slug: string;
  name_ar: string;
  name_en: string;
  icon: string | null;
  position: number;
}

/** Adds a taxonomy after checking its slug; returns its id. */
export async function createTaxonomy(db: DB, input: NewTaxonomy): Promise<number> {
  assertTaxonomySlug(input.slug);
  const row = await db
    .insertInto('taxonomies')
    .values({
      slug: input.slug,
      name_ar: input.name_ar,
      name_en: input.name_en,
      icon: input.icon,
      position: input.position,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function getTaxonomy(db: DB, slug: string): Promise<Taxonomy> {
  const row = await taxonomiesQuery(db).where('t.slug', '=', slug).executeTakeFirst();
  if (!row) throw new NotFound('errors.taxonomy-not-found');
  return toTaxonomy(row);
}

async function getTaxonomyById(db: DB, id: number): Promise<Taxonomy> {
  const row = await taxonomiesQuery(db).where('t.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('errors.taxonomy-not-found');
  return toTaxonomy(row);
}

/** Number of active direct children of the category aliased `c`. */
const childCount = sql<number>`(select count(*) from categories k where k.parent_id = c.id and k.active = ${true})`;

/** Active children of a category, or the top-level categories of a taxonomy (parent null). */
export async function listChildren(db: DB, taxonomyId: number, parentId: number | null): Promise<Category[]> {
  let q = db
    .selectFrom('categories as c')
    .selectAll('c')
    .select(childCount.as('children_count'))
    .where('c.taxonomy_id', '=', taxonomyId)
    .where('c.active', '=', true);
  q = parentId === null ? q.where('c.parent_id', 'is', null) : q.where('c.parent_id', '=', parentId);
  const rows = await q.orderBy('c.position').orderBy('c.id').execute();
  return rows.map(toCategory);
}

export async function getCategory(db: DB, slug: string): Promise<Category> {
  const row = await db
    .selectFrom('categories as c')
    .selectAll('c')
    .select(childCount.as('children_count'))
    .where('c.slug', '=', slug)
    .where('c.active', '=', true)
    .executeTakeFirst();
  if (!row) throw new NotFound('errors.category-not-found');
  return toCategory(row);
}

/** The category's ancestors from the top-level category down to its parent. */
export async function getAncestors(db: DB, category: Pick<Category, 'parent_id'>): Promise<Category[]> {
  if (category.parent_id === null) return [];
  const rows = await sql<CategoryRow>`
    with recursive chain(id, parent_id) as (
      select id, parent_id from categories where id = ${category.parent_id}
      union all
      select c.id, c.parent_id from categories c join chain on c.id = chain.parent_id
    )
    select c.* from categories c join chain on chain.id = c.id order by c.depth`.execute(db);
  return rows.rows.map((r) => toCategory({ ...r, children_count: 1 }));
}

export interface CategoryPath {
  taxonomy: Taxonomy;
  /** Top-level category first, the category itself last. */
  trail: Category[];
  category: Category;
}

export async function getCategoryPath(db: DB, slug: string): Promise<CategoryPath> {
  const category = await getCategory(db, slug);
  const [taxonomy, ancestors] = await Promise.all([
    getTaxonomyById(db, category.taxonomy_id),
    getAncestors(db, category),
  ]);
  return { taxonomy, trail: [...ancestors, category], category };
}

export async function listTaxonomyAttributes(db: DB, slug: string): Promise<Attribute[]> {
  const taxonomy = await getTaxonomy(db, slug);
  const rows = await db
    .selectFrom('attributes')
    .selectAll()
    .where('taxonomy_id', '=', taxonomy.id)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => toAttribute(r, { type: 'taxonomy', slug }));
}

/** Every attribute an ad in this category carries: the taxonomy's, each ancestor's, its own; in that order. */
export async function listCategoryAttributes(db: DB, slug: string): Promise<Attribute[]> {
  const { taxonomy, trail } = await getCategoryPath(db, slug);
  const ids = trail.map((c) => c.id);
  const rows = await db
    .selectFrom('attributes')
    .selectAll()
    .where((eb) => eb.or([eb('taxonomy_id', '=', taxonomy.id), eb('category_id', 'in', ids)]))
    .execute();
  const rank = (r: AttributeRow) => (r.taxonomy_id !== null ? -1 : ids.indexOf(r.category_id as number));
  rows.sort((a, b) => rank(a) - rank(b) || a.position - b.position || a.id - b.id);
  const slugOf = new Map(trail.map((c) => [c.id, c.slug]));
  return rows.map((r) =>
    toAttribute(
      r,
      r.taxonomy_id !== null
        ? { type: 'taxonomy', slug: taxonomy.slug }
        : { type: 'category', slug: slugOf.get(r.category_id as number) as string },
    ),
  );
}

/** Cities in display order, without their areas (home page links, filters). */
export async function listCityNames(db: DB, limit?: number): Promise<Omit<City, 'areas'>[]> {
  let q = db
    .selectFrom('cities')
    .select(['id', 'slug', 'name_ar', 'name_en', 'lat', 'lng'])
    .orderBy('position')
    .orderBy('id');
  if (limit) q = q.limit(limit);
  return q.execute();
}

export async function listCities(db: DB): Promise<City[]> {
  const [cities, areas] = await Promise.all([
    db.selectFrom('cities').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('areas').selectAll().orderBy('city_id').orderBy('position').orderBy('id').execute(),
  ]);
  const byCity = new Map<number, Area[]>();
  for (const a of areas) {
    const list = byCity.get(a.city_id) ?? [];
    list.push({ id: a.id, slug: a.slug, name_ar: a.name_ar, name_en: a.name_en, lat: a.lat, lng: a.lng });
    byCity.set(a.city_id, list);
  }
  return cities.map((c) => ({
    id: c.id,
    slug: c.slug,
    name_ar: c.name_ar,
    name_en: c.name_en,
    lat: c.lat,
    lng: c.lng,
    areas: byCity.get(c.id) ?? [],
  }));
}

export type { TaxonomyRow };
