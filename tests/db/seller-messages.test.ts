// "Message the seller" on both dialects: every published ad whose seller reads mail can be answered,
// whatever became of the seller's phone number; the message is relayed as a mail job in the seller's
// language with neither address in it; refused (nothing enqueued) for the seller's own ad, an ad
// that is not live, a banned seller, a seller mail does not reach and a message the form refuses;
// limited per buyer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeholderEmail } from '../../server/auth/placeholder-email.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { messageSeller, SELLER_MESSAGE_LIMIT } from '../../server/domain/ads/messages.ts';
import { createAd, resolveCategoryPath } from '../../server/domain/ads/placing.ts';
import { loadAdView } from '../../server/domain/ads/view.ts';
import { type Attribute, listCategoryAttributes } from '../../server/domain/catalog.ts';
import { Invalid, NotFound, TooManyRequests } from '../../server/domain/errors.ts';
import type { MailPayload } from '../../server/mail/outbox.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const MESSAGE = 'Is the Corolla still for sale? I can come to Tripoli on Saturday.';

describe.each(dialects)('messages to sellers on %s', (dialect) => {
  let t: TestDatabase;
  let attributes: Attribute[];
  let cityId: number;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    attributes = await listCategoryAttributes(t.db, 'toyota');
    cityId = (await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.drop());

  /** A member whose address is confirmed (`mail`), in `locale`. */
  async function member(options: { mail?: boolean; locale?: string; name?: string } = {}) {
    const m = await insertMember(t.db, { name: options.name });
    await t.db
      .updateTable('users')
      .set({ email_verified: options.mail !== false, locale: options.locale ?? 'ar' } as never)
      .where('id', '=', m.id)
      .execute();
    const { email } = await t.db.selectFrom('users').select('email').where('id', '=', m.id).executeTakeFirstOrThrow();
    return { ...m, email };
  }
  const place = async (seller: { id: string }, title = 'Toyota Corolla 2015') =>
    createAd(
      t.db,
      { moderation: 'post' },
      seller,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      attributes,
      toyotaAdInput(cityId, { title }),
    );
  const adUrl = (id: number) => (locale: string) => `https://souq.example${locale === 'en' ? '/en' : ''}/ad-${id}`;
  /** The mails enqueued to `to`, newest last. */
  const mailsTo = async (to: string): Promise<MailPayload[]> => {
    const rows = await t.db
      .selectFrom('jobs')
      .select('payload')
      .where('name', '=', 'send-mail')
      .orderBy('id')
      .execute();
    return rows
      .map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as MailPayload)
      .filter((p) => p.message.to === to);
  };

  it('offers a message on every live ad of a seller who reads mail, with or without a phone', async () => {
    const seller = await member();
    const ad = await place(seller);
    expect((await loadAdView(t.db, ad.id)).contact).toEqual({ phone: true, whatsapp: false, message: true });
    // The number gone: calls go, the message stays.
    await t.db.updateTable('users').set({ phone_number: null }).where('id', '=', seller.id).execute();
    expect((await loadAdView(t.db, ad.id)).contact).toEqual({ phone: false, whatsapp: false, message: true });
    // An address never confirmed, or one of ours (phone sign-ups), is not a way to reach anyone.
    await t.db.updateTable('users').set({ email_verified: false }).where('id', '=', seller.id).execute();
    expect((await loadAdView(t.db, ad.id)).contact.message).toBe(false);
    const ours = placeholderEmail();
    await t.db.updateTable('users').set({ email_verified: true, email: ours }).where('id', '=', seller.id).execute();
    expect((await loadAdView(t.db, ad.id)).contact.message).toBe(false);
  });

  it('relays the message by mail in the seller’s language, with neither address in it', async () => {
    const seller = await member({ locale: 'en', name: 'Salem' });
    const buyer = await member({ name: 'Amal' });
    const ad = await place(seller, 'Toyota Corolla 2015 relayed');
    await messageSeller(t.db, { adId: ad.id, buyerId: buyer.id, adUrl: adUrl(ad.id) }, { message: MESSAGE });
    const [mail, ...more] = await mailsTo(seller.email);
    expect(more).toEqual([]);
    expect(mail?.kind).toBe('seller-message');
    expect(mail?.message.subject).toContain('Toyota Corolla 2015 relayed');
    expect(mail?.message.text).toContain('Amal');
    expect(mail?.message.text).toContain(MESSAGE);
    expect(mail?.message.text).toContain(`https://souq.example/en/ad-${ad.id}`);
    expect(mail?.message.replyTo).toBeUndefined();
    expect(JSON.stringify(mail)).not.toContain(buyer.email);
    // An Arabic seller reads it in Arabic, linked to the Arabic page.
    const arabic = await member({ locale: 'ar' });
    const other = await place(arabic);
    await messageSeller(t.db, { adId: other.id, buyerId: buyer.id, adUrl: adUrl(other.id) }, { message: MESSAGE });
    const [ar] = await mailsTo(arabic.email);
    expect(ar?.message.subject).toContain('رسالة عن إعلانك');
    expect(ar?.message.text).toContain(`https://souq.example/ad-${other.id}`);
  });

  it('refuses what it should and enqueues nothing', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await place(seller);
    const send = (buyerId: string, message: unknown, id = ad.id) =>
      messageSeller(t.db, { adId: id, buyerId, adUrl: adUrl(id) }, { message });
    const errors = (e: unknown) => (e instanceof Invalid ? e.errors : e);
    expect(await send(buyer.id, 'Hi').catch(errors)).toEqual({ message: ['min:10'] });
    expect(await send(buyer.id, '   ').catch(errors)).toEqual({ message: ['required'] });
    expect(await send(buyer.id, 'x'.repeat(2001)).catch(errors)).toEqual({ message: ['max:2000'] });
    await expect(send(seller.id, MESSAGE)).rejects.toThrow(NotFound);
    await expect(send(buyer.id, MESSAGE, 2_000_000_000)).rejects.toThrow(NotFound);
    await t.db.updateTable('ads').set({ status: 'sold' }).where('id', '=', ad.id).execute();
    await expect(send(buyer.id, MESSAGE)).rejects.toThrow(NotFound);
    await t.db.updateTable('ads').set({ status: 'published' }).where('id', '=', ad.id).execute();
    await t.db
      .updateTable('users')
      .set({ banned_at: new Date() } as never)
      .where('id', '=', seller.id)
      .execute();
    await expect(send(buyer.id, MESSAGE)).rejects.toThrow(NotFound);
    await t.db.updateTable('users').set({ banned_at: null }).where('id', '=', seller.id).execute();
    await t.db.updateTable('users').set({ email_verified: false }).where('id', '=', seller.id).execute();
    await expect(send(buyer.id, MESSAGE)).rejects.toThrow(NotFound);
    expect(await mailsTo(seller.email)).toEqual([]);
  });

  it('limits each buyer to SELLER_MESSAGE_LIMIT messages an hour', async () => {
    const seller = await member();
    const buyer = await member();
    const ad = await place(seller);
    const now = new Date();
    for (let i = 0; i < SELLER_MESSAGE_LIMIT.limit; i++) {
      await messageSeller(t.db, { adId: ad.id, buyerId: buyer.id, adUrl: adUrl(ad.id) }, { message: MESSAGE }, now);
    }
    await expect(
      messageSeller(t.db, { adId: ad.id, buyerId: buyer.id, adUrl: adUrl(ad.id) }, { message: MESSAGE }, now),
    ).rejects.toThrow(TooManyRequests);
    expect(await mailsTo(seller.email)).toHaveLength(SELLER_MESSAGE_LIMIT.limit);
    // Another buyer is not held back by the first.
    const other = await member();
    await messageSeller(t.db, { adId: ad.id, buyerId: other.id, adUrl: adUrl(ad.id) }, { message: MESSAGE }, now);
  });
});
