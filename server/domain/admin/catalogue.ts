// The catalogue editor of the back office (docs/product/back-office.md, "Catalogue"): taxonomies
// and the category tree (inactive parts included), and the changes staff make to them — create a
// child, rename (names, slug, icon), move, reorder, switch off and on — and to the attributes of a
// taxonomy or a category. Every change writes a revision in its transaction and is followed by
// ./catalogue-effects.ts (text index words, search index, saved searches, page cache).
//
// A change that would hurt existing ads (moving a category with ads, switching one off, removing
// an option in use, making an attribute required, deleting one with values) first answers
// `{ done: false, impact }` with the figure; it goes through only when the caller sends back the
// same figure as `confirmed`, counted again in the transaction (a figure that changed meanwhile is
// asked about again).
import { sql } from 'kysely';
import { TAXONOMY_SORTS, type TaxonomySort } from '../../../app/lib/admin-lists.ts';
import { hasOptions, hasRange } from '../../../app/lib/attribute-types.ts';
import { withLargeCache } from '../../db/cache-size.ts';
import type { DatabaseHandle, DB } from '../../db/index.ts';
import type { AttributeOption, AttributeRow, AttributeType, CategoryRow, TaxonomyRow } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toBool, toNumber } from '../../db/values.ts';
import { recountTaxonomy } from '../ads/bookkeeping.ts';
import type { Actor } from '../ads/rules.ts';
import { changedFields, recordRevision } from '../audit.ts';
import { attributeFields } from '../catalog.ts';
import { Invalid, NotFound } from '../errors.ts';
import { enqueueTermsRewrite, followCatalogueEdit, rewriteAdTerms } from './catalogue-effects.ts';
import { containsAny, decodeCursor, type KeysetPage, keysetPage, type SortDirection } from './keyset.ts';

// ───────────────────────── reading ─────────────────────────

export interface AdminTaxonomy {
  id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  icon: string | null;
  position: number;
  active: boolean;
  categories_count: number;
  attributes_count: number;
  /** Published ads (the top-level categories' counts). */
  ads_count: number;
}

export { TAXONOMY_SORTS, type TaxonomySort };

