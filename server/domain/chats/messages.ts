// Messages of a chat (docs/product/chats.md): a text (at most 2000 characters), a photo with an
// optional caption, a buyer's price offer and the seller's answer. Each is stored in one
// transaction with the chat's counters (the recipient's unread count, both sides' latest message)
// and the recipient's email reminder (./reminders.ts), and told to the realtime relay once
// committed (server/realtime/chats.ts). A retry carrying the same idempotency key answers the
// message already stored, never a second one.
import { CATCH_UP_LIMIT, CHAT_MESSAGE_MAX } from '../../../app/lib/chats.ts';
import { PRICE_MAX } from '../../../app/lib/validation/ads.ts';
import type { DB } from '../../db/index.ts';
import type { ChatMessageKind } from '../../db/schema.ts';
import { afterCommitOf, type Tx, withTransaction } from '../../db/transaction.ts';
import { toIso } from '../../db/values.ts';
import type { MediaStorage } from '../../media/storage.ts';
import { Forbidden, Invalid, NotFound } from '../errors.ts';
import { hitRateLimit, type RateLimitRule } from '../rate-limit.ts';
import { chatState, requireOpen, touchLastSeen } from './chats.ts';
import { told } from './events.ts';
import { deleteChatImage, type StoredChatImage, storeChatImage } from './images.ts';
import { planChatReminder } from './reminders.ts';
import { flagsText, safetyFlags } from './safety.ts';
import { type ChatMessageView, messageQuery, messageView } from './view.ts';

/** Messages a member may send in ten minutes, all chats together: a lively chat, not a flood. */
export const CHAT_MESSAGE_LIMIT: RateLimitRule = { name: 'chat-message', limit: 60, windowSeconds: 10 * 60 };
/** Photos a member may send per hour (each costs processing time). */
export const CHAT_IMAGE_LIMIT: RateLimitRule = { name: 'chat-image', limit: 30, windowSeconds: 60 * 60 };

export type NewMessage =
  | { kind: 'text'; body: string }
  | { kind: 'offer'; amount: number }
  | { kind: 'image'; image: StoredChatImage; body?: string | null };

export interface SentMessage {
  message: ChatMessageView;
  /** True when the idempotency key named a message stored before (nothing new was stored). */
  duplicate: boolean;
}

/** The idempotency key was stored by a request running at the same time (the transaction rolls back). */
export class DuplicateKey extends Error {
  override name = 'DuplicateKey';
}

/** A message checked and ready to store. */
export interface PreparedMessage {
  kind: ChatMessageKind;
  body: string | null;
  image: StoredChatImage | null;
  amount: number | null;
  clientKey: string | null;
  flags: string;
}

const length = (s: string) => [...s].length;

/** Refuses (Invalid, field errors) a message the rules do not take: empty, too long, a bad amount. */
export function checkMessage(content: NewMessage): NewMessage {
  if (content.kind === 'text') {
    const body = typeof content.body === 'string' ? content.body.trim() : '';
    if (!body) throw new Invalid({ body: ['required'] });
    if (length(body) > CHAT_MESSAGE_MAX) throw new Invalid({ body: [`max:${CHAT_MESSAGE_MAX}`] });
    return { kind: 'text', body };
  }
  if (content.kind === 'offer') {
    if (!Number.isSafeInteger(content.amount) || content.amount < 1) throw new Invalid({ amount: ['min_value:1'] });
    if (content.amount > PRICE_MAX) throw new Invalid({ amount: [`max_value:${PRICE_MAX}`] });
    return content;
  }
  const body = typeof content.body === 'string' ? content.body.trim() : '';
  if (length(body) > CHAT_MESSAGE_MAX) throw new Invalid({ body: [`max:${CHAT_MESSAGE_MAX}`] });
  return { kind: 'image', image: content.image, body: body || null };
}

/** The sender's message with this idempotency key, if they sent one. */
async function findByClientKey(db: DB, senderId: string, clientKey: string | undefined) {
  if (!clientKey) return null;
  const row = await messageQuery(db)
    .where('chat_messages.sender_id', '=', senderId)
    .where('chat_messages.client_key', '=', clientKey)
    .executeTakeFirst();
  return row ? messageView(row) : null;
}

