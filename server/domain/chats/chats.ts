// Chats between a buyer and the seller of an ad (docs/product/chats.md): started from the ad page
// with a first message, one chat per ad and buyer; the member's list; a thread with its state
// (who may still write, what each side read). Messages are in ./messages.ts, the participant's
// own settings (archive, block, report) in ./members.ts.
import { sql } from 'kysely';
import { THREAD_PAGE_SIZE } from '../../../app/lib/chats.ts';
import type { DB } from '../../db/index.ts';
import type { AdStatus, ChatRole } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toBool, toIso, toNumber } from '../../db/values.ts';
import { type AdImageUrls, coverUrls } from '../ad-images.ts';
import { Forbidden, NotFound } from '../errors.ts';
import { hitRateLimit, type RateLimitRule } from '../rate-limit.ts';
import {
  checkMessage,
  insertMessage,
  type NewMessage,
  prepareMessage,
  type SentMessage,
  sendMessage,
} from './messages.ts';
import { type ChatMessageView, messageQuery, messageView } from './view.ts';

/** New chats a member may start per hour (all ads together): room for a busy buyer, not for spam. */
export const CHAT_START_LIMIT: RateLimitRule = { name: 'chat-start', limit: 20, windowSeconds: 60 * 60 };

/** Chats per page of /chats. */
export const CHATS_PAGE_SIZE = 20;

/** The ad a chat is about, as the chat pages show it. */
export interface ChatAd {
  id: number;
  title: string;
  slug: string;
  status: AdStatus;
  price: number | null;
  currency: string;
  price_type: string;
  taxonomy_slug: string;
  category_slug: string;
  photo: AdImageUrls | null;
}

export interface ChatParty {
  id: string;
  name: string;
  image: string | null;
  member_since: string;
  last_seen_at: string | null;
}

/**
 * Whether the member may write in a chat: `open`; `blocked-by-me` (they blocked the other side:
 * unblock to write); `blocked` (the other side blocked them: they read only "you can't reply
 * here"); `closed` (the ad was deleted, or the other side's account is gone or banned).
 */
export type ReplyState = 'open' | 'blocked-by-me' | 'blocked' | 'closed';

/** A chat as one of its participants sees it, with what the rules need. */
export interface ChatState {
  id: number;
  ad: ChatAd;
  role: ChatRole;
  me: { id: string; archived: boolean; unread: number; last_read_message_id: number };
  other: (ChatParty & { banned: boolean; last_read_message_id: number }) | null;
  last_message_id: number;
  reply: ReplyState;
  /** The buyer may make an offer: the ad is live and has a price to discuss. */
  can_offer: boolean;
}

const adColumns = [
  'ads.id as ad_id',
  'ads.title as ad_title',
  'ads.slug as ad_slug',
  'ads.status as ad_status',
  'ads.price as ad_price',
  'ads.currency as ad_currency',
  'ads.price_type as ad_price_type',
  'taxonomies.slug as taxonomy_slug',
  'categories.slug as category_slug',
] as const;

type AdColumns = {
  ad_id: number;
  ad_title: string;
  ad_slug: string;
  ad_status: AdStatus;
  ad_price: number | string | null;
  ad_currency: string;
  ad_price_type: string;
  taxonomy_slug: string;
  category_slug: string;
};

function chatAd(r: AdColumns, photo: AdImageUrls | null): ChatAd {
  return {
    id: Number(r.ad_id),
    title: r.ad_title,
    slug: r.ad_slug,
    status: r.ad_status,
    price: r.ad_price === null ? null : toNumber(r.ad_price),
    currency: r.ad_currency,
    price_type: r.ad_price_type,
    taxonomy_slug: r.taxonomy_slug,
    category_slug: r.category_slug,
    photo,
  };
}

/** Offers make sense on a live ad that is not given away. */
const offerable = (ad: Pick<ChatAd, 'status' | 'price_type'>) => ad.status === 'published' && ad.price_type !== 'free';

/** Whether either member blocked the other: `mine` (a blocked b), `theirs` (b blocked a). */
export async function blocksBetween(db: DB, a: string, b: string): Promise<{ mine: boolean; theirs: boolean }> {
  const rows = await db
    .selectFrom('user_blocks')
    .select(['blocker_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
        eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
      ]),
    )
    .execute();
  return { mine: rows.some((r) => r.blocker_id === a), theirs: rows.some((r) => r.blocker_id === b) };
}

/**
 * The chat as member `userId` sees it; NotFound when there is no such chat or they are not in it
 * (nobody learns which chats exist). `photo: false` leaves out the ad's photo (`ad.photo` null):
 * what a write checks needs no photo, and reading its URLs is a query more on every message.
 */
