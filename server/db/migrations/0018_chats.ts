// Chats between a buyer and the seller of an ad (docs/product/chats.md): one chat per ad and buyer,
// each participant's own state (unread count, what they read last, archived), the messages (text,
// a photo, a price offer and its answer), and blocks between two members. Reports may name the
// chat they were made from.
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { boolDefault, boolType, createdAt, timestampType, withId } from './helpers.ts';

export const name = '0018_chats';

export async function up(db: Kysely<any>, d: DialectName): Promise<void> {
  const ts = timestampType(d);
  await withId(db.schema.createTable('chats'), d)
    .addColumn('ad_id', 'integer', (c) => c.notNull().references('ads.id').onDelete('cascade'))
    // Null once that member deleted their account: the other keeps the chat, closed.
    .addColumn('buyer_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('seller_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_message_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_message_at', ts, createdAt(d))
    .addColumn('created_at', ts, createdAt(d))
    .execute();
  // One chat per ad and buyer.
  await db.schema.createIndex('chats_ad_buyer').on('chats').columns(['ad_id', 'buyer_id']).unique().execute();

  // Each participant's side of a chat; the member's list reads (user_id, archived, last_message_id).
  await db.schema
    .createTable('chat_members')
    .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'varchar(10)', (c) => c.notNull())
    .addColumn('unread_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_read_message_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived', boolType(d), (c) => c.notNull().defaultTo(boolDefault(d, false)))
    .addColumn('last_message_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('chat_members_pk', ['chat_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('chat_members_list')
    .on('chat_members')
    .columns(['user_id', 'archived', 'last_message_id'])
    .execute();

  await withId(db.schema.createTable('chat_messages'), d)
    .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('sender_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    // text | image | offer | offer-accepted | offer-declined
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('body', 'text')
    // A photo: its storage key (`chats/…`, variants `-small.webp` and `-large.webp`) and size.
    .addColumn('image_key', 'varchar(200)')
    .addColumn('image_width', 'integer')
    .addColumn('image_height', 'integer')
    // An offer (kind offer) or its answer (offer-accepted / offer-declined, reply_to_id the offer).
    .addColumn('offer_amount', 'integer')
    .addColumn('offer_currency', 'varchar(3)')
    .addColumn('offer_status', 'varchar(10)')
    .addColumn('reply_to_id', 'integer')
    // Safety flags found when it was sent (new-account, link, phone, payment), comma-separated.
    .addColumn('flags', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    // The sender's idempotency key: a retry with the same key is the same message.
    .addColumn('client_key', 'varchar(64)')
    .addColumn('read_at', ts)
    .addColumn('created_at', ts, createdAt(d))
    .execute();
  await db.schema.createIndex('chat_messages_chat').on('chat_messages').columns(['chat_id', 'id']).execute();
  await db.schema
    .createIndex('chat_messages_client_key')
    .on('chat_messages')
    .columns(['sender_id', 'client_key'])
    .unique()
    .execute();

  // A member who blocked another: no messages either way in their chats, no new chat between them.
  await db.schema
    .createTable('user_blocks')
    .addColumn('blocker_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, createdAt(d))
    .addPrimaryKeyConstraint('user_blocks_pk', ['blocker_id', 'blocked_id'])
    .execute();

  await db.schema
    .alterTable('reports')
    .addColumn('chat_id', 'integer', (c) => c.references('chats.id').onDelete('set null'))
    .execute();
}