/**
 * The last steps before storing a checked message: the message of a retry (`duplicate`), else the
 * rate limits and the safety flags (payment words, links, numbers, a new account).
 */
export async function prepareMessage(
  db: DB,
  senderId: string,
  clientKey: string | undefined,
  content: NewMessage,
  now = new Date(),
  options: { keyLookedUp?: boolean } = {},
): Promise<PreparedMessage | { duplicate: SentMessage }> {
  // A caller that has just looked the key up (sendMessage) is not asked again.
  const earlier = options.keyLookedUp ? null : await findByClientKey(db, senderId, clientKey);
  if (earlier) return { duplicate: { message: earlier, duplicate: true } };
  const sender = await db.selectFrom('users').select('created_at').where('id', '=', senderId).executeTakeFirst();
  if (!sender) throw new NotFound('errors.not-found');
  await hitRateLimit(db, CHAT_MESSAGE_LIMIT, senderId, now.getTime());
  if (content.kind === 'image') await hitRateLimit(db, CHAT_IMAGE_LIMIT, senderId, now.getTime());
  const text = content.kind === 'offer' ? '' : (content.body ?? '');
  return {
    kind: content.kind,
    body: content.kind === 'offer' ? null : content.body || null,
    image: content.kind === 'image' ? content.image : null,
    amount: content.kind === 'offer' ? content.amount : null,
    clientKey: clientKey ?? null,
    flags: flagsText(safetyFlags(text, new Date(toIso(sender.created_at)), now)),
  };
}

/**
 * Stores a prepared message in the running transaction with the chat's counters: the chat's and
 * both members' latest message, the sender's own message read by them, the recipient's unread count
 * up by one and the chat back in their inbox, and the recipient's email reminder planned (unless
 * one is pending: ./reminders.ts). A new offer replaces the buyer's earlier pending one. The relay
 * hears of it after the commit.
 */