/** Every taxonomy, active or not, a keyset page at a time; `q` finds slugs and names. */
export async function listAdminTaxonomies(
  db: DB,
  query: { q: string; sort: TaxonomySort; dir: SortDirection; after: string | null },
  limit = 50,
): Promise<KeysetPage<AdminTaxonomy>> {
  let q = db
    .selectFrom('taxonomies as t')
    .select(['t.id', 't.slug', 't.name_ar', 't.name_en', 't.icon', 't.position', 't.active'])
    .select((eb) => [
      eb
        .selectFrom('categories as c')
        .whereRef('c.taxonomy_id', '=', 't.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('categories_count'),
      eb
        .selectFrom('attributes as a')
        .whereRef('a.taxonomy_id', '=', 't.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('attributes_count'),
      eb
        .selectFrom('categories as c')
        .whereRef('c.taxonomy_id', '=', 't.id')
        .where('c.parent_id', 'is', null)
        .select(sql<number>`coalesce(sum(c.ads_count), 0)`.as('n'))
        .as('ads_count'),
    ]);
  if (query.q) q = q.where(containsAny(['t.slug', 't.name_ar', 't.name_en'], query.q));
  const column = query.sort === 'slug' ? 't.slug' : 't.position';
  const page = await keysetPage(q, {
    column,
    id: 't.id',
    direction: query.dir,
    cursor: decodeCursor(query.after),
    limit,
    keyOf: (r) => ({ value: query.sort === 'slug' ? r.slug : r.position, id: r.id }),
  });
  return {
    next: page.next,
    rows: page.rows.map((r) => ({
      ...r,
      active: toBool(r.active),
      categories_count: toNumber(r.categories_count),
      attributes_count: toNumber(r.attributes_count),
      ads_count: toNumber(r.ads_count),
    })),
  };
}

export interface AdminCategory {
  id: number;
  taxonomy_id: number;
  parent_id: number | null;
  slug: string;
  name_ar: string;
  name_en: string;
  icon: string | null;
  position: number;
  active: boolean;
  /** Published ads here and below (the denormalised count). */
  ads_count: number;
  /** Children, active or not. */
  children_count: number;
}

const toAdminCategory = (r: CategoryRow, children: number): AdminCategory => ({
  id: r.id,
  taxonomy_id: r.taxonomy_id,
  parent_id: r.parent_id,
  slug: r.slug,
  name_ar: r.name_ar,
  name_en: r.name_en,
  icon: r.icon,
  position: r.position,
  active: toBool(r.active),
  ads_count: toNumber(r.ads_count),
  children_count: children,
});

/** The whole category tree in memory (a few hundred rows): children in order, subtrees, chains. */
class Tree {
  readonly byId = new Map<number, CategoryRow>();
  readonly children = new Map<string, CategoryRow[]>();

  constructor(rows: CategoryRow[]) {
    for (const r of rows) this.byId.set(r.id, r);
    const sorted = [...rows].sort((a, b) => a.position - b.position || a.id - b.id);
    for (const r of sorted) {
      const key = Tree.key(r.taxonomy_id, r.parent_id);
      this.children.set(key, [...(this.children.get(key) ?? []), r]);
    }
  }

  static key(taxonomyId: number, parentId: number | null) {
    return parentId === null ? `t${taxonomyId}` : `c${parentId}`;
  }

  childrenOf(taxonomyId: number, parentId: number | null): CategoryRow[] {
    return this.children.get(Tree.key(taxonomyId, parentId)) ?? [];
  }

  /** The category and every one below it. */
  subtree(id: number): number[] {
    const out: number[] = [];
    const walk = (at: number) => {
      out.push(at);
      for (const c of this.children.get(`c${at}`) ?? []) walk(c.id);
    };
    walk(id);
    return out;
  }

  /** From the top-level category down to this one. */
  chain(id: number): CategoryRow[] {
    const out: CategoryRow[] = [];
    for (let at = this.byId.get(id), depth = 0; at && depth < 64; depth++) {
      out.unshift(at);
      at = at.parent_id === null ? undefined : this.byId.get(at.parent_id);
    }
    return out;
  }
}

async function loadTree(db: DB): Promise<Tree> {
  return new Tree(await db.selectFrom('categories').selectAll().execute());
}

async function taxonomyById(db: DB, id: number): Promise<TaxonomyRow> {
  const row = await db.selectFrom('taxonomies').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('errors.taxonomy-not-found');
  return row;
}

export interface AdminTaxonomyRef {
  id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  active: boolean;
}
const taxonomyRef = (t: TaxonomyRow): AdminTaxonomyRef => ({
  id: t.id,
  slug: t.slug,
  name_ar: t.name_ar,
  name_en: t.name_en,
  active: toBool(t.active),
});

/** A taxonomy of the editor by id (its attributes page). */
export async function getAdminTaxonomy(db: DB, id: number): Promise<AdminTaxonomyRef> {
  return taxonomyRef(await taxonomyById(db, id));
}

export interface AdminCategoryPlace {
  taxonomy: AdminTaxonomyRef;
  /** Top-level category first, the category itself last; empty at the taxonomy's top. */
  trail: AdminCategory[];
  /** The path as it is now: the taxonomy's slug, then each category's of the trail. */
  canonical: string[];
}

/**
 * Where `/admin/categories/{taxonomy}/{category…}` points: its last slug names the category (an
 * old slug of one too: migration 0026), or, alone, the taxonomy. `canonical` differs from `slugs`
 * when the category was moved or renamed since the link was made.
 */
export async function findAdminCategoryPlace(db: DB, slugs: string[]): Promise<AdminCategoryPlace> {
  if (slugs.length === 0) throw new NotFound('errors.category-not-found');
  if (slugs.length === 1) {
    const t = await db
      .selectFrom('taxonomies')
      .selectAll()
      .where('slug', '=', slugs[0] as string)
      .executeTakeFirst();
    if (!t) throw new NotFound('errors.taxonomy-not-found');
    return { taxonomy: taxonomyRef(t), trail: [], canonical: [t.slug] };
  }
  const last = slugs[slugs.length - 1] as string;
  let row = await db.selectFrom('categories').selectAll().where('slug', '=', last).executeTakeFirst();
  if (!row) {
    const moved = await db
      .selectFrom('category_redirects')
      .select('category_id')
      .where('slug', '=', last)
      .executeTakeFirst();
    if (moved)
      row = await db.selectFrom('categories').selectAll().where('id', '=', moved.category_id).executeTakeFirst();
  }
  if (!row) throw new NotFound('errors.category-not-found');
  const tree = await loadTree(db);
  const taxonomy = taxonomyRef(await taxonomyById(db, row.taxonomy_id));
  const chain = tree.chain(row.id);
  const trail = chain.map((c) => toAdminCategory(c, tree.childrenOf(c.taxonomy_id, c.id).length));
  return { taxonomy, trail, canonical: [taxonomy.slug, ...chain.map((c) => c.slug)] };
}

/** The children of a taxonomy's top (parentId null) or of a category, active or not, in order. */
export async function listAdminChildren(db: DB, taxonomyId: number, parentId: number | null): Promise<AdminCategory[]> {
  const tree = await loadTree(db);
  return tree
    .childrenOf(taxonomyId, parentId)
    .map((c) => toAdminCategory(c, tree.childrenOf(c.taxonomy_id, c.id).length));
}

export interface MoveTarget {
  /** `t:<id>` (the top of a taxonomy) or `c:<id>` (under a category). */
  value: string;
  /** The names from the taxonomy down, for the list. */
  path: { name_ar: string; name_en: string }[];
}

/** Where a category may move: the top of any taxonomy, or under any category outside its own subtree. */
export async function listMoveTargets(db: DB, categoryId: number): Promise<MoveTarget[]> {
  const [tree, taxonomies] = await Promise.all([
    loadTree(db),
    db.selectFrom('taxonomies').selectAll().orderBy('position').orderBy('id').execute(),
  ]);
  const own = new Set(tree.subtree(categoryId));
  const out: MoveTarget[] = [];
  const names = (r: { name_ar: string; name_en: string }) => ({ name_ar: r.name_ar, name_en: r.name_en });
  for (const t of taxonomies) {
    out.push({ value: `t:${t.id}`, path: [names(t)] });
    const walk = (parentId: number | null, above: MoveTarget['path']) => {
      for (const c of tree.childrenOf(t.id, parentId)) {
        if (own.has(c.id)) continue;
        const path = [...above, names(c)];
        out.push({ value: `c:${c.id}`, path });
        walk(c.id, path);
      }
    };
    walk(null, [names(t)]);
  }
  return out;
}

export interface AdminAttribute {
  id: number;
  key: string;
  name_ar: string;
  name_en: string;
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
  /** Ads (not deleted) holding a value of it. */
  ads_with_values: number;
  /** By option value: the ads (not deleted) holding it. */
  option_ads: Record<string, number>;
}

export type AttributeOwner = { kind: 'taxonomy'; id: number } | { kind: 'category'; id: number };

const ownerColumn = (owner: AttributeOwner) => (owner.kind === 'taxonomy' ? 'taxonomy_id' : 'category_id');

/** An owner's own attributes in form order, each with how many ads use it and each of its options. */
export async function listOwnAttributes(db: DB, owner: AttributeOwner): Promise<AdminAttribute[]> {
  const rows = await db
    .selectFrom('attributes')
    .selectAll()
    .where(ownerColumn(owner), '=', owner.id)
    .orderBy('position')
    .orderBy('id')
    .execute();
  if (rows.length === 0) return [];
  const counts = await db
    .selectFrom('ad_attribute_values as v')
    .innerJoin('ads as a', 'a.id', 'v.ad_id')
    .where(
      'v.attribute_id',
      'in',
      rows.map((r) => r.id),
    )
    .where('a.status', '<>', 'deleted')
    .select(['v.attribute_id', 'v.value_option'])
    .select(sql<number>`count(distinct v.ad_id)`.as('n'))
    .groupBy(['v.attribute_id', 'v.value_option'])
    .execute();
  const totals = await db
    .selectFrom('ad_attribute_values as v')
    .innerJoin('ads as a', 'a.id', 'v.ad_id')
    .where(
      'v.attribute_id',
      'in',
      rows.map((r) => r.id),
    )
    .where('a.status', '<>', 'deleted')
    .select(['v.attribute_id'])
    .select(sql<number>`count(distinct v.ad_id)`.as('n'))
    .groupBy('v.attribute_id')
    .execute();
  const total = new Map(totals.map((r) => [r.attribute_id, toNumber(r.n)]));
  return rows.map((r) => {
    const optionAds: Record<string, number> = {};
    for (const c of counts) {
      if (c.attribute_id === r.id && c.value_option !== null) optionAds[c.value_option] = toNumber(c.n);
    }
    return { ...attributeFields(r), ads_with_values: total.get(r.id) ?? 0, option_ads: optionAds };
  });
}

export interface InheritedAttribute {
  key: string;
  name_ar: string;
  name_en: string;
  type: AttributeType;
  /** Where it is defined. */
  from: { name_ar: string; name_en: string };
}

/** The attributes a category's ads carry from above it: its taxonomy's and its ancestors'. */
export async function listInheritedAttributes(db: DB, categoryId: number): Promise<InheritedAttribute[]> {
  const tree = await loadTree(db);
  const chain = tree.chain(categoryId);
  const self = chain[chain.length - 1];
  if (!self) throw new NotFound('errors.category-not-found');
  const taxonomy = await taxonomyById(db, self.taxonomy_id);
  const above = chain.slice(0, -1);
  const rows = await db
    .selectFrom('attributes')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('taxonomy_id', '=', taxonomy.id),
        ...(above.length > 0
          ? [
              eb(
                'category_id',
                'in',
                above.map((c) => c.id),
              ),
            ]
          : []),
      ]),
    )
    .execute();
  const rank = (r: AttributeRow) => (r.taxonomy_id !== null ? -1 : above.findIndex((c) => c.id === r.category_id));
  rows.sort((a, b) => rank(a) - rank(b) || a.position - b.position || a.id - b.id);
  return rows.map((r) => {
    const from = r.taxonomy_id !== null ? taxonomy : (above.find((c) => c.id === r.category_id) as CategoryRow);
    return {
      key: r.key,
      name_ar: r.name_ar,
      name_en: r.name_en,
      type: r.type,
      from: { name_ar: from.name_ar, name_en: from.name_en },
    };
  });
}

