// What follows a staff edit of the catalogue (docs/product/back-office.md, "Catalogue"), besides the
// rows themselves:
//
// - in the transaction: a job that writes again the text index's option words of the ads holding
//   an option relabelled (`rewrite-ad-terms`; server/domain/search/text-index.ts), a batch at a
//   time, each batch setting the ads' `updated_at` so every process's search re-reads them (the
//   ads of a removed option are rewritten in the transaction itself: their values go with it); and
//   a job that re-derives saved searches' alert keys (`refresh-saved-searches`, below). A category
//   renamed or moved writes no ad's text row: the index names an ad's category by its id, and a
//   query reads the names from the catalogue (server/domain/search/catalogue-keys.ts). The
//   category form of the job (`categoryIds`) is what edits queued before migration 0029; it
//   writes those ads' rows in the form the index has now;
// - after commit: the search service's catalogue snapshot and index made again
//   (server/domain/search/service.ts, `catalogueChanged`), the alerts' snapshot forgotten, and the
//   page cache emptied (server/domain/catalogue-changes.ts). The sitemap is read from the tables at
//   each request and needs nothing.
import { sql } from 'kysely';
import { searchParamsOf } from '../../../app/lib/search-query.ts';
import type { DatabaseHandle, DB } from '../../db/index.ts';
import { type TxHooks, withTransaction } from '../../db/transaction.ts';
import { enqueue } from '../../jobs/registry.ts';
import { catalogueChanged } from '../catalogue-changes.ts';
import { forgetAlertsCatalogue } from '../search/alerts.ts';
import { loadCatalogueSnapshot } from '../search/catalogue.ts';
import { queryOf, savedSearchKeys } from '../search/saved.ts';
import { resolveQuery, searchEngine } from '../search/service.ts';
import { adPlaces, catalogueText, loadCatalogueWords, optionText, stemsOf } from '../search/text-index.ts';

/** Ads whose text-index row is rewritten per statement. */
const TERMS_BATCH = 1000;

/** Which ads' catalogue words to write again: those filed in these categories, or these ads. */
export type AdSet = { categoryIds: number[] } | { adIds: number[] };

/** What a `rewrite-ad-terms` job covers: ads of these categories, or holding these options. */
export type TermsScope = { categoryIds: number[] } | { attributeId: number; values: string[] };

/** Ads per transaction of the job, and how long one run goes on before handing on to the next. */
const JOB_BATCH = 1000;
const JOB_RUN_MS = 10_000;

/** Registers the rewrite of these ads' catalogue words (in the edit's transaction: an outbox). */
export async function enqueueTermsRewrite(tx: DB, scope: TermsScope): Promise<void> {
  if ('categoryIds' in scope ? scope.categoryIds.length === 0 : scope.values.length === 0) return;
  await enqueue(tx, 'rewrite-ad-terms', { ...scope, after: 0 });
}

/**
 * One run of `rewrite-ad-terms`: batches of JOB_BATCH ads in id order after `after`, each in its
 * own transaction (the catalogue words, then `updated_at`), for up to JOB_RUN_MS; what is left is
 * handed to a next job. Returns how many ads were rewritten.
 */
export async function rewriteAdTermsJob(
  db: DB,
  payload: TermsScope & { after: number },
  budgetMs = JOB_RUN_MS,
): Promise<number> {
  const started = Date.now();
  let after = payload.after;
  let done = 0;
  for (;;) {
    const ids =
      'categoryIds' in payload
        ? (
            await db
              .selectFrom('ads')
              .select('id')
              .where('category_id', 'in', payload.categoryIds)
              .where('id', '>', after)
              .orderBy('id')
              .limit(JOB_BATCH)
              .execute()
          ).map((r) => r.id)
        : (
            await db
              .selectFrom('ad_attribute_values')
              .select('ad_id')
              .distinct()
              .where('attribute_id', '=', payload.attributeId)
              .where('value_option', 'in', payload.values)
              .where('ad_id', '>', after)
              .orderBy('ad_id')
              .limit(JOB_BATCH)
              .execute()
          ).map((r) => r.ad_id);
    if (ids.length === 0) return done;
    await withTransaction(db, async (tx) => {
      await rewriteAdTerms(tx, { adIds: ids });
      await tx.updateTable('ads').set({ updated_at: new Date() }).where('id', 'in', ids).execute();
    });
    done += ids.length;
    after = ids[ids.length - 1] as number;
    if (ids.length < JOB_BATCH) return done;
    if (Date.now() - started >= budgetMs) {
      const { after: _, ...scope } = payload;
      await enqueue(db, 'rewrite-ad-terms', { ...scope, after });
      return done;
    }
  }
}

/**
 * Writes again the catalogue keys and option words (`terms`, `stems`) of the text index's rows of
 * these ads, from the catalogue as `tx` sees it (the edit already made). In id order, TERMS_BATCH
 * ads per update; a row whose words did not change is left alone. Returns how many rows changed.
 */