export async function chatState(
  db: DB,
  userId: string,
  chatId: number,
  options: { photo?: boolean } = {},
): Promise<ChatState> {
  if (!Number.isSafeInteger(chatId) || chatId <= 0) throw new NotFound('errors.not-found');
  const row = await db
    .selectFrom('chat_members as me')
    .innerJoin('chats', 'chats.id', 'me.chat_id')
    .innerJoin('ads', 'ads.id', 'chats.ad_id')
    .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
    .innerJoin('categories', 'categories.id', 'ads.category_id')
    .leftJoin('chat_members as other', (j) =>
      j.onRef('other.chat_id', '=', 'me.chat_id').onRef('other.user_id', '!=', 'me.user_id'),
    )
    .leftJoin('users', 'users.id', 'other.user_id')
    .select([
      'chats.id',
      'chats.last_message_id',
      'me.role',
      'me.archived',
      'me.unread_count',
      'me.last_read_message_id',
      'other.user_id as other_id',
      'other.last_read_message_id as other_last_read',
      'users.name as other_name',
      'users.image as other_image',
      'users.created_at as other_created_at',
      'users.last_seen_at as other_last_seen_at',
      'users.banned_at as other_banned_at',
      ...adColumns,
    ])
    .where('me.chat_id', '=', chatId)
    .where('me.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFound('errors.not-found');
  const photo =
    options.photo === false ? null : ((await coverUrls(db, [Number(row.ad_id)])).get(Number(row.ad_id)) ?? null);
  const ad = chatAd(row, photo);
  const other =
    row.other_id && row.other_name !== null
      ? {
          id: row.other_id,
          name: row.other_name,
          image: row.other_image ?? null,
          member_since: toIso(row.other_created_at),
          last_seen_at: row.other_last_seen_at ? toIso(row.other_last_seen_at) : null,
          banned: row.other_banned_at !== null && row.other_banned_at !== undefined,
          last_read_message_id: toNumber(row.other_last_read),
        }
      : null;
  let reply: ReplyState = 'open';
  if (!other || other.banned || ad.status === 'deleted') reply = 'closed';
  else {
    const blocks = await blocksBetween(db, userId, other.id);
    if (blocks.mine) reply = 'blocked-by-me';
    else if (blocks.theirs) reply = 'blocked';
  }
  return {
    id: Number(row.id),
    ad,
    role: row.role,
    me: {
      id: userId,
      archived: toBool(row.archived),
      unread: toNumber(row.unread_count),
      last_read_message_id: toNumber(row.last_read_message_id),
    },
    other,
    last_message_id: toNumber(row.last_message_id),
    reply,
    can_offer: reply === 'open' && row.role === 'buyer' && offerable(ad),
  };
}

/** Refuses a write in a chat that is not open, with the words its participant may read. */
export function requireOpen(state: Pick<ChatState, 'reply'>): void {
  if (state.reply === 'closed') throw new Forbidden('chats.errors.closed');
  if (state.reply === 'blocked-by-me') throw new Forbidden('chats.errors.you-blocked');
  if (state.reply === 'blocked') throw new Forbidden('chats.errors.cant-reply');
}

/** The buyer's chat about an ad, if they have one. */
export async function chatIdForAd(db: DB, adId: number, buyerId: string): Promise<number | null> {
  const row = await db
    .selectFrom('chats')
    .select('id')
    .where('ad_id', '=', adId)
    .where('buyer_id', '=', buyerId)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** What the start page shows of an ad a member wants to write about (any status; NotFound if none). */
export async function adForChat(db: DB, adId: number): Promise<ChatAd & { seller_id: string | null }> {
  if (!Number.isSafeInteger(adId) || adId <= 0) throw new NotFound('errors.not-found');
  const row = await db
    .selectFrom('ads')
    .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
    .innerJoin('categories', 'categories.id', 'ads.category_id')
    .select([...adColumns, 'ads.user_id'])
    .where('ads.id', '=', adId)
    .executeTakeFirst();
  if (!row) throw new NotFound('errors.not-found');
  const photo = (await coverUrls(db, [adId])).get(adId) ?? null;
  return { ...chatAd(row, photo), seller_id: row.user_id };
}

/**
 * Whether a member may start a chat about this ad, and why not: the seller's own ad (`own`), an ad
 * that is not live or whose seller is gone or banned (`unavailable`), a block between the two
 * (`blocked`). A member who already has the chat writes in it instead (`existing`).
 */
export async function chatStartState(
  db: DB,
  buyerId: string,
  adId: number,
): Promise<{
  ad: ChatAd & { seller_id: string | null };
  existing: number | null;
  refusal: 'own' | 'unavailable' | 'blocked' | null;
  can_offer: boolean;
}> {
  const ad = await adForChat(db, adId);
  const existing = await chatIdForAd(db, adId, buyerId);
  let refusal: 'own' | 'unavailable' | 'blocked' | null = null;
  if (ad.seller_id === buyerId) refusal = 'own';
  else if (ad.status !== 'published' || !ad.seller_id) refusal = 'unavailable';
  else {
    const seller = await db.selectFrom('users').select('banned_at').where('id', '=', ad.seller_id).executeTakeFirst();
    if (!seller || seller.banned_at) refusal = 'unavailable';
    else {
      const blocks = await blocksBetween(db, buyerId, ad.seller_id);
      if (blocks.mine || blocks.theirs) refusal = 'blocked';
    }
  }
  return { ad, existing, refusal, can_offer: refusal === null && offerable(ad) };
}

/**
 * A buyer writes to the seller of an ad: the chat is made with its first message (a text, a quick
 * reply, a photo or a price offer), or, when the buyer has one about this ad already, the message
 * goes there. Refused (Forbidden, nothing stored): the seller's own ad, an ad that is not published
 * (sold, expired, deleted, under review), a seller who is gone or banned, a block between the two.
 * At most CHAT_START_LIMIT new chats an hour per member. A retry with the same `clientKey` answers
 * the message already stored.
 */
export async function startChat(
  db: DB,
  input: { adId: number; buyerId: string; clientKey?: string },
  first: NewMessage,
  now = new Date(),
): Promise<SentMessage & { created: boolean }> {
  const checked = checkMessage(first);
  const start = await chatStartState(db, input.buyerId, input.adId);
  if (start.existing !== null) {
    const sent = await sendMessage(
      db,
      { chatId: start.existing, senderId: input.buyerId, clientKey: input.clientKey },
      checked,
      now,
    );
    return { ...sent, created: false };
  }
  if (start.refusal === 'own') throw new Forbidden('chats.errors.own-ad');
  if (start.refusal === 'unavailable') throw new Forbidden('chats.errors.ad-unavailable');
  if (start.refusal === 'blocked') throw new Forbidden('chats.errors.cant-reply');
  if (checked.kind === 'offer' && !start.can_offer) throw new Forbidden('chats.errors.offer-unavailable');
  const sellerId = start.ad.seller_id as string;
  const prepared = await prepareMessage(db, input.buyerId, input.clientKey, checked, now);
  if ('duplicate' in prepared) return { ...prepared.duplicate, created: false };
  await hitRateLimit(db, CHAT_START_LIMIT, input.buyerId, now.getTime());
  return withTransaction(db, async (tx) => {
    const made = await tx
      .insertInto('chats')
      .values({ ad_id: input.adId, buyer_id: input.buyerId, seller_id: sellerId, last_message_at: now })
      .onConflict((oc) => oc.columns(['ad_id', 'buyer_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    // Started meanwhile by another request of the same buyer: the message joins that chat.
    const chatId = made
      ? Number(made.id)
      : ((await chatIdForAd(tx, input.adId, input.buyerId)) ?? fail('chat vanished'));
    if (made) {
      await tx
        .insertInto('chat_members')
        .values([
          { chat_id: chatId, user_id: input.buyerId, role: 'buyer', archived: false },
          { chat_id: chatId, user_id: sellerId, role: 'seller', archived: false },
        ])
        .execute();
    }
    const message = await insertMessage(
      tx,
      { chatId, senderId: input.buyerId, recipientId: sellerId, currency: start.ad.currency },
      prepared,
      now,
    );
    return { message, duplicate: false, created: made !== undefined };
  });
}

function fail(what: string): never {
  throw new Error(what);
}

export interface ChatListItem {
  id: number;
  ad: ChatAd;
  role: ChatRole;
  other: { id: string; name: string; image: string | null } | null;
  last: {
    kind: ChatMessageView['kind'];
    body: string | null;
    offer: ChatMessageView['offer'];
    mine: boolean;
    created_at: string;
  } | null;
  unread: number;
}

export interface ChatListPage {
  items: ChatListItem[];
  /** The `before` of the next (older) page, or null on the last page. */
  next: number | null;
}

/**
 * One page of the member's chats, the most recent conversation first (keyset on the last
 * message's id: `before`), the inbox or the archived ones.
 */
export async function listChats(
  db: DB,
  userId: string,
  options: { archived?: boolean; before?: number | null; limit?: number } = {},
): Promise<ChatListPage> {
  const limit = options.limit ?? CHATS_PAGE_SIZE;
  const rows = await db
    .selectFrom('chat_members as me')
    .innerJoin('chats', 'chats.id', 'me.chat_id')
    .innerJoin('ads', 'ads.id', 'chats.ad_id')
    .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
    .innerJoin('categories', 'categories.id', 'ads.category_id')
    .leftJoin('chat_members as other', (j) =>
      j.onRef('other.chat_id', '=', 'me.chat_id').onRef('other.user_id', '!=', 'me.user_id'),
    )
    .leftJoin('users', 'users.id', 'other.user_id')
    .leftJoin('chat_messages as last', 'last.id', 'me.last_message_id')
    .select([
      'chats.id',
      'me.role',
      'me.unread_count',
      'me.last_message_id',
      'users.id as other_id',
      'users.name as other_name',
      'users.image as other_image',
      'last.kind as last_kind',
      'last.body as last_body',
      'last.offer_amount as last_offer_amount',
      'last.offer_currency as last_offer_currency',
      'last.offer_status as last_offer_status',
      'last.sender_id as last_sender_id',
      'last.created_at as last_created_at',
      ...adColumns,
    ])
    .where('me.user_id', '=', userId)
    .where('me.archived', '=', options.archived === true)
    .$if(options.before != null, (q) => q.where('me.last_message_id', '<', options.before as number))
    .orderBy('me.last_message_id', 'desc')
    .orderBy('chats.id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const covers = await coverUrls(
    db,
    page.map((r) => Number(r.ad_id)),
  );
  return {
    items: page.map((r) => ({
      id: Number(r.id),
      ad: chatAd(r, covers.get(Number(r.ad_id)) ?? null),
      role: r.role,
      other: r.other_id && r.other_name !== null ? { id: r.other_id, name: r.other_name, image: r.other_image } : null,
      last:
        r.last_kind && r.last_created_at
          ? {
              kind: r.last_kind,
              body: r.last_body,
              offer:
                r.last_offer_amount === null
                  ? null
                  : {
                      amount: Number(r.last_offer_amount),
                      currency: r.last_offer_currency ?? 'LYD',
                      status: r.last_offer_status,
                    },
              mine: r.last_sender_id === userId,
              created_at: toIso(r.last_created_at),
            }
          : null,
      unread: toNumber(r.unread_count),
    })),
    next: rows.length > limit ? toNumber(page[page.length - 1]?.last_message_id) : null,
  };
}

/** How many of the member's chats hold unread messages (the header's counter). */
export async function countUnreadChats(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('chat_members')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('unread_count', '>', 0)
    .executeTakeFirst();
  return toNumber(row?.n);
}

export interface Thread extends ChatState {
  messages: ChatMessageView[];
  /** The `before` of older messages, or null when these are the first. */
  older: number | null;
}

/**
 * A thread as member `userId` reads it: its state and the newest THREAD_PAGE_SIZE messages (or
 * those before `before`), oldest first. NotFound for anyone else.
 */
export async function loadThread(
  db: DB,
  userId: string,
  chatId: number,
  options: { before?: number | null } = {},
): Promise<Thread> {
  const state = await chatState(db, userId, chatId);
  const rows = await messageQuery(db)
    .where('chat_messages.chat_id', '=', state.id)
    .$if(options.before != null, (q) => q.where('chat_messages.id', '<', options.before as number))
    .orderBy('chat_messages.id', 'desc')
    .limit(THREAD_PAGE_SIZE + 1)
    .execute();
  const page = rows.slice(0, THREAD_PAGE_SIZE).reverse();
  return {
    ...state,
    messages: page.map(messageView),
    older: rows.length > THREAD_PAGE_SIZE ? Number(page[0]?.id) : null,
  };
}

/** Records that the member was active now (the "last seen" the other side reads), at most once a minute. */
export async function touchLastSeen(db: DB, userId: string, now = new Date()): Promise<void> {
  const stale = new Date(now.getTime() - 60_000).toISOString();
  await db
    .updateTable('users')
    .set({ last_seen_at: now })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', stale)]))
    .execute();
}

/** Whether `userId` is a participant of chat `chatId` (the presence channel's rule). */
export async function isChatMember(db: DB, userId: string, chatId: number): Promise<boolean> {
  if (!Number.isSafeInteger(chatId) || chatId <= 0) return false;
  const row = await db
    .selectFrom('chat_members')
    .select(sql<number>`1`.as('one'))
    .where('chat_id', '=', chatId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}
