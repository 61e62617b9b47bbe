// What the sitemap lists (docs/product/site.md, "Sitemap"): the public pages, the active
// taxonomies and categories, and the published ads in fixed id ranges. Paths are bare (Arabic, no
// locale prefix, not yet percent-encoded); server/http/sitemap.ts turns them into XML.
import { sql } from 'kysely';
import type { DB } from '../db/index.ts';
import { toIso } from '../db/values.ts';
import { publicOwner } from './ads/visibility.ts';
import { INFO_PAGES } from './pages.ts';

/**
 * Ad ids per ad sitemap: chunk n holds the published ads with `floor(id / ADS_PER_SITEMAP) = n - 1`.
 * Fixed id ranges keep a chunk's address stable whatever is published or deleted elsewhere, and
 * 10,000 (not the protocol's 50,000) keeps a chunk under the 50 MB limit even when every ad has
 * an 80-letter Arabic slug (about 2.6 kB of XML per ad once percent-encoded, with its alternates).
 * The `ads_sitemap` index (migration 0011) is built on this number: change both together.
 */
export const ADS_PER_SITEMAP = 10_000;

/** Ads read per query while a chunk is written. */
export const SITEMAP_BATCH = 2_000;

/** The largest ad id (`integer` columns). */
const MAX_AD_ID = 2_147_483_647;

export interface SitemapEntry {
  /** The page's path without locale prefix, e.g. `/motors/toyota`. */
  path: string;
  /** ISO 8601 timestamp of the last change. */
  lastmod: string;
}

export interface AdChunk {
  /** From 1: the chunk of ids `[(n - 1) · span, n · span)`. */
  n: number;
  lastmod: string;
}

const iso = (v: unknown) => (v === null || v === undefined ? null : toIso(v));
const latest = (...dates: (string | null | undefined)[]) =>
  dates.reduce<string | null>((a, b) => (b && (!a || b > a) ? b : a), null);

/** The latest last change of some entries (the epoch for none). */
export const newestOf = (entries: SitemapEntry[]) =>
  latest(...entries.map((e) => e.lastmod)) ?? new Date(0).toISOString();

/** The public pages that are not listings: their text ships with the build, so the build time dates them. */
export function staticEntries(buildTime: string, newestAd: string | null): SitemapEntry[] {
  const built = toIso(buildTime);
  return [
    // The home page and the listing of every ad show the newest ads first.
    { path: '/', lastmod: latest(newestAd, built) as string },
    { path: '/posts', lastmod: latest(newestAd, built) as string },
    ...INFO_PAGES.map((page) => ({ path: `/${page}`, lastmod: built })),
    { path: '/contact', lastmod: built },
  ];
}

interface CatalogCategory {
  id: number;
  parent_id: number | null;
  taxonomy_id: number;
  slug: string;
  taxonomy_slug: string;
  updated_at: string;
  newest_ad: string | null;
}

/**
 * Active categories of active taxonomies: the categories whose pages answer. Each with the newest
 * bump of a published ad placed directly in it (one `ads_category_listing` index probe per category).
 */
async function catalogCategories(db: DB): Promise<CatalogCategory[]> {
  const rows = await db
    .selectFrom('categories as c')
    .innerJoin('taxonomies as t', 't.id', 'c.taxonomy_id')
    .where('c.active', '=', true)
    .where('t.active', '=', true)
    .select(['c.id', 'c.parent_id', 'c.taxonomy_id', 'c.slug', 't.slug as taxonomy_slug', 'c.updated_at'])
    .select(
      sql<unknown>`(select max(a.bumped_at) from ads a where a.category_id = c.id and a.status = 'published')`.as(
        'newest_ad',
      ),
    )
    .orderBy('t.position')
    .orderBy('t.id')
    .orderBy('c.depth')
    .orderBy('c.position')
    .orderBy('c.id')
    .execute();
  return rows.map((r) => ({ ...r, updated_at: toIso(r.updated_at), newest_ad: iso(r.newest_ad) }));
}

export interface CatalogSitemap {
  entries: SitemapEntry[];
  /** The newest bump of a published ad in any of these categories: when the home page last changed. */
  newestAd: string | null;
}

/**
 * Taxonomy and category pages (`/{taxonomy}`, `/{taxonomy}/{category}`), dated by their own last
 * edit or the newest ad bumped anywhere below them, whichever is later.
 */
export async function catalogSitemap(db: DB): Promise<CatalogSitemap> {
  const [taxonomies, categories] = await Promise.all([
    db
      .selectFrom('taxonomies')
      .select(['id', 'slug', 'updated_at'])
      .where('active', '=', true)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    catalogCategories(db),
  ]);
  // A category page lists the ads of its whole subtree: carry each newest ad up to the ancestors.
  const newest = new Map(categories.map((c) => [c.id, c.newest_ad]));
  const parent = new Map(categories.map((c) => [c.id, c.parent_id]));
  for (const c of categories) {
    for (let up = c.parent_id; up !== null; up = parent.get(up) ?? null) {
      if (newest.has(up)) newest.set(up, latest(newest.get(up), c.newest_ad));
    }
  }
  const entries: SitemapEntry[] = [];
  for (const t of taxonomies) {
    const below = categories.filter((c) => c.taxonomy_id === t.id);
    entries.push({
      path: `/${t.slug}`,
      lastmod: latest(toIso(t.updated_at), ...below.map((c) => c.newest_ad)) as string,
    });
    for (const c of below) {
      entries.push({ path: `/${t.slug}/${c.slug}`, lastmod: latest(c.updated_at, newest.get(c.id)) as string });
    }
  }
  return { entries, newestAd: latest(...categories.map((c) => c.newest_ad)) };
}

