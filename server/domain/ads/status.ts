// The status machine of an ad (docs/product/ads.md): approve, reject, mark sold, renew, expire,
// delete; reposts; expiry and its reminders. Each move writes its history, revision, notification
// and counters in the transaction of the move.
import type { DB } from '../../db/index.ts';
import type { AdStatus } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { recordRevision } from '../audit.ts';
import { Invalid, NotFound } from '../errors.ts';
import { tellFavoriters } from '../favorites.ts';
import { notify } from '../notifications.ts';
import { spendCredit } from '../packages/allowance.ts';
import { readSettings } from '../settings.ts';
import { announceAdChanges, countersChanged, recordStatus } from './bookkeeping.ts';
import { dropPendingChange } from './placing.ts';
import { type Actor, AD_RULES, checkAllowance, DAY } from './rules.ts';

/** The status machine (docs/product/ads.md): who may move an ad from where to where. */
const MOVES = {
  approve: { from: ['pending'], to: 'published' },
  reject: { from: ['pending', 'published'], to: 'rejected' },
  'mark-sold': { from: ['published'], to: 'sold' },
  renew: { from: ['expired'], to: 'published' },
  expire: { from: ['published'], to: 'expired' },
  delete: { from: ['draft', 'pending', 'published', 'rejected', 'sold', 'expired', 'archived'], to: 'deleted' },
} as const satisfies Record<string, { from: readonly AdStatus[]; to: AdStatus }>;

export type AdMove = keyof typeof MOVES;

/**
 * The dates of an ad going live. An approval of an ad that was already live (a rejected ad that
 * had been published, edited and resubmitted) keeps its place in the listings and its expiry
 * while that expiry lies ahead: an edit is not a free repost.
 */
function publication(ad: AdRow, move: AdMove, now: Date, lifetimeDays: number) {
  const fresh = {
    published_at: now,
    bumped_at: now,
    expires_at: new Date(now.getTime() + lifetimeDays * DAY),
  };
  const expires = ad.expires_at ? new Date(ad.expires_at) : null;
  if (move !== 'approve' || !ad.published_at || !ad.bumped_at || !expires || expires <= now) return fresh;
  return { published_at: new Date(ad.published_at), bumped_at: new Date(ad.bumped_at), expires_at: expires };
}

interface AdRow {
  id: number;
  user_id: string | null;
  taxonomy_id: number;
  status: AdStatus;
  title: string;
  bumped_at: Date | string | null;
  published_at: Date | string | null;
  expires_at: Date | string | null;
}

async function lockAd(trx: DB, id: number, owner?: string): Promise<AdRow> {
  const ad = await trx
    .selectFrom('ads')
    .select(['id', 'user_id', 'taxonomy_id', 'status', 'title', 'bumped_at', 'published_at', 'expires_at'])
    .where('id', '=', id)
    .$if(owner !== undefined, (q) => q.where('user_id', '=', owner as string))
    .executeTakeFirst();
  // Someone else's ad answers exactly like a missing one.
  if (!ad || ad.status === 'deleted') throw new NotFound('errors.not-found');
  return ad;
}

/**
 * Moves an ad along the status machine, with history, revision, counters and the owner's
 * notification. `owner` restricts the move to that member's ads (the owner's own actions).
 */
