// What a chat message looks like to pages, the API and the realtime events: one shape for all.
import type { SafetyFlag } from '../../../app/lib/chats.ts';
import type { DB } from '../../db/index.ts';
import type { ChatMessageKind, OfferStatus } from '../../db/schema.ts';
import { toIso } from '../../db/values.ts';
import { UPLOADS_PUBLIC_PATH } from '../../media/storage.ts';
import { flagsOf } from './safety.ts';

export interface ChatImage {
  /** In the thread (480 px wide at most). */
  small: string;
  /** Opened on its own (1600 px wide at most). */
  large: string;
  width: number;
  height: number;
}

export interface ChatMessageView {
  id: number;
  chat_id: number;
  /** Null once the sender deleted their account. */
  sender_id: string | null;
  kind: ChatMessageKind;
  body: string | null;
  image: ChatImage | null;
  /** An offer (kind offer), or the offer an answer is about (offer-accepted, offer-declined). */
  offer: { amount: number; currency: string; status: OfferStatus | null } | null;
  reply_to_id: number | null;
  /** What the recipient is warned about (docs/product/chats.md, "Safety"). */
  flags: SafetyFlag[];
  /** The sender's idempotency key, so their browser recognises its own message. */
  client_key: string | null;
  /** When the recipient read it; null while unread. */
  read_at: string | null;
  created_at: string;
}

export const MESSAGE_COLUMNS = [
  'chat_messages.id',
  'chat_messages.chat_id',
  'chat_messages.sender_id',
  'chat_messages.kind',
  'chat_messages.body',
  'chat_messages.image_key',
  'chat_messages.image_width',
  'chat_messages.image_height',
  'chat_messages.offer_amount',
  'chat_messages.offer_currency',
  'chat_messages.offer_status',
  'chat_messages.reply_to_id',
  'chat_messages.flags',
  'chat_messages.client_key',
  'chat_messages.read_at',
  'chat_messages.created_at',
] as const;

export type MessageRow = Awaited<ReturnType<ReturnType<typeof messageQuery>['executeTakeFirstOrThrow']>>;

export function messageQuery(db: DB) {
  return db.selectFrom('chat_messages').select(MESSAGE_COLUMNS);
}

/** The public URL of a chat photo's variant (local storage's path, like ad photos). */
export const chatImageUrl = (key: string, variant: 'small' | 'large') =>
  `${UPLOADS_PUBLIC_PATH}/${key}-${variant}.webp`;

export function messageView(r: MessageRow): ChatMessageView {
  return {
    id: Number(r.id),
    chat_id: Number(r.chat_id),
    sender_id: r.sender_id,
    kind: r.kind,
    body: r.body,
    image: r.image_key
      ? {
          small: chatImageUrl(r.image_key, 'small'),
          large: chatImageUrl(r.image_key, 'large'),
          width: Number(r.image_width ?? 0),
          height: Number(r.image_height ?? 0),
        }
      : null,
    offer:
      r.offer_amount === null
        ? null
        : { amount: Number(r.offer_amount), currency: r.offer_currency ?? 'LYD', status: r.offer_status },
    reply_to_id: r.reply_to_id === null ? null : Number(r.reply_to_id),
    flags: flagsOf(r.flags),
    client_key: r.client_key,
    read_at: r.read_at === null ? null : toIso(r.read_at),
    created_at: toIso(r.created_at),
  };
}
