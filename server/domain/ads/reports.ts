// Members report ads (docs/product/ads.md): one open report per member and ad, limited per hour.
import { REPORT_REASONS, type ReportInput } from '../../../app/lib/validation/ads.ts';
import type { DB } from '../../db/index.ts';
import { withTransaction } from '../../db/transaction.ts';
import { NotFound } from '../errors.ts';
import { hitRateLimit } from '../rate-limit.ts';

export { REPORT_REASONS };

export const REPORT_LIMIT = { name: 'report', limit: 10, windowSeconds: 60 * 60 } as const;

/**
 * A member reports an ad (ten reports an hour at most). One open report per member and ad: a
 * second one updates the first. Staff see open reports in the moderation queue.
 */
export async function reportAd(db: DB, reporterId: string, adId: number, input: ReportInput): Promise<void> {
  // Nobody reports their own ad: to its owner it is as if there were no such form.
  const ad = await db.selectFrom('ads').select('user_id').where('id', '=', adId).executeTakeFirst();
  if (!ad || ad.user_id === reporterId) throw new NotFound('errors.not-found');
  // Counted outside the transaction, so a refused report still counts.
  await hitRateLimit(db, REPORT_LIMIT, reporterId);
  await withTransaction(db, async (tx) => {
    const open = await tx
      .selectFrom('reports')
      .select('id')
      .where('reporter_id', '=', reporterId)
      .where('ad_id', '=', adId)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (open) {
      await tx
        .updateTable('reports')
        .set({ reason: input.reason, note: input.note ?? null, updated_at: new Date() })
        .where('id', '=', open.id)
        .execute();
      return;
    }
    await tx
      .insertInto('reports')
      .values({ reporter_id: reporterId, ad_id: adId, reason: input.reason, note: input.note ?? null })
      .execute();
  });
}
