// Chats (server/domain/chats/) on every dialect: one chat per ad and buyer, started with a first
// message (text, quick reply or offer) on a live ad of someone else; messages stored with their
// counters and told only after the commit; bad input, strangers, closed chats and blocks refused
// with nothing stored; idempotency keys; read receipts and unread counts; offers and their answers;
// the list with its archive; the catch-up cursor; reports; safety flags; rate limits; and the relay
// that publishes on the chat's presence channel and the members' own channels.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { createAd, resolveCategoryPath } from '../../server/domain/ads/placing.ts';
import { listCategoryAttributes } from '../../server/domain/catalog.ts';
import {
  CHAT_START_LIMIT,
  chatIdForAd,
  chatStartState,
  countUnreadChats,
  isChatMember,
  listChats,
  loadThread,
  startChat,
} from '../../server/domain/chats/chats.ts';
import { type ChatChange, onChatChange } from '../../server/domain/chats/events.ts';
import {
  blockChatMember,
  reportChatMember,
  setChatArchived,
  unblockChatMember,
} from '../../server/domain/chats/members.ts';
import {
  answerOffer,
  CHAT_MESSAGE_LIMIT,
  markChatRead,
  messagesAfter,
  sendMessage,
} from '../../server/domain/chats/messages.ts';
import { textSafetyFlags } from '../../server/domain/chats/safety.ts';
import { Forbidden, Invalid, NotFound, TooManyRequests } from '../../server/domain/errors.ts';
import { createLogger } from '../../server/logger.ts';
import { channelGrant } from '../../server/realtime/channels.ts';
import { relayChats } from '../../server/realtime/chats.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe('safety flags (both languages, Arabic normalised)', () => {
  it.each([
    ['Please send a deposit first', ['payment']],
    ['I need a DEPOSIT by Western Union', ['payment']],
    ['ابعث العربون وأحجزها لك', ['payment']],
    ['ادفع عُربوناً الآن', ['payment']],
    ['بالحوالة فقط', ['payment']],
    ['حوالة بنكية من فضلك', ['payment']],
    ['ويسترن يونيون', ['payment']],
    ['see www.example.com for photos', ['link']],
    ['https://bit.ly/abc', ['link']],
    ['t.me/seller', ['link']],
    ['call me 091-234-5678', ['phone']],
    ['رقمي ٠٩١٢٣٤٥٦٧٨', ['phone']],
    ['+218 91 234 5678 or deposit', ['payment', 'phone']],
    ['Is it still available?', []],
    ['السعر حوالي 45000 دينار', []],
    ['The price is 45,000 LYD, model 2015', []],
  ])('%s', (text, flags) => {
    expect(textSafetyFlags(text)).toEqual(flags);
  });
});

