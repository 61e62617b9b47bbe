// Saved-search alerts (docs/product/alerts.md). When an ad goes live (`recordStatus` of
// server/domain/ads/bookkeeping.ts enqueues `alert-saved-searches` in the transaction that
// publishes it), the job finds the saved searches it matches without running every saved search:
//
// 1. candidates from `saved_search_index` (migration 0020): the searches whose scope is the ad's
//    category, a category above it, its taxonomy or the whole site; whose city and area are the
//    ad's or any; whose price band holds the ad's price in its currency; alerts on; not the seller's;
// 2. each candidate checked with the search service's own rule (./match.ts): only what the search
//    of its query would list counts;
// 3. each (search, ad) kept once in `saved_search_matches`; instant searches' members told at once
//    (one `saved-search-match` notification per member and ad, naming the searches; its mail
//    follows its plan), daily ones left for the day's digest (`deliverDailyDigests`, hourly,
//    delivering from 08:00 Libyan time, once a day per member).
import { sql } from 'kysely';
import { localizePath } from '../../../app/i18n/config.ts';
import { parseSearchQuery } from '../../../app/lib/search-query.ts';
import type { DB } from '../../db/index.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toBool, toNumber } from '../../db/values.ts';
import { enqueue } from '../../jobs/registry.ts';
import { digestMail } from '../../mail/notification-templates.ts';
import { mailJob } from '../../mail/outbox.ts';
import { bannedOwner, publicOwner } from '../ads/visibility.ts';
import { type MailLinks, mailFoot, mailRecipient } from '../notification-mail/send.ts';
import { notify } from '../notifications.ts';
import { CATALOGUE_TTL_MS, type CatalogueSnapshot, loadCatalogueSnapshot } from './catalogue.ts';
import { type AdInHand, adInHand, adMatches, type PreparedQuery, prepareQuery } from './match.ts';
import { savedSearchKeys, savedSearchPath } from './saved.ts';
import { resolveQuery } from './service.ts';

/** The hour (Libyan time) from which the day's digests go out. */
export const DIGEST_HOUR = 8;

const catalogues = new WeakMap<DB, { at: number; value: Promise<CatalogueSnapshot> }>();

/** The catalogue snapshot of a database, kept CATALOGUE_TTL_MS (jobs run outside the search engine). */
export function alertsCatalogue(db: DB, now = Date.now()): Promise<CatalogueSnapshot> {
  const held = catalogues.get(db);
  if (held && now - held.at <= CATALOGUE_TTL_MS) return held.value;
  const value = loadCatalogueSnapshot(db);
  catalogues.set(db, { at: now, value });
  value.catch(() => catalogues.delete(db));
  return value;
}

/** Forgets the kept snapshot (after a staff edit of the catalogue: server/domain/admin/catalogue.ts). */
export function forgetAlertsCatalogue(db: DB): void {
  catalogues.delete(db);
}

export interface Candidate {
  id: number;
  user_id: string;
  frequency: string;
}