export async function moveAd(
  db: DB,
  actor: Actor,
  id: number,
  move: AdMove,
  options: { owner?: string; reason?: string; now?: Date } = {},
): Promise<AdStatus> {
  const rule: { from: readonly AdStatus[]; to: AdStatus } | undefined = Object.hasOwn(MOVES, move)
    ? MOVES[move]
    : undefined;
  if (!rule) throw new Invalid({ form: ['invalid'] });
  const now = options.now ?? new Date();
  return withTransaction(db, async (trx) => {
    const ad = await lockAd(trx, id, options.owner);
    if (!rule.from.includes(ad.status)) throw new Invalid({ form: ['ad-wrong-status'] });
    if (move === 'reject' && !options.reason) throw new Invalid({ reason: ['required'] });
    // Renewing makes the ad active again: the allowance must have room for it.
    if (move === 'renew' && ad.user_id) await checkAllowance(trx, ad.user_id, now);
    const live = rule.to === 'published';
    const { lifetimeDays } = await readSettings(trx);
    // Conditional on the status just read: of two simultaneous moves, only one applies.
    const moved = await trx
      .updateTable('ads')
      .set({
        status: rule.to,
        updated_at: now,
        ...(move === 'reject' ? { rejection_reason: options.reason } : {}),
        ...(live ? publication(ad, move, now, lifetimeDays) : {}),
        ...(move === 'delete' ? { deleted_at: now } : {}),
      })
      .where('id', '=', id)
      .where('status', '=', ad.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw new Invalid({ form: ['ad-wrong-status'] });
    // A pending change waits only on a live ad: leaving `published` drops it (docs/product/ads.md).
    if (ad.status === 'published') await dropPendingChange(trx, id);
    await recordStatus(trx, id, { from: ad.status, to: rule.to, actor, reason: options.reason, now });
    await recordRevision(trx, actor, { type: 'ad', id }, move, {
      status: [ad.status, rule.to],
      ...(options.reason ? { rejection_reason: [null, options.reason] } : {}),
    });
    const byStaff = ad.user_id !== actor.id;
    if (byStaff && (move === 'approve' || move === 'reject')) {
      await notify(trx, ad.user_id, move === 'approve' ? 'ad-approved' : 'ad-rejected', {
        ad_id: id,
        title: ad.title,
        ...(options.reason ? { reason: options.reason } : {}),
      });
    }
    // The members who saved it hear that it is sold (docs/product/favorites.md).
    if (move === 'mark-sold') {
      await tellFavoriters(trx, id, ad.user_id, { type: 'favorite-sold', data: { ad_id: id, title: ad.title } });
    }
    await countersChanged(trx, ad);
    await announceAdChanges(trx, [id]);
    return rule.to;
  });
}

/**
 * Milliseconds until an ad bumped at `bumpedAt` may be bumped again (0 or less: now), with a
 * cool-down of `cooldownDays` (the setting: server/domain/settings.ts).
 */
export function bumpWait(bumpedAt: Date | string | null, now: Date, cooldownDays: number): number {
  const last = bumpedAt ? new Date(bumpedAt).getTime() : 0;
  return last + cooldownDays * DAY - now.getTime();
}

/**
 * The owner's repost: an expired ad is renewed for another lifetime; a published one is bumped to
 * the top, at most once per cool-down. Refusals say why (`repost-cooldown:<days left>`).
 */
export async function repostAd(db: DB, actor: Actor, id: number, now = new Date()): Promise<'renewed' | 'bumped'> {
  const ad = await lockAd(db, id, actor.id);
  if (ad.status === 'expired') {
    await moveAd(db, actor, id, 'renew', { owner: actor.id, now });
    return 'renewed';
  }
  if (ad.status !== 'published') throw new Invalid({ form: ['ad-not-repostable'] });
  await withTransaction(db, async (trx) => {
    const fresh = await lockAd(trx, id, actor.id);
    if (fresh.status !== 'published') throw new Invalid({ form: ['ad-wrong-status'] });
    const wait = bumpWait(fresh.bumped_at, now, (await readSettings(trx)).repostCooldownDays);
    // Within the cool-down, a bump spends one of the member's package reposts (none left: refused).
    const subscription = wait > 0 ? await spendCredit(trx, actor.id, 'reposts', now) : null;
    if (wait > 0 && subscription === null) throw new Invalid({ form: [`repost-cooldown:${Math.ceil(wait / DAY)}`] });
    await trx.updateTable('ads').set({ bumped_at: now, updated_at: now }).where('id', '=', id).execute();
    await recordRevision(trx, actor, { type: 'ad', id }, 'bump', {
      bumped_at: [fresh.bumped_at, now.toISOString()],
      ...(subscription !== null ? { subscription_id: [null, subscription] } : {}),
    });
    await announceAdChanges(trx, [id]);
  });
  return 'bumped';
}

/**
 * The owner features their published ad for AD_RULES.featureDays with one of their packages'
 * featured ads (server/domain/packages/allowance.ts), spent in the same transaction; an ad featured
 * already is featured that much longer. Without one left: `no-featured-left`. Returns the new end.
 */
export async function featureOwnAd(db: DB, actor: Actor, id: number, now = new Date()): Promise<string> {
  return withTransaction(db, async (trx) => {
    const ad = await lockAd(trx, id, actor.id);
    if (ad.status !== 'published') throw new Invalid({ form: ['ad-not-featurable'] });
    const row = await trx.selectFrom('ads').select('featured_until').where('id', '=', id).executeTakeFirstOrThrow();
    const subscription = await spendCredit(trx, actor.id, 'featured', now);
    if (subscription === null) throw new Invalid({ form: ['no-featured-left'] });
    const current = row.featured_until ? new Date(row.featured_until) : null;
    const from = current && current > now ? current : now;
    const until = new Date(from.getTime() + AD_RULES.featureDays * DAY);
    await trx.updateTable('ads').set({ featured_until: until, updated_at: now }).where('id', '=', id).execute();
    await recordRevision(trx, actor, { type: 'ad', id }, 'feature', {
      featured_until: [current ? current.toISOString() : null, until.toISOString()],
      subscription_id: [null, subscription],
    });
    await announceAdChanges(trx, [id]);
    return until.toISOString();
  });
}

/** Published ads past their expiry become expired (a scheduled job). Returns how many. */
export async function expireAds(db: DB, now = new Date()): Promise<number> {
  const due = await db
    .selectFrom('ads')
    .select('id')
    .where('status', '=', 'published')
    .where('expires_at', '<=', now)
    .limit(500)
    .execute();
  for (const { id } of due) {
    await withTransaction(db, async (trx) => {
      const ad = await lockAd(trx, id);
      if (ad.status !== 'published') return;
      await trx
        .updateTable('ads')
        .set({ status: 'expired', updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'published')
        .execute();
      await recordStatus(trx, id, { from: 'published', to: 'expired', now });
      await notify(trx, ad.user_id, 'ad-expired', { ad_id: id, title: ad.title });
      await countersChanged(trx, ad);
      await announceAdChanges(trx, [id]);
    });
  }
  return due.length;
}

/** Owners are told once, a few days before their ad expires (a scheduled job). Returns how many. */
export async function remindExpiringAds(db: DB, now = new Date()): Promise<number> {
  const soon = new Date(now.getTime() + (await readSettings(db)).reminderDaysBefore * DAY);
  const due = await db
    .selectFrom('ads')
    .select(['id', 'user_id', 'title', 'expires_at'])
    .where('status', '=', 'published')
    .where('expires_at', '<=', soon)
    .where('expires_at', '>', now)
    .where('reminded_at', 'is', null)
    .limit(500)
    .execute();
  for (const ad of due) {
    await withTransaction(db, async (trx) => {
      const marked = await trx
        .updateTable('ads')
        .set({ reminded_at: now })
        .where('id', '=', ad.id)
        .where('reminded_at', 'is', null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return;
      await notify(trx, ad.user_id, 'ad-expiring', {
        ad_id: ad.id,
        title: ad.title,
        expires_at: new Date(ad.expires_at as string | Date).toISOString(),
      });
    });
  }
  return due.length;
}
