// A banned member's ads are hidden from every public place while the ban lasts, whatever their
// status (docs/product/back-office.md, "Banning a member"): nothing about the ads changes, so
// lifting the ban shows them again exactly as they were. Every public read of ads adds this
// condition: the search index (server/domain/search/ad-index.ts), cards and similar ads
// (./cards.ts), the ad page (./view.ts), the sitemap (../sitemap.ts), category counts
// (./bookkeeping.ts) and saved-search alerts (../search/alerts.ts). Member pages of banned members
// are 404 (../member-page.ts). Banned members are few: the subquery reads them through the partial
// index of migration 0021 once per query.
import { type Expression, type SqlBool, sql } from 'kysely';

/** True for an ad whose owner (column `ref`, e.g. `ads.user_id`) is not banned; an ownerless ad passes. */
export function publicOwner(ref: string): Expression<SqlBool> {
  const owner = sql.ref(ref);
  return sql<SqlBool>`(${owner} is null or ${owner} not in (select bu.id from users bu where bu.banned_at is not null))`;
}

/** True for an ad whose owner (column `ref`) is banned. */
export function bannedOwner(ref: string): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from users bu where bu.id = ${sql.ref(ref)} and bu.banned_at is not null)`;
}