export async function insertMessage(
  tx: Tx,
  chat: { chatId: number; senderId: string; recipientId: string | null; currency: string },
  m: PreparedMessage & { replyTo?: number | null; offerStatus?: 'pending' | null },
  now = new Date(),
): Promise<ChatMessageView> {
  if (m.kind === 'offer') {
    await tx
      .updateTable('chat_messages')
      .set({ offer_status: 'replaced' })
      .where('chat_id', '=', chat.chatId)
      .where('kind', '=', 'offer')
      .where('offer_status', '=', 'pending')
      .execute();
  }
  const inserted = await tx
    .insertInto('chat_messages')
    .values({
      chat_id: chat.chatId,
      sender_id: chat.senderId,
      kind: m.kind,
      body: m.body,
      image_key: m.image?.key ?? null,
      image_width: m.image?.width ?? null,
      image_height: m.image?.height ?? null,
      offer_amount: m.amount,
      offer_currency: m.amount === null ? null : chat.currency,
      offer_status: m.kind === 'offer' ? 'pending' : null,
      reply_to_id: m.replyTo ?? null,
      flags: m.flags,
      client_key: m.clientKey,
      created_at: now,
    })
    // Two requests with one key at once: the second stores nothing (the caller answers the first).
    .onConflict((oc) => oc.columns(['sender_id', 'client_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) throw new DuplicateKey();
  const id = Number(inserted.id);
  await tx
    .updateTable('chats')
    .set({ last_message_id: id, last_message_at: now })
    .where('id', '=', chat.chatId)
    .execute();
  await tx
    .updateTable('chat_members')
    .set({ last_message_id: id, last_read_message_id: id })
    .where('chat_id', '=', chat.chatId)
    .where('user_id', '=', chat.senderId)
    .execute();
  if (chat.recipientId) {
    await tx
      .updateTable('chat_members')
      .set((eb) => ({ last_message_id: id, unread_count: eb('unread_count', '+', 1), archived: false }))
      .where('chat_id', '=', chat.chatId)
      .where('user_id', '=', chat.recipientId)
      .execute();
    await planChatReminder(tx, { chatId: chat.chatId, userId: chat.recipientId, messageId: id }, now);
  }
  const message = messageView(await messageQuery(tx).where('chat_messages.id', '=', id).executeTakeFirstOrThrow());
  await afterCommitOf(
    tx,
    told({ kind: 'message', chatId: chat.chatId, message, senderId: chat.senderId, recipientId: chat.recipientId }),
  );
  return message;
}

/**
 * A participant writes in a chat. Refused with nothing stored: bad input (Invalid, 422), someone
 * else's or a missing chat (NotFound), a chat that is not open — the ad deleted, the other side gone
 * or banned, a block either way (Forbidden with the words the sender may read) — an offer from the
 * seller or on an ad that is no longer live (Forbidden), past the rate limits (TooManyRequests).
 */
export async function sendMessage(
  db: DB,
  input: { chatId: number; senderId: string; clientKey?: string },
  content: NewMessage,
  now = new Date(),
): Promise<SentMessage> {
  const checked = checkMessage(content);
  const state = await chatState(db, input.senderId, input.chatId, { photo: false });
  const earlier = await findByClientKey(db, input.senderId, input.clientKey);
  if (earlier) {
    if (earlier.chat_id !== state.id) throw new Invalid({ client_key: ['in'] });
    return { message: earlier, duplicate: true };
  }
  requireOpen(state);
  if (checked.kind === 'offer' && !state.can_offer) throw new Forbidden('chats.errors.offer-unavailable');
  const prepared = await prepareMessage(db, input.senderId, input.clientKey, checked, now, { keyLookedUp: true });
  if ('duplicate' in prepared) return prepared.duplicate;
  let message: ChatMessageView;
  try {
    message = await withTransaction(db, (tx) =>
      insertMessage(
        tx,
        {
          chatId: state.id,
          senderId: input.senderId,
          recipientId: state.other?.id ?? null,
          currency: state.ad.currency,
        },
        prepared,
        now,
      ),
    );
  } catch (error) {
    const first = error instanceof DuplicateKey ? await findByClientKey(db, input.senderId, input.clientKey) : null;
    if (first) return { message: first, duplicate: true };
    throw error;
  }
  await touchLastSeen(db, input.senderId, now);
  return { message, duplicate: false };
}

/**
 * A photo message: the chat's rules are checked before the photo is processed, the photo is
 * stored, then the message; its files are removed again when the message is refused after all.
 */
export async function sendImage(
  db: DB,
  storage: MediaStorage,
  input: { chatId: number; senderId: string; clientKey?: string },
  bytes: Buffer,
  caption: string | null | undefined,
  now = new Date(),
): Promise<SentMessage> {
  const state = await chatState(db, input.senderId, input.chatId, { photo: false });
  const earlier = await findByClientKey(db, input.senderId, input.clientKey);
  if (earlier && earlier.chat_id === state.id) return { message: earlier, duplicate: true };
  requireOpen(state);
  checkMessage({ kind: 'image', image: { key: '', width: 0, height: 0 }, body: caption });
  const image = await storeChatImage(storage, bytes, now);
  try {
    return await sendMessage(db, input, { kind: 'image', image, body: caption }, now);
  } catch (error) {
    await deleteChatImage(storage, image.key);
    throw error;
  }
}

/**
 * The messages of a chat after message `after` (a reconnecting client's cursor), oldest first, at
 * most CATCH_UP_LIMIT; `more` when there are others after them. NotFound for anyone else's chat.
 */
export async function messagesAfter(
  db: DB,
  userId: string,
  chatId: number,
  after: number,
  limit = CATCH_UP_LIMIT,
): Promise<{ messages: ChatMessageView[]; more: boolean; other_last_read: number }> {
  const state = await chatState(db, userId, chatId, { photo: false });
  const rows = await messageQuery(db)
    .where('chat_messages.chat_id', '=', state.id)
    .where('chat_messages.id', '>', after)
    .orderBy('chat_messages.id', 'asc')
    .limit(limit + 1)
    .execute();
  return {
    messages: rows.slice(0, limit).map(messageView),
    more: rows.length > limit,
    other_last_read: state.other?.last_read_message_id ?? 0,
  };
}

/**
 * The member read the chat up to message `upTo` (all of it when absent): the other side's messages
 * up to there get `read_at`, the member's last-read mark moves (never back) and their unread count
 * becomes what is left after it. Returns the mark and the count; the relay tells both sides.
 */
export async function markChatRead(
  db: DB,
  userId: string,
  chatId: number,
  upTo?: number | null,
  now = new Date(),
): Promise<{ last_read_message_id: number; unread: number; changed: boolean }> {
  const state = await chatState(db, userId, chatId, { photo: false });
  const target = Math.min(upTo ?? state.last_message_id, state.last_message_id);
  await touchLastSeen(db, userId, now);
  if (target <= state.me.last_read_message_id) {
    return { last_read_message_id: state.me.last_read_message_id, unread: state.me.unread, changed: false };
  }
  return withTransaction(db, async (tx) => {
    await tx
      .updateTable('chat_messages')
      .set({ read_at: now })
      .where('chat_id', '=', state.id)
      .where('id', '<=', target)
      .where('read_at', 'is', null)
      .where((eb) => eb.or([eb('sender_id', 'is', null), eb('sender_id', '!=', userId)]))
      .execute();
    const left = await tx
      .selectFrom('chat_messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('chat_id', '=', state.id)
      .where('id', '>', target)
      .where((eb) => eb.or([eb('sender_id', 'is', null), eb('sender_id', '!=', userId)]))
      .executeTakeFirst();
    const unread = Number(left?.n ?? 0);
    await tx
      .updateTable('chat_members')
      .set({ last_read_message_id: target, unread_count: unread })
      .where('chat_id', '=', state.id)
      .where('user_id', '=', userId)
      .where('last_read_message_id', '<', target)
      .execute();
    await afterCommitOf(tx, told({ kind: 'read', chatId: state.id, readerId: userId, lastReadId: target }));
    return { last_read_message_id: target, unread, changed: true };
  });
}

/**
 * The seller accepts or declines the buyer's pending offer: the offer's status changes and an
 * answer message (offer-accepted / offer-declined) follows it in the chat. Refused (Forbidden): the
 * buyer, an offer already answered or replaced, a chat that is not open. NotFound: no such offer in
 * this chat.
 */
export async function answerOffer(
  db: DB,
  input: { chatId: number; userId: string; messageId: number; decision: 'accept' | 'decline' },
  now = new Date(),
): Promise<SentMessage> {
  const state = await chatState(db, input.userId, input.chatId, { photo: false });
  const offer = await messageQuery(db)
    .where('chat_messages.id', '=', input.messageId)
    .where('chat_messages.chat_id', '=', state.id)
    .where('chat_messages.kind', '=', 'offer')
    .executeTakeFirst();
  if (!offer) throw new NotFound('errors.not-found');
  if (state.role !== 'seller') throw new Forbidden('chats.errors.offer-not-yours');
  requireOpen(state);
  if (offer.offer_status !== 'pending') throw new Forbidden('chats.errors.offer-answered');
  const kind = input.decision === 'accept' ? 'offer-accepted' : 'offer-declined';
  const prepared = await prepareMessage(db, input.userId, undefined, { kind: 'text', body: '' }, now);
  if ('duplicate' in prepared) return prepared.duplicate;
  const message = await withTransaction(db, async (tx) => {
    const done = await tx
      .updateTable('chat_messages')
      .set({ offer_status: input.decision === 'accept' ? 'accepted' : 'declined' })
      .where('id', '=', input.messageId)
      .where('offer_status', '=', 'pending')
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw new Forbidden('chats.errors.offer-answered');
    const updated = messageView(
      await messageQuery(tx).where('chat_messages.id', '=', input.messageId).executeTakeFirstOrThrow(),
    );
    await afterCommitOf(
      tx,
      told({
        kind: 'message-updated',
        chatId: state.id,
        message: updated,
        memberIds: [input.userId, ...(state.other ? [state.other.id] : [])],
      }),
    );
    return insertMessage(
      tx,
      { chatId: state.id, senderId: input.userId, recipientId: state.other?.id ?? null, currency: state.ad.currency },
      {
        ...prepared,
        kind,
        body: null,
        amount: offer.offer_amount === null ? null : Number(offer.offer_amount),
        replyTo: input.messageId,
        flags: '',
      },
      now,
    );
  });
  return { message, duplicate: false };
}
