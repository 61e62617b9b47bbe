// What every change of an ad writes beside it, in the same transaction (server/db/transaction.ts):
// its status history, the denormalised counters' jobs, and the announcement to the page cache once
// committed. The owner's notifications are server/domain/notifications.ts.
import type { DB } from '../../db/index.ts';
import type { AdStatus } from '../../db/schema.ts';
import { afterCommitOf } from '../../db/transaction.ts';
import { toNumber } from '../../db/values.ts';
import { enqueue } from '../../jobs/registry.ts';
import { adChanged } from '../ad-changes.ts';
import { type Actor, countActiveAds } from './rules.ts';
import { publicOwner } from './visibility.ts';

/**
 * Tells this process's listeners (the page cache) that these ads changed, once the change is
 * committed: pass the `tx` of the change (the ads are read in it, the announcement waits for its
 * commit), or a plain `db` after an autocommitted write. Unknown ids are skipped.
 */
export async function announceAdChanges(db: DB, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db
    .selectFrom('ads')
    .select(['id', 'category_id', 'taxonomy_id', 'user_id', 'company_id'])
    .where('id', 'in', ids)
    .execute();
  await afterCommitOf(db, () => {
    for (const r of rows) {
      adChanged({
        adId: r.id,
        categoryId: r.category_id,
        taxonomyId: r.taxonomy_id,
        userId: r.user_id,
        companyId: r.company_id,
      });
    }
  });
}

/**
 * One line of the ad's status history, dated like the change it records. An ad entering review also
 * gets that moment as its place in the moderation queue (`ads.queued_at`, migration 0028): every
 * move to `pending` writes its history line here.
 */
export async function recordStatus(
  trx: DB,
  adId: number,
  change: { from: AdStatus | null; to: AdStatus; actor?: Actor | null; reason?: string | null; now: Date },
) {
  await trx
    .insertInto('ad_status_history')
    .values({
      ad_id: adId,
      from_status: change.from,
      to_status: change.to,
      actor_id: change.actor?.id ?? null,
      reason: change.reason ?? null,
      created_at: change.now,
    })
    .execute();
  if (change.to === 'pending') {
    await trx.updateTable('ads').set({ queued_at: change.now }).where('id', '=', adId).execute();
  }
  // An ad going live is news for the saved searches it matches (server/domain/search/alerts.ts).
  if (change.to === 'published' && change.from !== 'published') {
    await enqueue(trx, 'alert-saved-searches', { adId });
  }
}

/** Counters change with the status: the ad's taxonomy is recounted once, however many ads changed. */
export async function countersChanged(trx: DB, ad: { taxonomy_id: number; user_id: string | null }) {
  await recountTaxonomiesLater(trx, [ad.taxonomy_id]);
  if (ad.user_id) await recountUserAds(trx, ad.user_id);
}

/** Each taxonomy's category counts recounted by the job queue, once each however many ask. */
export async function recountTaxonomiesLater(trx: DB, taxonomyIds: Iterable<number>) {
  for (const taxonomyId of new Set(taxonomyIds)) {
    await enqueue(trx, 'recount-taxonomy', { taxonomyId }, { uniqueKey: `recount-taxonomy:${taxonomyId}` });
  }
}

export async function recountUserAds(trx: DB, userId: string) {
  await trx
    .updateTable('users')
    .set({ active_ads_count: await countActiveAds(trx, userId) })
    .where('id', '=', userId)
    .execute();
}

/**
 * Published ads per category of a taxonomy, each category counting its descendants (the category
 * pages list them too). One grouped query and a walk up the tree.
 */
export async function recountTaxonomy(db: DB, taxonomyId: number) {
  const [categories, counts] = await Promise.all([
    db.selectFrom('categories').select(['id', 'parent_id']).where('taxonomy_id', '=', taxonomyId).execute(),
    db
      .selectFrom('ads')
      .select(['category_id', (eb) => eb.fn.countAll().as('n')])
      .where('taxonomy_id', '=', taxonomyId)
      .where('status', '=', 'published')
      .where(publicOwner('ads.user_id'))
      .groupBy('category_id')
      .execute(),
  ]);
  const parent = new Map(categories.map((c) => [c.id, c.parent_id]));
  const total = new Map(categories.map((c) => [c.id, 0]));
  for (const row of counts) {
    let id: number | null | undefined = row.category_id;
    while (id !== null && id !== undefined) {
      total.set(id, (total.get(id) ?? 0) + toNumber(row.n));
      id = parent.get(id);
    }
  }
  for (const [id, n] of total) await db.updateTable('categories').set({ ads_count: n }).where('id', '=', id).execute();
}