/** The saved searches the index offers for an ad (see the top of this file, step 1). */
export async function savedSearchCandidates(
  db: DB,
  catalogue: CatalogueSnapshot,
  ad: AdInHand,
  sellerId: string | null,
): Promise<Candidate[]> {
  const { index, slot } = ad;
  const categoryId = index.category[slot] as number;
  const scopes = [0];
  for (
    let c = catalogue.categoryById.get(categoryId), depth = 0;
    c && depth < 16;
    c = c.parent_id === null ? undefined : catalogue.categoryById.get(c.parent_id), depth++
  ) {
    scopes.push(c.id);
    if (c.parent_id === null) scopes.push(-c.taxonomy_id);
  }
  const city = index.city[slot] as number;
  const area = index.area[slot] as number;
  const price = index.price[slot] as number;
  const currency = index.currency[slot] === 1 ? 'USD' : 'LYD';
  let q = db
    .selectFrom('saved_search_index')
    .select(['saved_search_id', 'user_id', 'frequency'])
    .where('scope_id', 'in', scopes)
    .where('city_id', 'in', city === 0 ? [0] : [city, 0])
    .where('area_id', 'in', area === 0 ? [0] : [area, 0])
    .where('frequency', '<>', 'off');
  if (sellerId !== null) q = q.where('user_id', '<>', sellerId);
  if (Number.isNaN(price)) {
    // An ad without an amount is outside every price band.
    q = q.where('price_min', 'is', null).where('price_max', 'is', null);
  } else {
    q = q.where((eb) =>
      eb.and([
        eb.or([eb('price_min', 'is', null), eb.and([eb('currency', '=', currency), eb('price_min', '<=', price)])]),
        eb.or([eb('price_max', 'is', null), eb.and([eb('currency', '=', currency), eb('price_max', '>=', price)])]),
      ]),
    );
  }
  const rows = await q.execute();
  return rows.map((r) => ({ id: toNumber(r.saved_search_id), user_id: r.user_id, frequency: r.frequency }));
}

/**
 * Saved searches' queries made ready (./match.ts), by id, per catalogue snapshot: a saved search's
 * query never changes, and the same searches are candidates for ad after ad. At most PREPARED_KEPT
 * (about 1 KB each): past it, the map starts again.
 */
const preparedById = new WeakMap<CatalogueSnapshot, Map<number, PreparedQuery>>();
export const PREPARED_KEPT = 100_000;

async function preparedQueries(
  db: DB,
  catalogue: CatalogueSnapshot,
  ids: number[],
): Promise<Map<number, PreparedQuery>> {
  let kept = preparedById.get(catalogue);
  if (!kept) {
    kept = new Map();
    preparedById.set(catalogue, kept);
  }
  const out = new Map<number, PreparedQuery>();
  const missing: number[] = [];
  for (const id of ids) {
    const p = kept.get(id);
    if (p) out.set(id, p);
    else missing.push(id);
  }
  // Past the limit, start again (cheaper than keeping an order of use for every lookup).
  if (kept.size + missing.length > PREPARED_KEPT) kept.clear();
  for (let i = 0; i < missing.length; i += 1000) {
    const rows = await db
      .selectFrom('saved_searches')
      .select(['id', 'query'])
      .where('id', 'in', missing.slice(i, i + 1000))
      .execute();
    for (const r of rows) {
      const p = prepareQuery(catalogue, parseSearchQuery(new URLSearchParams(r.query)));
      const id = toNumber(r.id);
      kept.set(id, p);
      out.set(id, p);
    }
  }
  return out;
}

/** The saved searches a published ad matches (not its seller's); none when it is not published. */
export async function findSavedSearchMatches(
  db: DB,
  catalogue: CatalogueSnapshot,
  adId: number,
  sellerId: string | null,
  now = Date.now(),
): Promise<Candidate[]> {
  const ad = await adInHand(db, catalogue, adId);
  if (!ad) return [];
  const candidates = await savedSearchCandidates(db, catalogue, ad, sellerId);
  const queries = await preparedQueries(
    db,
    catalogue,
    candidates.map((c) => c.id),
  );
  return candidates.filter((c) => {
    const query = queries.get(c.id);
    return query !== undefined && adMatches(catalogue, ad, query, now);
  });
}

/**
 * The `alert-saved-searches` job: the ad's matches kept, instant ones told. Returns how many
 * searches it newly matched.
 */