// ───────────────────────── impacts ─────────────────────────

/** What a change would do to existing ads, counted now. `ads` is the figure the staff member confirms. */
export interface Impact {
  ads: number;
  /** Removed options in use, each with its ads. */
  options?: { value: string; ar: string; en: string; ads: number }[];
  /** Ads that lack a value of an attribute made required. */
  missing?: number;
}

/** A change's outcome: made, or held back until its impact is confirmed. */
export type Outcome<T = void> = { done: true; value: T } | { done: false; impact: Impact };

const held = (impact: Impact): Outcome<never> => ({ done: false, impact });

/** Whether the impact needs a confirmation the caller did not give with the same figure. */
const unconfirmed = (impact: Impact, confirmed: number | null | undefined) =>
  impact.ads > 0 && confirmed !== impact.ads;

const NOT_DELETED = 'deleted';

/** Ads (any status but deleted) filed in these categories. */
async function adsIn(db: DB, categoryIds: number[], publishedOnly = false): Promise<number> {
  if (categoryIds.length === 0) return 0;
  let q = db
    .selectFrom('ads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('category_id', 'in', categoryIds);
  q = publishedOnly ? q.where('status', '=', 'published') : q.where('status', '<>', NOT_DELETED);
  return toNumber((await q.executeTakeFirstOrThrow()).n);
}

/** The ads moving a category touches: every ad (not deleted) filed in it or below. */
export async function moveImpact(db: DB, categoryId: number): Promise<Impact> {
  const tree = await loadTree(db);
  if (!tree.byId.has(categoryId)) throw new NotFound('errors.category-not-found');
  return { ads: await adsIn(db, tree.subtree(categoryId)) };
}

/** The ads switching a category off hides: its published ads and those below it. */
export async function deactivationImpact(db: DB, categoryId: number): Promise<Impact> {
  const tree = await loadTree(db);
  if (!tree.byId.has(categoryId)) throw new NotFound('errors.category-not-found');
  return { ads: await adsIn(db, tree.subtree(categoryId), true) };
}

/** The ads (not deleted) an attribute's owner gives it to: its taxonomy's, or its category's subtree's. */
async function scopeFilter(db: DB, owner: AttributeOwner): Promise<{ taxonomyId: number } | { categoryIds: number[] }> {
  if (owner.kind === 'taxonomy') return { taxonomyId: owner.id };
  return { categoryIds: (await loadTree(db)).subtree(owner.id) };
}

/** Ads (not deleted) in the owner's scope without a value of the attribute. */
async function adsMissing(db: DB, owner: AttributeOwner, attributeId: number): Promise<number> {
  const scope = await scopeFilter(db, owner);
  let q = db
    .selectFrom('ads as a')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('a.status', '<>', NOT_DELETED)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('ad_attribute_values as v')
            .select('v.id')
            .whereRef('v.ad_id', '=', 'a.id')
            .where('v.attribute_id', '=', attributeId),
        ),
      ),
    );
  q =
    'taxonomyId' in scope
      ? q.where('a.taxonomy_id', '=', scope.taxonomyId)
      : q.where('a.category_id', 'in', scope.categoryIds);
  return toNumber((await q.executeTakeFirstOrThrow()).n);
}