describe.each(dialects)('chats on %s', (dialect) => {
  let t: TestDatabase;
  let cityId: number;
  const heard: ChatChange[] = [];
  let stop: () => void;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    cityId = (await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow()).id;
    stop = onChatChange((c) => heard.push(c));
  });
  afterEach(() => {
    heard.length = 0;
  });
  afterAll(async () => {
    stop();
    await t.drop();
  });

  const member = (name?: string) => insertMember(t.db, { name });
  /** A live ad of `owner` (published straight in the database, as a moderator's approval would). */
  const liveAd = async (owner: { id: string }, over: Parameters<typeof toyotaAdInput>[1] = {}) => {
    const ad = await createAd(
      t.db,
      { moderation: 'pre' },
      owner,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      await listCategoryAttributes(t.db, 'toyota'),
      toyotaAdInput(cityId, over),
    );
    await setStatus(ad.id, 'published');
    return ad;
  };
  const setStatus = (adId: number, status: 'published' | 'sold' | 'expired' | 'deleted' | 'pending') =>
    t.db.updateTable('ads').set({ status }).where('id', '=', adId).execute();
  const countRows = async (table: 'chats' | 'chat_messages', chatId?: number) => {
    let q = t.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (chatId !== undefined) q = q.where(table === 'chats' ? 'id' : 'chat_id', '=', chatId) as typeof q;
    return Number((await q.executeTakeFirst())?.n ?? 0);
  };
  const text = (body: string) => ({ kind: 'text' as const, body });

  it('starts one chat per ad and buyer with its first message, told after the commit', async () => {
    const seller = await member('seller');
    const buyer = await member('buyer');
    const ad = await liveAd(seller);
    const first = await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('  Is it still available?  '));
    expect(first.created).toBe(true);
    expect(first.message).toMatchObject({ kind: 'text', body: 'Is it still available?', sender_id: buyer.id });
    const chatId = first.message.chat_id;
    expect(await chatIdForAd(t.db, ad.id, buyer.id)).toBe(chatId);
    expect(heard).toEqual([
      { kind: 'message', chatId, message: first.message, senderId: buyer.id, recipientId: seller.id },
    ]);
    // The seller has one unread chat; the buyer none (their own message is read by them).
    expect(await countUnreadChats(t.db, seller.id)).toBe(1);
    expect(await countUnreadChats(t.db, buyer.id)).toBe(0);
    // Writing again from the ad joins the same chat.
    const again = await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, { kind: 'offer', amount: 40000 });
    expect(again.created).toBe(false);
    expect(again.message.chat_id).toBe(chatId);
    expect(again.message.offer).toEqual({ amount: 40000, currency: 'LYD', status: 'pending' });
    const sellerView = await loadThread(t.db, seller.id, chatId);
    expect(sellerView.me.unread).toBe(2);
    expect(sellerView.role).toBe('seller');
    expect(sellerView.other?.id).toBe(buyer.id);
    expect(sellerView.messages.map((m) => m.kind)).toEqual(['text', 'offer']);
    expect(await isChatMember(t.db, seller.id, chatId)).toBe(true);
    expect(await isChatMember(t.db, (await member()).id, chatId)).toBe(false);
  });

  it('refuses a chat with yourself, on ads that are not live, and with a seller who is gone, storing nothing', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await liveAd(seller);
    const before = await countRows('chats');
    await expect(startChat(t.db, { adId: ad.id, buyerId: seller.id }, text('hi'))).rejects.toThrow(
      new Forbidden('chats.errors.own-ad'),
    );
    for (const status of ['sold', 'expired', 'deleted', 'pending'] as const) {
      await setStatus(ad.id, status);
      await expect(startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('hi'))).rejects.toThrow(
        new Forbidden('chats.errors.ad-unavailable'),
      );
    }
    await setStatus(ad.id, 'published');
    await t.db.updateTable('users').set({ banned_at: new Date() }).where('id', '=', seller.id).execute();
    await expect(startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('hi'))).rejects.toBeInstanceOf(Forbidden);
    await expect(startChat(t.db, { adId: 999_999_999, buyerId: buyer.id }, text('hi'))).rejects.toBeInstanceOf(
      NotFound,
    );
    expect(await countRows('chats')).toBe(before);
    expect(heard).toEqual([]);
  });

  it('refuses bad input and strangers with nothing stored', async () => {
    const seller = await member();
    const buyer = await member();
    const stranger = await member();
    const ad = await liveAd(seller);
    await expect(startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('   '))).rejects.toThrow(Invalid);
    expect(await countRows('chats')).toBeGreaterThanOrEqual(0);
    expect(await chatIdForAd(t.db, ad.id, buyer.id)).toBeNull();
    const { message } = await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('hello'));
    const chatId = message.chat_id;
    const rows = await countRows('chat_messages', chatId);
    const refused = async (promise: Promise<unknown>, kind: unknown, field?: string) => {
      const error = await promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(kind as never);
      if (field) expect(Object.keys((error as Invalid).errors)).toEqual([field]);
    };
    await refused(sendMessage(t.db, { chatId, senderId: buyer.id }, text('')), Invalid, 'body');
    await refused(sendMessage(t.db, { chatId, senderId: buyer.id }, text('x'.repeat(2001))), Invalid, 'body');
    // 2000 characters of Arabic (two bytes each) are fine.
    await sendMessage(t.db, { chatId, senderId: buyer.id }, text('ب'.repeat(2000)));
    await refused(sendMessage(t.db, { chatId, senderId: stranger.id }, text('hi')), NotFound);
    await refused(sendMessage(t.db, { chatId: 999_999_999, senderId: buyer.id }, text('hi')), NotFound);
    await refused(sendMessage(t.db, { chatId, senderId: buyer.id }, { kind: 'offer', amount: 0 }), Invalid, 'amount');
    await refused(loadThread(t.db, stranger.id, chatId), NotFound);
    await refused(markChatRead(t.db, stranger.id, chatId), NotFound);
    await refused(messagesAfter(t.db, stranger.id, chatId, 0), NotFound);
    expect(await countRows('chat_messages', chatId)).toBe(rows + 1);
  });

  it('keeps a chat on a sold ad open and closes one whose ad was deleted', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await liveAd(seller);
    const { message } = await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('hello'));
    const chatId = message.chat_id;
    await setStatus(ad.id, 'sold');
    await sendMessage(t.db, { chatId, senderId: seller.id }, text('Sold to you, come tomorrow'));
    // No offers on a sold ad.
    await expect(sendMessage(t.db, { chatId, senderId: buyer.id }, { kind: 'offer', amount: 100 })).rejects.toThrow(
      new Forbidden('chats.errors.offer-unavailable'),
    );
    await setStatus(ad.id, 'deleted');
    const thread = await loadThread(t.db, buyer.id, chatId);
    expect(thread.reply).toBe('closed');
    expect(thread.messages).toHaveLength(2);
    await expect(sendMessage(t.db, { chatId, senderId: buyer.id }, text('still there?'))).rejects.toThrow(
      new Forbidden('chats.errors.closed'),
    );
    expect(await countRows('chat_messages', chatId)).toBe(2);
  });

  it('stores a message once per idempotency key, however often it is retried', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await liveAd(seller);
    const first = await startChat(t.db, { adId: ad.id, buyerId: buyer.id, clientKey: 'key-start-0001' }, text('hi'));
    const retry = await startChat(t.db, { adId: ad.id, buyerId: buyer.id, clientKey: 'key-start-0001' }, text('hi'));
    expect(retry.message.id).toBe(first.message.id);
    const chatId = first.message.chat_id;
    heard.length = 0;
    const input = { chatId, senderId: buyer.id, clientKey: 'key-message-01' };
    const [a, b] = await Promise.all([
      sendMessage(t.db, input, text('offline message')),
      sendMessage(t.db, input, text('offline message')),
    ]);
    const c = await sendMessage(t.db, input, text('offline message'));
    expect(new Set([a.message.id, b.message.id, c.message.id]).size).toBe(1);
    expect([a.duplicate, b.duplicate, c.duplicate].filter((d) => !d)).toHaveLength(1);
    expect(await countRows('chat_messages', chatId)).toBe(2);
    expect(heard.filter((h) => h.kind === 'message')).toHaveLength(1);
    expect((await loadThread(t.db, seller.id, chatId)).me.unread).toBe(2);
  });

  it('marks read with receipts, never moving back, and counts what is left', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await liveAd(seller);
    const one = await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('one'));
    const chatId = one.message.chat_id;
    const two = await sendMessage(t.db, { chatId, senderId: buyer.id }, text('two'));
    await sendMessage(t.db, { chatId, senderId: buyer.id }, text('three'));
    heard.length = 0;
    const partly = await markChatRead(t.db, seller.id, chatId, two.message.id);
    expect(partly).toEqual({ last_read_message_id: two.message.id, unread: 1, changed: true });
    expect(heard).toEqual([{ kind: 'read', chatId, readerId: seller.id, lastReadId: two.message.id }]);
    // A mark before the current one changes nothing.
    expect((await markChatRead(t.db, seller.id, chatId, one.message.id)).changed).toBe(false);
    const all = await markChatRead(t.db, seller.id, chatId);
    expect(all.unread).toBe(0);
    expect(await countUnreadChats(t.db, seller.id)).toBe(0);
    const buyerView = await loadThread(t.db, buyer.id, chatId);
    expect(buyerView.other?.last_read_message_id).toBe(all.last_read_message_id);
    expect(buyerView.messages.every((m) => m.read_at !== null)).toBe(true);
    // The seller's own reply is not unread for them, and is for the buyer.
    await sendMessage(t.db, { chatId, senderId: seller.id }, text('yes'));
    expect(await countUnreadChats(t.db, seller.id)).toBe(0);
    expect(await countUnreadChats(t.db, buyer.id)).toBe(1);
    const last = (await loadThread(t.db, buyer.id, chatId)).messages.at(-1);
    expect(last?.read_at).toBeNull();
  });

  it('answers a reconnecting client what came after its cursor, in order', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await liveAd(seller);
    const first = await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('m0'));
    const chatId = first.message.chat_id;
    for (let i = 1; i <= 4; i++)
      await sendMessage(t.db, { chatId, senderId: i % 2 ? seller.id : buyer.id }, text(`m${i}`));
    const after = await messagesAfter(t.db, buyer.id, chatId, first.message.id, 2);
    expect(after.messages.map((m) => m.body)).toEqual(['m1', 'm2']);
    expect(after.more).toBe(true);
    const rest = await messagesAfter(t.db, buyer.id, chatId, after.messages[1]?.id ?? 0);
    expect(rest.messages.map((m) => m.body)).toEqual(['m3', 'm4']);
    expect(rest.more).toBe(false);
  });

  it('lets the seller accept or decline an offer once; a newer offer replaces a pending one', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await liveAd(seller);
    const first = await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, { kind: 'offer', amount: 40000 });
    const chatId = first.message.chat_id;
    const second = await sendMessage(t.db, { chatId, senderId: buyer.id }, { kind: 'offer', amount: 42000 });
    let thread = await loadThread(t.db, seller.id, chatId);
    expect(thread.messages.map((m) => m.offer?.status)).toEqual(['replaced', 'pending']);
    // The seller makes no offers; the buyer answers none.
    await expect(
      sendMessage(t.db, { chatId, senderId: seller.id }, { kind: 'offer', amount: 1 }),
    ).rejects.toBeInstanceOf(Forbidden);
    await expect(
      answerOffer(t.db, { chatId, userId: buyer.id, messageId: second.message.id, decision: 'accept' }),
    ).rejects.toThrow(new Forbidden('chats.errors.offer-not-yours'));
    await expect(
      answerOffer(t.db, { chatId, userId: seller.id, messageId: first.message.id, decision: 'accept' }),
    ).rejects.toThrow(new Forbidden('chats.errors.offer-answered'));
    heard.length = 0;
    const answer = await answerOffer(t.db, {
      chatId,
      userId: seller.id,
      messageId: second.message.id,
      decision: 'accept',
    });
    expect(answer.message).toMatchObject({ kind: 'offer-accepted', reply_to_id: second.message.id });
    expect(answer.message.offer?.amount).toBe(42000);
    expect(heard.map((h) => h.kind)).toEqual(['message-updated', 'message']);
    await expect(
      answerOffer(t.db, { chatId, userId: seller.id, messageId: second.message.id, decision: 'decline' }),
    ).rejects.toThrow(new Forbidden('chats.errors.offer-answered'));
    thread = await loadThread(t.db, buyer.id, chatId);
    expect(thread.messages.map((m) => m.offer?.status ?? m.kind)).toEqual(['replaced', 'accepted', 'offer-accepted']);
    expect(thread.me.unread).toBe(1);
    // No offers on an ad given away.
    const free = await liveAd(seller, { price_type: 'free', price: undefined });
    expect((await chatStartState(t.db, buyer.id, free.id)).can_offer).toBe(false);
    await expect(startChat(t.db, { adId: free.id, buyerId: buyer.id }, { kind: 'offer', amount: 5 })).rejects.toThrow(
      new Forbidden('chats.errors.offer-unavailable'),
    );
  });

  it('lists chats newest first a page at a time, with an archive a new message leaves', async () => {
    const seller = await member();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const buyer = await member(`b${i}`);
      const ad = await liveAd(seller, { title: `Corolla number ${i}` });
      ids.push((await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text(`hello ${i}`))).message.chat_id);
    }
    const page1 = await listChats(t.db, seller.id, { limit: 2 });
    expect(page1.items.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    expect(page1.items[0]).toMatchObject({
      role: 'seller',
      unread: 1,
      last: { kind: 'text', body: 'hello 2', mine: false },
      ad: { title: 'Corolla number 2', status: 'published' },
    });
    const page2 = await listChats(t.db, seller.id, { limit: 2, before: page1.next });
    expect(page2.items.map((c) => c.id)).toEqual([ids[0]]);
    expect(page2.next).toBeNull();
    await setChatArchived(t.db, seller.id, ids[1] as number, true);
    expect((await listChats(t.db, seller.id)).items.map((c) => c.id)).toEqual([ids[2], ids[0]]);
    expect((await listChats(t.db, seller.id, { archived: true })).items.map((c) => c.id)).toEqual([ids[1]]);
    // The buyer writes again: back in the seller's inbox, on top.
    const buyer1 = (await loadThread(t.db, seller.id, ids[1] as number)).other?.id as string;
    await sendMessage(t.db, { chatId: ids[1] as number, senderId: buyer1 }, text('still there?'));
    expect((await listChats(t.db, seller.id)).items.map((c) => c.id)).toEqual([ids[1], ids[2], ids[0]]);
  });

  it('blocks: the blocked member is told only that they cannot reply; no new chat between them', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await liveAd(seller);
    const other = await liveAd(seller, { title: 'Another Corolla for sale' });
    const chatId = (await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('hello'))).message.chat_id;
    await blockChatMember(t.db, seller.id, chatId);
    await blockChatMember(t.db, seller.id, chatId);
    expect((await loadThread(t.db, buyer.id, chatId)).reply).toBe('blocked');
    expect((await loadThread(t.db, seller.id, chatId)).reply).toBe('blocked-by-me');
    await expect(sendMessage(t.db, { chatId, senderId: buyer.id }, text('why?'))).rejects.toThrow(
      new Forbidden('chats.errors.cant-reply'),
    );
    await expect(sendMessage(t.db, { chatId, senderId: seller.id }, text('bye'))).rejects.toThrow(
      new Forbidden('chats.errors.you-blocked'),
    );
    await expect(startChat(t.db, { adId: other.id, buyerId: buyer.id }, text('hi'))).rejects.toThrow(
      new Forbidden('chats.errors.cant-reply'),
    );
    expect(await countRows('chat_messages', chatId)).toBe(1);
    await unblockChatMember(t.db, seller.id, chatId);
    await sendMessage(t.db, { chatId, senderId: buyer.id }, text('thanks'));
    expect((await loadThread(t.db, buyer.id, chatId)).reply).toBe('open');
  });

  it('reports the other member naming the chat, one open report per chat', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await liveAd(seller);
    const chatId = (await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('send a deposit'))).message.chat_id;
    await reportChatMember(t.db, seller.id, chatId, { reason: 'scam', note: 'asks for money' });
    await reportChatMember(t.db, seller.id, chatId, { reason: 'spam' });
    const reports = await t.db
      .selectFrom('reports')
      .select(['user_id', 'chat_id', 'reason', 'note', 'ad_id'])
      .where('reporter_id', '=', seller.id)
      .execute();
    expect(reports).toEqual([{ user_id: buyer.id, chat_id: chatId, reason: 'spam', note: null, ad_id: null }]);
  });

  it('flags messages for the recipient: payment words, links, numbers and new accounts', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await liveAd(seller);
    const chatId = (await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('Is it available?'))).message
      .chat_id;
    // insertMember makes accounts now: new.
    expect((await loadThread(t.db, seller.id, chatId)).messages[0]?.flags).toEqual(['new-account']);
    await t.db
      .updateTable('users')
      .set({ created_at: new Date(Date.now() - 30 * 86_400_000) })
      .where('id', 'in', [seller.id, buyer.id])
      .execute();
    const sent = await sendMessage(t.db, { chatId, senderId: seller.id }, text('ادفع العربون على 0912345678'));
    expect(sent.message.flags).toEqual(['payment', 'phone']);
    const plain = await sendMessage(t.db, { chatId, senderId: buyer.id }, text('See you tomorrow'));
    expect(plain.message.flags).toEqual([]);
  });

  it('limits messages and new chats per member', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await liveAd(seller);
    const chatId = (await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('first'))).message.chat_id;
    const now = Date.now();
    await t.db
      .insertInto('rate_limits')
      .values({ key: `${CHAT_MESSAGE_LIMIT.name}:${buyer.id}`, hits: CHAT_MESSAGE_LIMIT.limit, reset_at: now + 60_000 })
      .onConflict((oc) => oc.column('key').doUpdateSet({ hits: CHAT_MESSAGE_LIMIT.limit, reset_at: now + 60_000 }))
      .execute();
    const rows = await countRows('chat_messages', chatId);
    await expect(sendMessage(t.db, { chatId, senderId: buyer.id }, text('one more'))).rejects.toBeInstanceOf(
      TooManyRequests,
    );
    expect(await countRows('chat_messages', chatId)).toBe(rows);
    const starter = await member();
    await t.db
      .insertInto('rate_limits')
      .values({ key: `${CHAT_START_LIMIT.name}:${starter.id}`, hits: CHAT_START_LIMIT.limit, reset_at: now + 60_000 })
      .execute();
    await expect(startChat(t.db, { adId: ad.id, buyerId: starter.id }, text('hi'))).rejects.toBeInstanceOf(
      TooManyRequests,
    );
    expect(await chatIdForAd(t.db, ad.id, starter.id)).toBeNull();
  });

  it('signs presence on a chat for its two participants only, with who they are', async () => {
    const seller = await member('Seller Name');
    const buyer = await member();
    const ad = await liveAd(seller);
    const chatId = (await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('hi'))).message.chat_id;
    const grant = await channelGrant(
      t.db,
      { id: seller.id, name: 'Seller Name', image: null },
      `presence-chats.${chatId}`,
    );
    expect(JSON.parse(grant?.channelData ?? '{}')).toEqual({
      user_id: seller.id,
      user_info: { id: seller.id, name: 'Seller Name', image: null },
    });
    const stranger = await member();
    for (const channel of [
      `presence-chats.${chatId}`,
      'presence-chats.0',
      'presence-chats.abc',
      `private-users.${buyer.id}`,
    ]) {
      expect(await channelGrant(t.db, { id: stranger.id, name: 'x', image: null }, channel)).toBeNull();
    }
    expect(
      await channelGrant(t.db, { id: stranger.id, name: 'x', image: null }, `private-users.${stranger.id}`),
    ).toEqual({});
  });

  it('relays a message to the chat’s presence channel and both members’ own channels, with their counts', async () => {
    const published: { channel: string; event: string; data: unknown }[] = [];
    const logger = createLogger('silent');
    const stopRelay = relayChats(
      t.db,
      {
        trigger: async (channel, event, data) => {
          published.push({ channel: String(channel), event, data });
        },
      },
      logger,
    );
    try {
      const seller = await member();
      const buyer = await member();
      const ad = await liveAd(seller);
      const { message } = await startChat(t.db, { adId: ad.id, buyerId: buyer.id }, text('hi'));
      await expect.poll(() => published.length).toBe(3);
      // The thread first; each member's own channel after their count is read (either first).
      expect(published[0]).toEqual({
        channel: `presence-chats.${message.chat_id}`,
        event: 'message.created',
        data: { message },
      });
      const own = (id: string) => published.find((p) => p.channel === `private-users.${id}`);
      expect([own(buyer.id), own(seller.id)]).toEqual([
        {
          channel: `private-users.${buyer.id}`,
          event: 'chat.message',
          data: { chat_id: message.chat_id, message_id: message.id, from_me: true, unread: 0 },
        },
        {
          channel: `private-users.${seller.id}`,
          event: 'chat.message',
          data: { chat_id: message.chat_id, message_id: message.id, from_me: false, unread: 1 },
        },
      ]);
      published.length = 0;
      await markChatRead(t.db, seller.id, message.chat_id);
      await expect.poll(() => published.length).toBe(2);
      expect(published).toEqual([
        {
          channel: `presence-chats.${message.chat_id}`,
          event: 'chat.read',
          data: { user_id: seller.id, last_read_message_id: message.id },
        },
        { channel: `private-users.${seller.id}`, event: 'chat.read', data: { chat_id: message.chat_id, unread: 0 } },
      ]);
    } finally {
      stopRelay();
    }
  });

  it('publishes a member’s counts in the order of the changes, however long each publish takes', async () => {
    const published: { channel: string; event: string; data: unknown }[] = [];
    let slow = true;
    let sellerChannel = '';
    const stopRelay = relayChats(
      t.db,
      {
        trigger: async (channel, event, data) => {
          // The first count to reach the seller's channel takes its time: the second must wait.
          if (slow && channel === sellerChannel && event === 'chat.message') {
            slow = false;
            await new Promise((r) => setTimeout(r, 100));
          }
          published.push({ channel: String(channel), event, data });
        },
      },
      createLogger('silent'),
    );
    try {
      const seller = await member();
      sellerChannel = `private-users.${seller.id}`;
      const buyers = [await member(), await member()];
      const ad = await liveAd(seller);
      const first = await startChat(t.db, { adId: ad.id, buyerId: buyers[0]?.id as string }, text('one'));
      const second = await startChat(t.db, { adId: ad.id, buyerId: buyers[1]?.id as string }, text('two'));
      await expect.poll(() => published.length).toBe(6);
      const sellers = published.filter((p) => p.channel === sellerChannel);
      expect(sellers.map((p) => p.data)).toEqual([
        expect.objectContaining({ message_id: first.message.id }),
        { chat_id: second.message.chat_id, message_id: second.message.id, from_me: false, unread: 2 },
      ]);
    } finally {
      stopRelay();
    }
  });
});