export async function alertSavedSearches(db: DB, adId: number, now = new Date()): Promise<number> {
  const ad = await db
    .selectFrom('ads')
    .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
    .innerJoin('categories', 'categories.id', 'ads.category_id')
    .select([
      'ads.id',
      'ads.user_id',
      'ads.title',
      'ads.slug',
      'ads.price',
      'ads.currency',
      'ads.status',
      sql<number | boolean>`${bannedOwner('ads.user_id')}`.as('owner_banned'),
      'taxonomies.slug as taxonomy_slug',
      'categories.slug as category_slug',
    ])
    .where('ads.id', '=', adId)
    .executeTakeFirst();
  if (ad?.status !== 'published' || toBool(ad.owner_banned)) return 0;
  const catalogue = await alertsCatalogue(db);
  const matches = await findSavedSearchMatches(db, catalogue, adId, ad.user_id, now.getTime());
  if (matches.length === 0) return 0;
  const path = `/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`;
  const names = new Map<number, string>();
  for (let i = 0; i < matches.length; i += 1000) {
    const rows = await db
      .selectFrom('saved_searches')
      .select(['id', 'name'])
      .where(
        'id',
        'in',
        matches.slice(i, i + 1000).map((m) => m.id),
      )
      .execute();
    for (const r of rows) names.set(toNumber(r.id), r.name);
  }
  return withTransaction(db, async (tx) => {
    const kept = await tx
      .insertInto('saved_search_matches')
      .values(
        matches.map((m) => ({
          saved_search_id: m.id,
          ad_id: adId,
          matched_at: now,
          delivered_at: m.frequency === 'instant' ? now : null,
        })),
      )
      .onConflict((oc) => oc.columns(['saved_search_id', 'ad_id']).doNothing())
      .returning('saved_search_id')
      .execute();
    const fresh = new Set(kept.map((k) => toNumber(k.saved_search_id)));
    const instant = matches.filter((m) => fresh.has(m.id) && m.frequency === 'instant');
    const byMember = new Map<string, Candidate[]>();
    for (const m of instant) byMember.set(m.user_id, [...(byMember.get(m.user_id) ?? []), m]);
    for (const [userId, searches] of byMember) {
      await notify(tx, userId, 'saved-search-match', {
        ad_id: adId,
        title: ad.title,
        path,
        ...(ad.price === null ? {} : { price: toNumber(ad.price), currency: ad.currency }),
        searches: searches.map((s) => ({ id: s.id, name: names.get(s.id) ?? '' })),
      });
    }
    if (instant.length > 0) {
      await tx
        .updateTable('saved_searches')
        .set({ last_alerted_at: now })
        .where(
          'id',
          'in',
          instant.map((m) => m.id),
        )
        .execute();
    }
    return fresh.size;
  });
}

/** When today's digests start (08:00 Libyan time, UTC+2 all year), as of `now`. */
export function digestStart(now: Date): Date {
  // Libya (app/lib/moderation-codes.ts, LIBYA_TIME_ZONE) keeps UTC+2 without daylight saving.
  const local = new Date(now.getTime() + 2 * 3_600_000);
  const start = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), DIGEST_HOUR - 2);
  return new Date(start);
}

/**
 * Saved searches written before their index rows existed (or whose row went missing) get one: a
 * search without a row would never be a candidate.
 */
export async function indexMissingSavedSearches(db: DB, catalogue: CatalogueSnapshot): Promise<number> {
  const missing = await db
    .selectFrom('saved_searches as s')
    .leftJoin('saved_search_index as i', 'i.saved_search_id', 's.id')
    .select(['s.id', 's.user_id', 's.query', 's.frequency'])
    .where('i.saved_search_id', 'is', null)
    .limit(1000)
    .execute();
  for (const s of missing) {
    const resolved = resolveQuery(catalogue, parseSearchQuery(new URLSearchParams(s.query)));
    await db
      .insertInto('saved_search_index')
      .values({
        saved_search_id: toNumber(s.id),
        user_id: s.user_id,
        frequency: s.frequency,
        ...savedSearchKeys(resolved),
      })
      .onConflict((oc) => oc.column('saved_search_id').doNothing())
      .execute();
  }
  return missing.length;
}