/** Ads (not deleted) holding each of these options of the attribute. */
async function optionUse(db: DB, attributeId: number, values: string[]): Promise<Map<string, number>> {
  if (values.length === 0) return new Map();
  const rows = await db
    .selectFrom('ad_attribute_values as v')
    .innerJoin('ads as a', 'a.id', 'v.ad_id')
    .select(['v.value_option'])
    .select(sql<number>`count(distinct v.ad_id)`.as('n'))
    .where('v.attribute_id', '=', attributeId)
    .where('v.value_option', 'in', values)
    .where('a.status', '<>', NOT_DELETED)
    .groupBy('v.value_option')
    .execute();
  return new Map(rows.map((r) => [r.value_option as string, toNumber(r.n)]));
}

// ───────────────────────── categories ─────────────────────────

export interface CategoryFields {
  slug: string;
  name_ar: string;
  name_en: string;
  icon?: string | undefined;
}

/** A slug no other category has now (its own old slugs are fine). */
async function assertFreeSlug(db: DB, slug: string, self: number | null): Promise<void> {
  const taken = await db.selectFrom('categories').select('id').where('slug', '=', slug).executeTakeFirst();
  if (taken && taken.id !== self) throw new Invalid({ slug: ['slug-taken'] });
}

const now = () => new Date();

