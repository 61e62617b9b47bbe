// The catalogue as search reads it, in memory: taxonomies, the category tree (with each category's
// subtree), the filterable attributes along each category's chain, cities and areas (with the ids of
// those merged into them). A few hundred
// rows, read at once and kept for CATALOGUE_TTL_MS, so resolving a query costs no database trip.
import { createHash } from 'node:crypto';
import type { DB } from '../../db/index.ts';
import type { AttributeOption, AttributeType } from '../../db/schema.ts';
import { toBool, toJson } from '../../db/values.ts';

export interface SnapTaxonomy {
  id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  icon: string | null;
}

export interface SnapCategory {
  id: number;
  taxonomy_id: number;
  parent_id: number | null;
  slug: string;
  name_ar: string;
  name_en: string;
  icon: string | null;
  /** Active children in display order. */
  children: number[];
  /** This category and every active one below it. */
  subtree: number[];
}

export interface SnapAttribute {
  id: number;
  key: string;
  name_ar: string;
  name_en: string;
  type: AttributeType;
  options: AttributeOption[];
  unit_ar: string | null;
  unit_en: string | null;
  min: number | null;
  max: number | null;
  filterable: boolean;
  shown_on_card: boolean;
}

export interface SnapArea {
  id: number;
  city_id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  lat: number;
  lng: number;
  /** Areas merged into this one (their ids: the text index's rows of their ads may still name them). */
  merged: number[];
}

export interface SnapCity {
  id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  lat: number;
  lng: number;
  areas: number[];
  /** Cities merged into this one (their ids: the text index's rows of their ads may still name them). */
  merged: number[];
}

export interface CatalogueSnapshot {
  /**
   * A digest of the taxonomies, categories and attributes as read: two snapshots with the same
   * one index alike. A process that sees it change (another process's staff edit) builds its
   * index again (./service.ts).
   */
  signature: string;
  taxonomies: SnapTaxonomy[];
  taxonomyBySlug: Map<string, SnapTaxonomy>;
  taxonomyById: Map<number, SnapTaxonomy>;
  categoryById: Map<number, SnapCategory>;
  categoryBySlug: Map<string, SnapCategory>;
  /** Top-level active categories of each taxonomy, in display order. */
  topLevel: Map<number, number[]>;
  attributeById: Map<number, SnapAttribute>;
  /** Every attribute an ad of the category carries (taxonomy's, ancestors', its own), in form order. */
  chainAttributes(categoryId: number): SnapAttribute[];
  /** The taxonomy's own attributes (an ad of any of its categories carries them). */
  taxonomyAttributes(taxonomyId: number): SnapAttribute[];
  cities: SnapCity[];
  cityBySlug: Map<string, SnapCity>;
  cityById: Map<number, SnapCity>;
  areaById: Map<number, SnapArea>;
  areaBySlug: Map<string, SnapArea>;
  /** Largest category id + 1 (sizes the per-category counters of a scan). */
  categorySpan: number;
  citySpan: number;
  areaSpan: number;
}

export const CATALOGUE_TTL_MS = 30_000;

