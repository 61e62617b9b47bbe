// A participant's own handling of a chat (docs/product/chats.md): archive it (a new message brings
// it back to the inbox), block the other member (no messages either way in any chat of theirs, no
// new chat between them, until unblocked), report them to staff.
import type { ChatReportInput } from '../../../app/lib/validation/chats.ts';
import type { DB } from '../../db/index.ts';
import { withTransaction } from '../../db/transaction.ts';
import { REPORT_LIMIT } from '../ads/reports.ts';
import { NotFound } from '../errors.ts';
import { hitRateLimit } from '../rate-limit.ts';
import { chatState } from './chats.ts';

/** Moves the chat to the member's archive, or back to their inbox. */
export async function setChatArchived(db: DB, userId: string, chatId: number, archived: boolean): Promise<void> {
  const state = await chatState(db, userId, chatId);
  await db
    .updateTable('chat_members')
    .set({ archived })
    .where('chat_id', '=', state.id)
    .where('user_id', '=', userId)
    .execute();
}

/** The member blocks the other side of the chat (NotFound when their account is gone). */
export async function blockChatMember(db: DB, userId: string, chatId: number): Promise<void> {
  const state = await chatState(db, userId, chatId);
  if (!state.other) throw new NotFound('errors.not-found');
  await db
    .insertInto('user_blocks')
    .values({ blocker_id: userId, blocked_id: state.other.id })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute();
}

/** The member lifts their block of the other side of the chat. */
export async function unblockChatMember(db: DB, userId: string, chatId: number): Promise<void> {
  const state = await chatState(db, userId, chatId);
  if (!state.other) return;
  await db
    .deleteFrom('user_blocks')
    .where('blocker_id', '=', userId)
    .where('blocked_id', '=', state.other.id)
    .execute();
}

/**
 * The member reports the other side of the chat to staff (a report on that member, naming the
 * chat). One open report per member and chat: a second one replaces the first. Shares the ads'
 * report limit (ten an hour).
 */
export async function reportChatMember(db: DB, userId: string, chatId: number, input: ChatReportInput): Promise<void> {
  const state = await chatState(db, userId, chatId);
  if (!state.other) throw new NotFound('errors.not-found');
  const reported = state.other.id;
  await hitRateLimit(db, REPORT_LIMIT, userId);
  await withTransaction(db, async (tx) => {
    const open = await tx
      .selectFrom('reports')
      .select('id')
      .where('reporter_id', '=', userId)
      .where('chat_id', '=', state.id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (open) {
      await tx
        .updateTable('reports')
        .set({ reason: input.reason, note: input.note || null, updated_at: new Date() })
        .where('id', '=', open.id)
        .execute();
      return;
    }
    await tx
      .insertInto('reports')
      .values({
        reporter_id: userId,
        user_id: reported,
        chat_id: state.id,
        reason: input.reason,
        note: input.note || null,
      })
      .execute();
  });
}