/** Adds a category at the end of its siblings: at the top of the taxonomy, or under `parentId`. */
export async function createCategory(
  handle: DatabaseHandle,
  actor: Actor,
  place: { taxonomyId: number; parentId: number | null },
  fields: CategoryFields,
): Promise<AdminCategory> {
  return withTransaction(handle.db, async (tx, hooks) => {
    const taxonomy = await taxonomyById(tx, place.taxonomyId);
    const tree = await loadTree(tx);
    let depth = 0;
    if (place.parentId !== null) {
      const parent = tree.byId.get(place.parentId);
      if (!parent || parent.taxonomy_id !== taxonomy.id) throw new NotFound('errors.category-not-found');
      depth = parent.depth + 1;
    }
    await assertFreeSlug(tx, fields.slug, null);
    const siblings = tree.childrenOf(taxonomy.id, place.parentId);
    const position = siblings.reduce((m, c) => Math.max(m, c.position + 1), 0);
    const row = await tx
      .insertInto('categories')
      .values({
        taxonomy_id: taxonomy.id,
        parent_id: place.parentId,
        slug: fields.slug,
        name_ar: fields.name_ar,
        name_en: fields.name_en,
        icon: fields.icon ?? null,
        position,
        depth,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // A live category answers its slug now, not an old redirect.
    await tx.deleteFrom('category_redirects').where('slug', '=', fields.slug).execute();
    await recordRevision(
      tx,
      actor,
      { type: 'category', id: row.id },
      'create',
      changedFields(null, {
        taxonomy_id: taxonomy.id,
        parent_id: place.parentId,
        slug: row.slug,
        name_ar: row.name_ar,
        name_en: row.name_en,
        icon: row.icon,
        position,
      }),
    );
    await followCatalogueEdit(handle, tx, hooks, { savedSearches: true });
    return toAdminCategory(row, 0);
  });
}

async function categoryRow(db: DB, id: number): Promise<CategoryRow> {
  const row = await db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('errors.category-not-found');
  return row;
}

/**
 * Renames a category (names, slug, icon). A new slug keeps the old one as a redirect; the ads below
 * it are found by its new names at once (search reads them from the catalogue: no ad changes).
 */
export async function updateCategory(
  handle: DatabaseHandle,
  actor: Actor,
  id: number,
  fields: CategoryFields,
): Promise<AdminCategory> {
  return withTransaction(handle.db, async (tx, hooks) => {
    const before = await categoryRow(tx, id);
    const after = { slug: fields.slug, name_ar: fields.name_ar, name_en: fields.name_en, icon: fields.icon ?? null };
    const changes = changedFields(
      { slug: before.slug, name_ar: before.name_ar, name_en: before.name_en, icon: before.icon },
      after,
    );
    if (Object.keys(changes).length === 0) {
      return toAdminCategory(before, (await loadTree(tx)).childrenOf(before.taxonomy_id, id).length);
    }
    if (changes.slug) {
      await assertFreeSlug(tx, fields.slug, id);
      await tx.deleteFrom('category_redirects').where('slug', '=', fields.slug).execute();
      await tx
        .insertInto('category_redirects')
        .values({ slug: before.slug, category_id: id })
        .onConflict((oc) => oc.column('slug').doUpdateSet({ category_id: id }))
        .execute();
    }
    const row = await tx
      .updateTable('categories')
      .set({ ...after, updated_at: now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const tree = await loadTree(tx);
    await recordRevision(tx, actor, { type: 'category', id }, 'update', changes);
    await followCatalogueEdit(handle, tx, hooks, { savedSearches: !!changes.slug });
    return toAdminCategory(row, tree.childrenOf(row.taxonomy_id, id).length);
  });
}

/**
 * The attribute keys an ad anywhere in `subtree` would carry twice if the subtree sat under
 * `parentId` of `taxonomyId`: keys of the subtree's own attributes also defined by the new taxonomy
 * or a new ancestor.
 */
async function keyClashes(tx: DB, tree: Tree, subtree: number[], taxonomyId: number, parentId: number | null) {
  const above = parentId === null ? [] : tree.chain(parentId).map((c) => c.id);
  const [inside, outside] = await Promise.all([
    tx.selectFrom('attributes').select('key').where('category_id', 'in', subtree).execute(),
    tx
      .selectFrom('attributes')
      .select('key')
      .where((eb) =>
        eb.or([eb('taxonomy_id', '=', taxonomyId), ...(above.length > 0 ? [eb('category_id', 'in', above)] : [])]),
      )
      .execute(),
  ]);
  const keys = new Set(outside.map((r) => r.key));
  return [...new Set(inside.map((r) => r.key).filter((k) => keys.has(k)))];
}

/**
 * Moves a category (with everything below it) to the top of a taxonomy or under another category,
 * last among its new siblings. Its ads keep their category; when the taxonomy changes, their
 * taxonomy changes with it (their URLs `/{taxonomy}/{category}/…` too: the old ones answer 301,
 * app/routes/ads/ad-page.tsx) and the category counts of both taxonomies are made again.
 */
export async function moveCategory(
  handle: DatabaseHandle,
  actor: Actor,
  id: number,
  target: { taxonomyId: number | null; parentId: number | null },
  confirmed: number | null | undefined,
): Promise<Outcome<AdminCategory>> {
  return withTransaction(handle.db, async (tx, hooks) => {
    const tree = await loadTree(tx);
    const before = tree.byId.get(id);
    if (!before) throw new NotFound('errors.category-not-found');
    let taxonomyId: number;
    let parentId: number | null;
    let depth = 0;
    if (target.parentId !== null) {
      const parent = tree.byId.get(target.parentId);
      if (!parent) throw new Invalid({ target: ['in'] });
      const subtree = new Set(tree.subtree(id));
      if (subtree.has(parent.id)) throw new Invalid({ target: ['move-into-itself'] });
      taxonomyId = parent.taxonomy_id;
      parentId = parent.id;
      depth = parent.depth + 1;
    } else {
      const t = await tx
        .selectFrom('taxonomies')
        .select('id')
        .where('id', '=', target.taxonomyId ?? 0)
        .executeTakeFirst();
      if (!t) throw new Invalid({ target: ['in'] });
      taxonomyId = t.id;
      parentId = null;
    }
    if (taxonomyId === before.taxonomy_id && parentId === before.parent_id) {
      return { done: true, value: toAdminCategory(before, tree.childrenOf(taxonomyId, id).length) };
    }
    const subtree = tree.subtree(id);
    const clashes = await keyClashes(tx, tree, subtree, taxonomyId, parentId);
    if (clashes.length > 0) throw new Invalid({ target: [`key-clash:${clashes.join(', ')}`] });
    const impact: Impact = { ads: await adsIn(tx, subtree) };
    if (unconfirmed(impact, confirmed)) return held(impact);

    const siblings = tree.childrenOf(taxonomyId, parentId);
    const position = siblings.reduce((m, c) => Math.max(m, c.position + 1), 0);
    const at = now();
    await tx
      .updateTable('categories')
      .set({ parent_id: parentId, taxonomy_id: taxonomyId, position, depth, updated_at: at })
      .where('id', '=', id)
      .execute();
    // Everything below keeps its place under it: depth shifts, the taxonomy follows.
    const shift = depth - before.depth;
    const below = subtree.filter((c) => c !== id);
    if (below.length > 0) {
      await tx
        .updateTable('categories')
        .set((eb) => ({ taxonomy_id: taxonomyId, depth: eb('depth', '+', shift), updated_at: at }))
        .where('id', 'in', below)
        .execute();
    }
    const taxonomyChanged = taxonomyId !== before.taxonomy_id;
    if (taxonomyChanged) {
      // Their addresses changed: dated now for the sitemap. Search scopes ads by their category's
      // place in the catalogue, which every process reads again, and finds them by its names
      // through their category's key (server/domain/search/catalogue-keys.ts): no text row changes.
      await withLargeCache(tx, handle.dialect, () =>
        tx
          .updateTable('ads')
          .set({ taxonomy_id: taxonomyId, updated_at: at })
          .where('category_id', 'in', subtree)
          .execute(),
      );
      await recountTaxonomy(tx, before.taxonomy_id);
      await recountTaxonomy(tx, taxonomyId);
    } else {
      await recountTaxonomy(tx, taxonomyId);
    }
    await recordRevision(tx, actor, { type: 'category', id }, 'move', {
      taxonomy_id: [before.taxonomy_id, taxonomyId],
      parent_id: [before.parent_id, parentId],
      ads: [impact.ads, impact.ads],
    });
    await followCatalogueEdit(handle, tx, hooks, { savedSearches: true });
    const row = await categoryRow(tx, id);
    return { done: true, value: toAdminCategory(row, tree.childrenOf(before.taxonomy_id, id).length) };
  });
}

/** Numbers the siblings 0, 1, 2… in the given order (only those whose position changes are written). */
async function renumber(tx: DB, order: CategoryRow[]): Promise<Record<string, [unknown, unknown]>> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [position, c] of order.entries()) {
    if (c.position === position) continue;
    await tx.updateTable('categories').set({ position, updated_at: now() }).where('id', '=', c.id).execute();
    changes[`position:${c.id}`] = [c.position, position];
  }
  return changes;
}

/** One step up or down among its siblings (the keyboard's way to reorder). */
export async function stepCategory(
  handle: DatabaseHandle,
  actor: Actor,
  id: number,
  direction: 'up' | 'down',
): Promise<void> {
  await withTransaction(handle.db, async (tx, hooks) => {
    const tree = await loadTree(tx);
    const self = tree.byId.get(id);
    if (!self) throw new NotFound('errors.category-not-found');
    const order = [...tree.childrenOf(self.taxonomy_id, self.parent_id)];
    const i = order.findIndex((c) => c.id === id);
    const j = direction === 'up' ? i - 1 : i + 1;
    if (j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j] as CategoryRow, order[i] as CategoryRow];
    const changes = await renumber(tx, order);
    if (Object.keys(changes).length === 0) return;
    await recordRevision(tx, actor, { type: 'category', id }, 'reorder', changes);
    await followCatalogueEdit(handle, tx, hooks);
  });
}

/**
 * The children of a taxonomy's top or of a category in the given order (drag and drop). The list
 * must hold exactly the current children: a list made before a child was added or moved is refused.
 */
export async function orderChildren(
  handle: DatabaseHandle,
  actor: Actor,
  place: { taxonomyId: number; parentId: number | null },
  ids: number[],
): Promise<void> {
  await withTransaction(handle.db, async (tx, hooks) => {
    const tree = await loadTree(tx);
    const current = tree.childrenOf(place.taxonomyId, place.parentId);
    const same = current.length === ids.length && ids.every((i) => current.some((c) => c.id === i));
    if (!same) throw new Invalid({ form: ['order-stale'] });
    const order = ids.map((i) => tree.byId.get(i) as CategoryRow);
    const changes = await renumber(tx, order);
    if (Object.keys(changes).length === 0) return;
    const subject =
      place.parentId === null ? { type: 'taxonomy', id: place.taxonomyId } : { type: 'category', id: place.parentId };
    await recordRevision(tx, actor, subject, 'reorder-children', changes);
    await followCatalogueEdit(handle, tx, hooks);
  });
}

/**
 * Switches a category on or off. Off hides it, everything below it and their ads from the site
 * (search, its pages, the sitemap); the ads themselves stay as they are and come back when it is
 * switched on again.
 */
export async function setCategoryActive(
  handle: DatabaseHandle,
  actor: Actor,
  id: number,
  active: boolean,
  confirmed: number | null | undefined,
): Promise<Outcome> {
  return withTransaction(handle.db, async (tx, hooks) => {
    const before = await categoryRow(tx, id);
    if (toBool(before.active) === active) return { done: true, value: undefined };
    if (!active) {
      const tree = await loadTree(tx);
      const impact: Impact = { ads: await adsIn(tx, tree.subtree(id), true) };
      if (unconfirmed(impact, confirmed)) return held(impact);
    }
    await tx.updateTable('categories').set({ active, updated_at: now() }).where('id', '=', id).execute();
    await recordRevision(tx, actor, { type: 'category', id }, active ? 'activate' : 'deactivate', {
      active: [!active, active],
    });
    await followCatalogueEdit(handle, tx, hooks, { savedSearches: true });
    return { done: true, value: undefined };
  });
}

// ───────────────────────── attributes ─────────────────────────

export interface AttributeFields {
  key: string;
  type: AttributeType;
  name_ar: string;
  name_en: string;
  options: AttributeOption[];
  unit_ar: string | null;
  unit_en: string | null;
  required: boolean;
  filterable: boolean;
  shown_on_card: boolean;
  min: number | null;
  max: number | null;
}

/**
 * Keys an ad in the owner's scope carries besides the owner's own: for a taxonomy, those of all its
 * categories; for a category, its taxonomy's, its ancestors' and its descendants'.
 */
async function keysAround(tx: DB, owner: AttributeOwner): Promise<Set<string>> {
  let rows: { key: string }[];
  if (owner.kind === 'taxonomy') {
    rows = await tx
      .selectFrom('attributes as a')
      .innerJoin('categories as c', 'c.id', 'a.category_id')
      .select('a.key')
      .where('c.taxonomy_id', '=', owner.id)
      .execute();
  } else {
    const tree = await loadTree(tx);
    const self = tree.byId.get(owner.id);
    if (!self) throw new NotFound('errors.category-not-found');
    const others = [...tree.chain(owner.id).map((c) => c.id), ...tree.subtree(owner.id)].filter((c) => c !== owner.id);
    rows = await tx
      .selectFrom('attributes')
      .select('key')
      .where((eb) =>
        eb.or([
          eb('taxonomy_id', '=', self.taxonomy_id),
          ...(others.length > 0 ? [eb('category_id', 'in', others)] : []),
        ]),
      )
      .execute();
  }
  return new Set(rows.map((r) => r.key));
}

async function assertOwner(tx: DB, owner: AttributeOwner): Promise<void> {
  if (owner.kind === 'taxonomy') await taxonomyById(tx, owner.id);
  else await categoryRow(tx, owner.id);
}

const attributeValues = (f: AttributeFields) => ({
  name_ar: f.name_ar,
  name_en: f.name_en,
  options: hasOptions(f.type) ? JSON.stringify(f.options) : null,
  unit_ar: f.type === 'number' ? f.unit_ar : null,
  unit_en: f.type === 'number' ? f.unit_en : null,
  required: f.required,
  filterable: f.filterable,
  shown_on_card: f.shown_on_card,
  min: hasRange(f.type) ? f.min : null,
  max: hasRange(f.type) ? f.max : null,
});

/** Adds an attribute, last in its owner's form. Its key must be free along every chain it joins. */
export async function createAttribute(
  handle: DatabaseHandle,
  actor: Actor,
  owner: AttributeOwner,
  fields: AttributeFields,
): Promise<number> {
  return withTransaction(handle.db, async (tx, hooks) => {
    await assertOwner(tx, owner);
    const own = await tx
      .selectFrom('attributes')
      .select(['key', 'position'])
      .where(ownerColumn(owner), '=', owner.id)
      .execute();
    if (own.some((a) => a.key === fields.key) || (await keysAround(tx, owner)).has(fields.key)) {
      throw new Invalid({ key: ['key-taken'] });
    }
    const position = own.reduce((m, a) => Math.max(m, a.position + 1), 0);
    const values = attributeValues(fields);
    const row = await tx
      .insertInto('attributes')
      .values({
        taxonomy_id: owner.kind === 'taxonomy' ? owner.id : null,
        category_id: owner.kind === 'category' ? owner.id : null,
        key: fields.key,
        type: fields.type,
        position,
        ...values,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordRevision(
      tx,
      actor,
      { type: 'attribute', id: row.id },
      'create',
      changedFields(null, { [ownerColumn(owner)]: owner.id, ...fields, position }),
    );
    await followCatalogueEdit(handle, tx, hooks);
    return row.id;
  });
}

async function attributeOf(tx: DB, owner: AttributeOwner, id: number): Promise<AttributeRow> {
  const row = await tx
    .selectFrom('attributes')
    .selectAll()
    .where('id', '=', id)
    .where(ownerColumn(owner), '=', owner.id)
    .executeTakeFirst();
  if (!row) throw new NotFound('errors.not-found');
  return row;
}

/**
 * Saves an attribute's names, options, unit, flags and range (its key and type stay as created:
 * saved searches and ads' values name them). Options removed while ads hold them, or `required`
 * switched on while ads lack a value, need the figure confirmed; the removed options' values are
 * then deleted from those ads.
 */
export async function updateAttribute(
  handle: DatabaseHandle,
  actor: Actor,
  owner: AttributeOwner,
  id: number,
  fields: Omit<AttributeFields, 'key' | 'type'>,
  confirmed: number | null | undefined,
): Promise<Outcome> {
  return withTransaction(handle.db, async (tx, hooks) => {
    const row = await attributeOf(tx, owner, id);
    const before = attributeFields(row);
    const next: AttributeFields = { ...fields, key: row.key, type: row.type };
    if (!hasOptions(row.type)) next.options = [];
    if (hasOptions(row.type) && next.options.length === 0) throw new Invalid({ options: ['option-needed'] });
    const kept = new Set(next.options.map((o) => o.value));
    const removed = before.options.filter((o) => !kept.has(o.value));
    const use = await optionUse(
      tx,
      id,
      removed.map((o) => o.value),
    );
    const options = removed
      .filter((o) => (use.get(o.value) ?? 0) > 0)
      .map((o) => ({ value: o.value, ar: o.ar, en: o.en, ads: use.get(o.value) ?? 0 }));
    const missing = next.required && !before.required ? await adsMissing(tx, owner, id) : 0;
    const optionAds =
      options.length > 0
        ? toNumber(
            (
              await tx
                .selectFrom('ad_attribute_values as v')
                .innerJoin('ads as a', 'a.id', 'v.ad_id')
                .select(sql<number>`count(distinct v.ad_id)`.as('n'))
                .where('v.attribute_id', '=', id)
                .where(
                  'v.value_option',
                  'in',
                  options.map((o) => o.value),
                )
                .where('a.status', '<>', NOT_DELETED)
                .executeTakeFirstOrThrow()
            ).n,
          )
        : 0;
    const impact: Impact = { ads: optionAds + missing, options, missing };
    if (unconfirmed(impact, confirmed)) return held(impact);

    const values = attributeValues(next);
    const changes = changedFields(
      { ...before, options: hasOptions(row.type) ? before.options : null } as Record<string, unknown>,
      { ...values, options: hasOptions(row.type) ? next.options : null } as Record<string, unknown>,
    );
    if (Object.keys(changes).length === 0) return { done: true, value: undefined };
    await tx.updateTable('attributes').set(values).where('id', '=', id).execute();
    // Ads whose option words change: those holding a removed option (the value goes) or a relabelled one.
    const labels = (o: AttributeOption) => `${o.ar}\u0000${o.en}`;
    const was = new Map(before.options.map((o) => [o.value, labels(o)]));
    const relabelled = next.options
      .filter((o) => was.has(o.value) && was.get(o.value) !== labels(o))
      .map((o) => o.value);
    if (removed.length > 0) {
      // The ads losing a value: their values go now, and their words with them.
      const gone = removed.map((o) => o.value);
      const losing = [
        ...new Set(
          (
            await tx
              .selectFrom('ad_attribute_values')
              .select('ad_id')
              .where('attribute_id', '=', id)
              .where('value_option', 'in', gone)
              .execute()
          ).map((a) => a.ad_id),
        ),
      ];
      await tx
        .deleteFrom('ad_attribute_values')
        .where('attribute_id', '=', id)
        .where('value_option', 'in', gone)
        .execute();
      if (losing.length > 0) {
        await touchAds(tx, losing);
        await rewriteAdTerms(tx, { adIds: losing });
      }
    }
    await enqueueTermsRewrite(tx, { attributeId: id, values: relabelled });
    await recordRevision(tx, actor, { type: 'attribute', id }, 'update', {
      ...changes,
      ...(impact.ads > 0 ? { ads: [impact.ads, impact.ads] } : {}),
    });
    await followCatalogueEdit(handle, tx, hooks);
    return { done: true, value: undefined };
  });
}

/** Marks ads as written now (their values changed): the search index of every process re-reads them. */
async function touchAds(tx: DB, ids: number[]): Promise<void> {
  const at = now();
  for (let i = 0; i < ids.length; i += 1000) {
    await tx
      .updateTable('ads')
      .set({ updated_at: at })
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute();
  }
}

/** Deletes an attribute with every ad's value of it (the figure of ads holding one confirmed). */
export async function deleteAttribute(
  handle: DatabaseHandle,
  actor: Actor,
  owner: AttributeOwner,
  id: number,
  confirmed: number | null | undefined,
): Promise<Outcome> {
  return withTransaction(handle.db, async (tx, hooks) => {
    const row = await attributeOf(tx, owner, id);
    const holders = await tx
      .selectFrom('ad_attribute_values as v')
      .innerJoin('ads as a', 'a.id', 'v.ad_id')
      .select('v.ad_id')
      .distinct()
      .where('v.attribute_id', '=', id)
      .execute();
    const ads = toNumber(
      (
        await tx
          .selectFrom('ad_attribute_values as v')
          .innerJoin('ads as a', 'a.id', 'v.ad_id')
          .select(sql<number>`count(distinct v.ad_id)`.as('n'))
          .where('v.attribute_id', '=', id)
          .where('a.status', '<>', NOT_DELETED)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const impact: Impact = { ads };
    if (unconfirmed(impact, confirmed)) return held(impact);
    await tx.deleteFrom('attributes').where('id', '=', id).execute();
    const adIds = holders.map((h) => h.ad_id);
    if (adIds.length > 0) {
      await touchAds(tx, adIds);
      if (hasOptions(row.type)) await rewriteAdTerms(tx, { adIds });
    }
    await recordRevision(tx, actor, { type: 'attribute', id }, 'delete', {
      key: [row.key, null],
      ...(ads > 0 ? { ads: [ads, ads] } : {}),
    });
    await followCatalogueEdit(handle, tx, hooks);
    return { done: true, value: undefined };
  });
}

/** One step up or down in its owner's form. */
export async function stepAttribute(
  handle: DatabaseHandle,
  actor: Actor,
  owner: AttributeOwner,
  id: number,
  direction: 'up' | 'down',
): Promise<void> {
  await withTransaction(handle.db, async (tx, hooks) => {
    await attributeOf(tx, owner, id);
    const order = await tx
      .selectFrom('attributes')
      .select(['id', 'position'])
      .where(ownerColumn(owner), '=', owner.id)
      .orderBy('position')
      .orderBy('id')
      .execute();
    const i = order.findIndex((a) => a.id === id);
    const j = direction === 'up' ? i - 1 : i + 1;
    if (j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j] as (typeof order)[number], order[i] as (typeof order)[number]];
    const changes: Record<string, [unknown, unknown]> = {};
    for (const [position, a] of order.entries()) {
      if (a.position === position) continue;
      await tx.updateTable('attributes').set({ position }).where('id', '=', a.id).execute();
      changes[`position:${a.id}`] = [a.position, position];
    }
    await recordRevision(tx, actor, { type: 'attribute', id }, 'reorder', changes);
    await followCatalogueEdit(handle, tx, hooks);
  });
}

/** The category a slug names now, an old slug included (migration 0026); null when none. */
export async function categoryForOldSlug(db: DB, slug: string): Promise<{ slug: string; taxonomy: string } | null> {
  const row = await db
    .selectFrom('category_redirects as r')
    .innerJoin('categories as c', 'c.id', 'r.category_id')
    .innerJoin('taxonomies as t', 't.id', 'c.taxonomy_id')
    .select(['c.slug', 't.slug as taxonomy'])
    .where('r.slug', '=', slug)
    .executeTakeFirst();
  return row ?? null;
}