export async function loadCatalogueSnapshot(db: DB): Promise<CatalogueSnapshot> {
  const [taxonomies, categories, attributes, cities, areas, mergedCities, mergedAreas] = await Promise.all([
    db
      .selectFrom('taxonomies')
      .select(['id', 'slug', 'name_ar', 'name_en', 'icon'])
      .where('active', '=', true)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('categories')
      .select(['id', 'taxonomy_id', 'parent_id', 'slug', 'name_ar', 'name_en', 'icon', 'active'])
      .orderBy('depth')
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db.selectFrom('attributes').selectAll().orderBy('position').orderBy('id').execute(),
    db
      .selectFrom('cities')
      .select(['id', 'slug', 'name_ar', 'name_en', 'lat', 'lng'])
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('areas')
      .select(['id', 'city_id', 'slug', 'name_ar', 'name_en', 'lat', 'lng'])
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db.selectFrom('merged_cities').select(['id', 'city_id']).orderBy('id').execute(),
    db.selectFrom('merged_areas').select(['id', 'area_id']).orderBy('id').execute(),
  ]);
  const taxonomyById = new Map(taxonomies.map((t) => [t.id, t]));
  const categoryById = new Map<number, SnapCategory>();
  const topLevel = new Map<number, number[]>();
  // Parents come first (ordered by depth): a category is active only under an active parent.
  for (const c of categories) {
    if (!toBool(c.active) || !taxonomyById.has(c.taxonomy_id)) continue;
    if (c.parent_id !== null && !categoryById.has(c.parent_id)) continue;
    const { active: _active, ...rest } = c;
    categoryById.set(c.id, { ...rest, children: [], subtree: [] });
    if (c.parent_id === null) topLevel.set(c.taxonomy_id, [...(topLevel.get(c.taxonomy_id) ?? []), c.id]);
    else categoryById.get(c.parent_id)?.children.push(c.id);
  }
  const subtreeOf = (id: number): number[] => {
    const c = categoryById.get(id);
    if (c === undefined) return [];
    if (c.subtree.length === 0) c.subtree = [id, ...c.children.flatMap(subtreeOf)];
    return c.subtree;
  };
  for (const id of categoryById.keys()) subtreeOf(id);

  const attributeById = new Map<number, SnapAttribute>();
  const byTaxonomy = new Map<number, SnapAttribute[]>();
  const byCategory = new Map<number, SnapAttribute[]>();
  for (const a of attributes) {
    const attr: SnapAttribute = {
      id: a.id,
      key: a.key,
      name_ar: a.name_ar,
      name_en: a.name_en,
      type: a.type,
      options: toJson<AttributeOption[]>(a.options, []),
      unit_ar: a.unit_ar,
      unit_en: a.unit_en,
      min: a.min,
      max: a.max,
      filterable: toBool(a.filterable),
      shown_on_card: toBool(a.shown_on_card),
    };
    attributeById.set(a.id, attr);
    const [map, owner] = a.taxonomy_id !== null ? [byTaxonomy, a.taxonomy_id] : [byCategory, a.category_id as number];
    map.set(owner, [...(map.get(owner) ?? []), attr]);
  }
  const chains = new Map<number, SnapAttribute[]>();
  const chainAttributes = (categoryId: number): SnapAttribute[] => {
    const cached = chains.get(categoryId);
    if (cached) return cached;
    const c = categoryById.get(categoryId);
    if (!c) return [];
    const chain = [
      ...(c.parent_id === null ? (byTaxonomy.get(c.taxonomy_id) ?? []) : chainAttributes(c.parent_id)),
      ...(byCategory.get(c.id) ?? []),
    ];
    chains.set(categoryId, chain);
    return chain;
  };

  const mergedInto = (rows: { id: number; into: number }[], into: number) =>
    rows.filter((r) => r.into === into).map((r) => r.id);
  const cityMerges = mergedCities.map((r) => ({ id: r.id, into: r.city_id }));
  const areaMerges = mergedAreas.map((r) => ({ id: r.id, into: r.area_id }));
  const snapAreas: SnapArea[] = areas.map((a) => ({ ...a, merged: mergedInto(areaMerges, a.id) }));
  const areaById = new Map<number, SnapArea>(snapAreas.map((a) => [a.id, a]));
  const snapCities: SnapCity[] = cities.map((c) => ({
    ...c,
    areas: areas.filter((a) => a.city_id === c.id).map((a) => a.id),
    merged: mergedInto(cityMerges, c.id),
  }));
  const span = (ids: Iterable<number>) => Math.max(0, ...ids) + 1;
  const signature = createHash('sha1')
    .update(JSON.stringify([taxonomies, categories, attributes]))
    .digest('base64url');
  return {
    signature,
    taxonomies,
    taxonomyBySlug: new Map(taxonomies.map((t) => [t.slug, t])),
    taxonomyById,
    categoryById,
    categoryBySlug: new Map([...categoryById.values()].map((c) => [c.slug, c])),
    topLevel,
    attributeById,
    chainAttributes,
    taxonomyAttributes: (taxonomyId) => byTaxonomy.get(taxonomyId) ?? [],
    cities: snapCities,
    cityBySlug: new Map(snapCities.map((c) => [c.slug, c])),
    cityById: new Map(snapCities.map((c) => [c.id, c])),
    areaById,
    areaBySlug: new Map(snapAreas.map((a) => [a.slug, a])),
    categorySpan: span(categories.map((c) => c.id)),
    citySpan: span(cities.map((c) => c.id)),
    areaSpan: span(areas.map((a) => a.id)),
  };
}
