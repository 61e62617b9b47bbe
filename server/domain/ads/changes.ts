// Pending changes of live ads (docs/product/ads.md, "Editing a live ad"): what the owner proposed
// (placing.ts updateAd stores it), the moderator's approval (applied in one transaction) or
// rejection with a reason, and the owner's withdrawal. The live version stays published meanwhile.
import type { DB } from '../../db/index.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toIso, toJson } from '../../db/values.ts';
import { recordRevision } from '../audit.ts';
import { listCategoryAttributes } from '../catalog.ts';
import { Invalid, NotFound } from '../errors.ts';
import { notify } from '../notifications.ts';
import { announceAdChanges } from './bookkeeping.ts';
import { type AdInput, dropPendingChange, writeAdValues } from './placing.ts';
import type { Actor } from './rules.ts';

export interface PendingChange {
  ad_id: number;
  /** The reviewed fields: [live value, proposed value]; photos as ids, attributes by key. */
  changes: Record<string, [unknown, unknown]>;
  proposal: Omit<AdInput, 'submission_key'>;
  created_at: string;
  updated_at: string;
}

/** The ad's pending change, or null. */
export async function findPendingChange(db: DB, adId: number): Promise<PendingChange | null> {
  const row = await db.selectFrom('ad_pending_changes').selectAll().where('ad_id', '=', adId).executeTakeFirst();
  if (!row) return null;
  return {
    ad_id: Number(row.ad_id),
    changes: toJson<Record<string, [unknown, unknown]>>(row.changes, {}),
    proposal: toJson<Omit<AdInput, 'submission_key'>>(row.proposal, {} as Omit<AdInput, 'submission_key'>),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** Ids of the given ads that have a pending change. */
export async function adsWithPendingChanges(db: DB, adIds: number[]): Promise<Set<number>> {
  if (adIds.length === 0) return new Set();
  const rows = await db.selectFrom('ad_pending_changes').select('ad_id').where('ad_id', 'in', adIds).execute();
  return new Set(rows.map((r) => Number(r.ad_id)));
}

async function lockChange(trx: DB, adId: number, owner?: string) {
  const row = await trx
    .selectFrom('ad_pending_changes as c')
    .innerJoin('ads as a', 'a.id', 'c.ad_id')
    .innerJoin('categories as cat', 'cat.id', 'a.category_id')
    .select([
      'c.id',
      'c.proposal',
      'c.changes',
      'a.id as ad_id',
      'a.status',
      'a.user_id',
      'a.title',
      'cat.slug as category_slug',
    ])
    .where('c.ad_id', '=', adId)
    .$if(owner !== undefined, (q) => q.where('a.user_id', '=', owner as string))
    .executeTakeFirst();
  // Someone else's ad, or an ad without a pending change, answers like a missing one.
  if (!row) throw new NotFound('errors.not-found');
  if (row.status !== 'published') throw new Invalid({ form: ['ad-wrong-status'] });
  return row;
}

/**
 * Approves an ad's pending change: the proposed version replaces the live one in one transaction
 * (fields, attribute values, photos, text index; search and page cache follow after commit). The
 * ad keeps its place in listings and its expiry. Photos deleted meanwhile are left out.
 */
export async function approveAdChange(db: DB, actor: Actor, adId: number, now = new Date()): Promise<void> {
  await withTransaction(db, async (trx) => {
    const row = await lockChange(trx, adId);
    const proposal = toJson<Omit<AdInput, 'submission_key'>>(row.proposal, {} as Omit<AdInput, 'submission_key'>);
    const changes = toJson<Record<string, [unknown, unknown]>>(row.changes, {});
    const attributes = await listCategoryAttributes(trx, row.category_slug);
    if (proposal.photos.length > 0) {
      const left = await trx
        .selectFrom('ad_images')
        .select('id')
        .where('id', 'in', proposal.photos)
        .where('user_id', '=', row.user_id ?? '')
        .where((eb) => eb.or([eb('ad_id', 'is', null), eb('ad_id', '=', adId)]))
        .execute();
      const ids = new Set(left.map((p) => Number(p.id)));
      proposal.photos = proposal.photos.filter((p) => ids.has(p));
    }
    await dropPendingChange(trx, adId);
    // Every field of the proposal is written: those applied at once already hold the same values.
    await writeAdValues(
      trx,
      { id: adId, status: row.status, user_id: row.user_id },
      attributes,
      proposal,
      { attrs: [null, null], photos: [null, null], title: [null, null] },
      { updated_at: now },
    );
    await recordRevision(trx, actor, { type: 'ad', id: adId }, 'approve-change', changes);
    if (row.user_id !== actor.id) {
      await notify(trx, row.user_id, 'ad-approved', { ad_id: adId, title: proposal.title, change: true });
    }
    await announceAdChanges(trx, [adId]);
  });
}

/** Rejects an ad's pending change with a reason: the live version stays; the owner is told why. */
export async function rejectAdChange(db: DB, actor: Actor, adId: number, reason: string): Promise<void> {
  if (!reason) throw new Invalid({ reason: ['required'] });
  await withTransaction(db, async (trx) => {
    const row = await lockChange(trx, adId);
    const changes = toJson<Record<string, [unknown, unknown]>>(row.changes, {});
    await dropPendingChange(trx, adId);
    await recordRevision(trx, actor, { type: 'ad', id: adId }, 'reject-change', {
      ...changes,
      rejection_reason: [null, reason],
    });
    await notify(trx, row.user_id, 'ad-rejected', { ad_id: adId, title: row.title, reason, change: true });
    await announceAdChanges(trx, [adId]);
  });
}

/** The owner withdraws their ad's pending change; the live version stays as it is. */
export async function withdrawAdChange(db: DB, actor: Actor, adId: number): Promise<void> {
  await withTransaction(db, async (trx) => {
    const row = await lockChange(trx, adId, actor.id);
    await dropPendingChange(trx, adId);
    await recordRevision(trx, actor, { type: 'ad', id: adId }, 'withdraw-change', toJson(row.changes, {}));
    await announceAdChanges(trx, [adId]);
  });
}