export async function rewriteAdTerms(tx: DB, set: AdSet): Promise<number> {
  if ('categoryIds' in set ? set.categoryIds.length === 0 : set.adIds.length === 0) return 0;
  const words = await loadCatalogueWords(tx);
  const sorted = 'adIds' in set ? [...new Set(set.adIds)].sort((a, b) => a - b) : null;
  let changed = 0;
  for (let after = 0, i = 0; ; ) {
    let ids: number[];
    if (sorted) {
      ids = sorted.slice(i, i + TERMS_BATCH);
      i += TERMS_BATCH;
    } else {
      const rows = await tx
        .selectFrom('ads')
        .select('id')
        .where('category_id', 'in', (set as { categoryIds: number[] }).categoryIds)
        .where('id', '>', after)
        .orderBy('id')
        .limit(TERMS_BATCH)
        .execute();
      ids = rows.map((r) => r.id);
    }
    if (ids.length === 0) break;
    after = ids[ids.length - 1] as number;
    const [rows, places] = await Promise.all([
      tx.selectFrom('ad_search').select(['ad_id', 'title', 'body', 'terms']).where('ad_id', 'in', ids).execute(),
      adPlaces(tx, ids),
    ]);
    const updates: { id: number; terms: string; stems: string }[] = [];
    for (const r of rows) {
      const place = places.get(r.ad_id);
      if (!place) continue;
      const terms = catalogueText(words, place);
      if (terms === r.terms) continue;
      updates.push({ id: r.ad_id, terms, stems: stemsOf(r.title, r.body, optionText(words, place)) });
    }
    if (updates.length > 0) {
      // One statement per batch: a list of values joined to the rows (both databases).
      const values = sql.join(
        updates.map((u) => sql`(cast(${u.id} as integer), ${u.terms}, ${u.stems})`),
        sql`, `,
      );
      await sql`
        with v(ad_id, terms, stems) as (values ${values})
        update ad_search set terms = v.terms, stems = v.stems from v where ad_search.ad_id = v.ad_id`.execute(tx);
      changed += updates.length;
    }
  }
  return changed;
}

/**
 * The rest of an edit's consequences, registered on its transaction: the saved searches' job when
 * the tree or the slugs changed (`savedSearches`), and the after-commit renewals.
 */
export async function followCatalogueEdit(
  handle: DatabaseHandle,
  tx: DB,
  hooks: TxHooks,
  opts: { savedSearches?: boolean } = {},
): Promise<void> {
  if (opts.savedSearches) {
    await enqueue(tx, 'refresh-saved-searches', {}, { uniqueKey: 'refresh-saved-searches' });
  }
  hooks.afterCommit(async () => {
    forgetAlertsCatalogue(handle.db);
    // The index first: a page rendered meanwhile from the old one is dropped just after.
    await searchEngine(handle).catalogueChanged();
    catalogueChanged({ kind: 'categories' });
  });
}

/** Saved searches read per batch while their keys are derived again. */
const SAVED_BATCH = 500;

/**
 * Every saved search checked against the catalogue as it is now: a category named by an old slug
 * (`category_redirects`, migration 0026) is written with its new one, and the alert keys
 * (`saved_search_index`: scope, city, area, price band) are derived again, so a moved, renamed or
 * switched-off category finds the right searches. Returns how many searches changed.
 */
export async function refreshSavedSearches(db: DB): Promise<number> {
  const catalogue = await loadCatalogueSnapshot(db);
  const redirects = new Map(
    (await db.selectFrom('category_redirects').select(['slug', 'category_id']).execute()).map((r) => [
      r.slug,
      r.category_id,
    ]),
  );
  let changed = 0;
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('saved_searches as s')
      .leftJoin('saved_search_index as i', 'i.saved_search_id', 's.id')
      .select(['s.id', 's.user_id', 's.query', 's.frequency', 'i.scope_id', 'i.city_id', 'i.area_id'])
      .where('s.id', '>', after)
      .orderBy('s.id')
      .limit(SAVED_BATCH)
      .execute();
    if (rows.length === 0) break;
    after = rows[rows.length - 1]?.id as number;
    for (const row of rows) {
      const query = queryOf(row);
      let text = row.query;
      if (query.category && !catalogue.categoryBySlug.has(query.category)) {
        const movedTo = redirects.get(query.category);
        const live = movedTo === undefined ? undefined : catalogue.categoryById.get(movedTo);
        if (live) {
          query.category = live.slug;
          const rewritten = searchParamsOf(query).toString();
          // The member may already keep the rewritten query: then this one stays as it was.
          const twin = await db
            .selectFrom('saved_searches')
            .select('id')
            .where('user_id', '=', row.user_id)
            .where('query', '=', rewritten)
            .executeTakeFirst();
          if (!twin) {
            await db.updateTable('saved_searches').set({ query: rewritten }).where('id', '=', row.id).execute();
            text = rewritten;
          }
        }
      }
      const keys = savedSearchKeys(resolveQuery(catalogue, queryOf({ query: text })));
      if (
        text === row.query &&
        keys.scope_id === row.scope_id &&
        keys.city_id === row.city_id &&
        keys.area_id === row.area_id
      ) {
        continue;
      }
      await db.deleteFrom('saved_search_index').where('saved_search_id', '=', row.id).execute();
      await db
        .insertInto('saved_search_index')
        .values({ saved_search_id: row.id, user_id: row.user_id, frequency: row.frequency, ...keys })
        .execute();
      changed++;
    }
  }
  return changed;
}