/**
 * Company pages (`/companies/{slug}`, docs/product/companies.md), dated by their own last edit or
 * the newest bump of their published ads, whichever is later (one `ads_company_listing` probe each).
 */
export async function companyEntries(db: DB): Promise<SitemapEntry[]> {
  const rows = await db
    .selectFrom('companies as c')
    .select(['c.slug', 'c.updated_at'])
    .select(
      sql<unknown>`(select max(a.bumped_at) from ads a where a.company_id = c.id and a.status = 'published')`.as(
        'newest_ad',
      ),
    )
    .orderBy('c.id')
    .execute();
  return rows.map((r) => ({
    path: `/companies/${r.slug}`,
    lastmod: latest(toIso(r.updated_at), iso(r.newest_ad)) as string,
  }));
}

/**
 * The ad chunks holding at least one published ad, with the last edit of any of them (every write
 * that bumps an ad also sets its `updated_at`, so no ad of the chunk is dated later). One index
 * probe per chunk (`ads_sitemap`: published ads by `id / span`, then `updated_at`), never a pass over
 * the ads: about 100 probes at a million ads.
 */
export async function adChunks(db: DB, span = ADS_PER_SITEMAP): Promise<AdChunk[]> {
  const top = await db
    .selectFrom('ads')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  if (top?.id === null || top?.id === undefined) return [];
  const last = Math.floor(Number(top.id) / span);
  // The expression is written as the index has it (`id / 10000`, a literal), so both planners use it.
  const chunk = sql`id / ${sql.lit(span)}`;
  const { rows } = await sql<{ k: number | string; lastmod: unknown }>`
    with recursive ks(k) as (select 0 union all select k + 1 from ks where k < ${sql.lit(last)})
    select k, (select max(updated_at) from ads where status = 'published' and ${chunk} = ks.k) as lastmod
    from ks`.execute(db);
  return rows
    .filter((r) => r.lastmod !== null && r.lastmod !== undefined)
    .map((r) => ({ n: Number(r.k) + 1, lastmod: toIso(r.lastmod) }));
}

export interface AdPaths {
  /** Category id → `/{taxonomy}/{category}` of the categories whose ad pages answer. */
  categories: Map<number, string>;
}

/** The path prefixes of ad pages, read once per sitemap. */
export async function adPathPrefixes(db: DB): Promise<AdPaths> {
  const rows = await db
    .selectFrom('categories as c')
    .innerJoin('taxonomies as t', 't.id', 'c.taxonomy_id')
    .where('c.active', '=', true)
    .where('t.active', '=', true)
    .select(['c.id', 'c.slug', 't.slug as taxonomy_slug'])
    .execute();
  return { categories: new Map(rows.map((r) => [r.id, `/${r.taxonomy_slug}/${r.slug}`])) };
}

/**
 * The published ads of chunk `n` in id order, `batch` at a time (keyset over the primary key):
 * `/{taxonomy}/{category}/{slug}-{id}`, dated by the later of their last edit and last bump. Ads in a
 * category or taxonomy that is no longer active have no page and are left out.
 */
export async function* adEntries(
  db: DB,
  n: number,
  opts: { span?: number; batch?: number; paths?: AdPaths } = {},
): AsyncGenerator<SitemapEntry[]> {
  const span = opts.span ?? ADS_PER_SITEMAP;
  const batch = opts.batch ?? SITEMAP_BATCH;
  // Ids are 32-bit integers on PostgreSQL: a bound past the largest would be refused, not matched.
  const last = Math.min(n * span - 1, MAX_AD_ID);
  let after = (n - 1) * span - 1;
  if (after >= last) return;
  const { categories } = opts.paths ?? (await adPathPrefixes(db));
  for (;;) {
    const rows = await db
      .selectFrom('ads')
      .select(['id', 'slug', 'category_id', 'updated_at', 'bumped_at'])
      .where('id', '>', after)
      .where('id', '<=', last)
      .where('status', '=', 'published')
      .where(publicOwner('ads.user_id'))
      .orderBy('id')
      .limit(batch)
      .execute();
    const entries: SitemapEntry[] = [];
    for (const r of rows) {
      const prefix = categories.get(r.category_id);
      if (!prefix) continue;
      entries.push({
        path: `${prefix}/${r.slug}-${r.id}`,
        lastmod: latest(toIso(r.updated_at), iso(r.bumped_at)) as string,
      });
    }
    if (entries.length) yield entries;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].id;
  }
}