/**
 * The `saved-search-digests` job (hourly): from DIGEST_HOUR, each member not yet delivered a digest
 * today gets, for each daily saved search of theirs with matches waiting, one notification with
 * their count (ads still published), and one digest mail listing them, if they want them by email.
 * What finds matches after the member's digest of the day waits for tomorrow's: at most one digest
 * a day, however many searches. Returns the searches delivered.
 */
export async function deliverDailyDigests(db: DB, links: MailLinks, now = new Date()): Promise<number> {
  await indexMissingSavedSearches(db, await alertsCatalogue(db));
  const start = digestStart(now);
  if (now < start) return 0;
  const waiting = await db
    .selectFrom('saved_search_matches as m')
    .innerJoin('saved_searches as s', 's.id', 'm.saved_search_id')
    .innerJoin('ads as a', 'a.id', 'm.ad_id')
    .select(['s.id', 's.user_id', 's.name', 's.query', (eb) => eb.fn.countAll().as('n')])
    .where('m.delivered_at', 'is', null)
    .where('s.frequency', '=', 'daily')
    .where('a.status', '=', 'published')
    .where(publicOwner('a.user_id'))
    // At most one digest a member a day: none once a daily search of theirs was delivered today.
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('saved_searches as d')
            .select('d.id')
            .whereRef('d.user_id', '=', 's.user_id')
            .where('d.frequency', '=', 'daily')
            .where('d.last_alerted_at', '>=', start),
        ),
      ),
    )
    .groupBy(['s.id', 's.user_id', 's.name', 's.query'])
    .orderBy('s.user_id')
    .orderBy('s.id')
    .limit(5000)
    .execute();
  const byMember = new Map<string, typeof waiting>();
  for (const w of waiting) byMember.set(w.user_id, [...(byMember.get(w.user_id) ?? []), w]);
  let delivered = 0;
  for (const [userId, searches] of byMember) {
    await withTransaction(db, async (tx) => {
      const ids = searches.map((s) => toNumber(s.id));
      // Marked first, conditionally: of two runs at once, only one delivers the member's digest.
      const marked = await tx
        .updateTable('saved_searches')
        .set({ last_alerted_at: now })
        .where('id', 'in', ids)
        .where((eb) => eb.or([eb('last_alerted_at', 'is', null), eb('last_alerted_at', '<', start)]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('saved_searches as d')
                .select('d.id')
                .where('d.user_id', '=', userId)
                .where('d.frequency', '=', 'daily')
                .where('d.last_alerted_at', '>=', start),
            ),
          ),
        )
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== ids.length) throw new DigestRace();
      await tx
        .updateTable('saved_search_matches')
        .set({ delivered_at: now })
        .where('saved_search_id', 'in', ids)
        .where('delivered_at', 'is', null)
        .execute();
      for (const s of searches) {
        await notify(
          tx,
          userId,
          'saved-search-match',
          {
            saved_search_id: toNumber(s.id),
            name: s.name,
            count: toNumber(s.n),
            path: savedSearchPath(s),
            digest: true,
          },
          { email: 'none' },
        );
      }
      const to = await mailRecipient(tx, userId, 'saved-search-match');
      if (to) {
        const url = (path: string) => `${links.origin}${localizePath(path, to.locale)}`;
        const message = digestMail(
          to.locale,
          to.email,
          to.name,
          searches.map((s) => ({ name: s.name, count: toNumber(s.n), url: url(savedSearchPath(s)) })),
          url('/searches'),
          mailFoot(links, userId, 'saved-search-match', to.locale),
        );
        await enqueue(tx, 'send-mail', mailJob('saved-search-digest', message));
      }
    }).then(
      () => {
        delivered += searches.length;
      },
      (error: unknown) => {
        // Another run delivered them meanwhile.
        if (!(error instanceof DigestRace)) throw error;
      },
    );
  }
  return delivered;
}

class DigestRace extends Error {}
