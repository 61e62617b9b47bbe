// How buyers reach a seller, on both dialects: an ad offers calls and/or WhatsApp only with the
// seller's confirmed phone number (refused otherwise, changing nothing), the ad page derives what
// it shows from the seller's number as it is now, and the number itself reaches a member only
// through revealSellerPhone (published ads, the channel offered, limited and counted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adFormSchema } from '~/lib/validation/ads.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toNumber } from '../../server/db/values.ts';
import { type AdInput, createAd, resolveCategoryPath, updateAd } from '../../server/domain/ads/placing.ts';
import { confirmedPhone } from '../../server/domain/ads/rules.ts';
import { moveAd } from '../../server/domain/ads/status.ts';
import {
  adAudience,
  loadAdView,
  PHONE_REVEAL_LIMIT,
  recordAdView,
  revealSellerPhone,
} from '../../server/domain/ads/view.ts';
import { type Attribute, listCategoryAttributes } from '../../server/domain/catalog.ts';
import { Invalid, NotFound, TooManyRequests } from '../../server/domain/errors.ts';
import { insertMember, TOYOTA_AD_FORM, testPhoneNumber, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('contact options on %s', (dialect) => {
  let t: TestDatabase;
  let attributes: Attribute[];
  let cityId: number;
  const _n = 0;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    attributes = await listCategoryAttributes(t.db, 'toyota');
    cityId = (await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.drop());

  /** A member; `phone` is their number, `verified` whether it was confirmed by SMS code. */
  const member = (phone: string | null = null, verified = phone !== null) => insertMember(t.db, { phone, verified });
  const number = testPhoneNumber;
  const input = (over: Partial<AdInput> = {}): AdInput => toyotaAdInput(cityId, over);
  const toyota = () => resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']);
  const place = async (actor: { id: string }, over: Partial<AdInput> = {}) =>
    createAd(t.db, { moderation: 'post' }, actor, await toyota(), attributes, input(over));
  const errorsOf = (error: unknown) => (error instanceof Invalid ? error.errors : error);
  const adsOf = async (userId: string) =>
    (await t.db.selectFrom('ads').select('id').where('user_id', '=', userId).execute()).length;

  it('the form asks for calls or WhatsApp, and for a confirmed number first', () => {
    const valid = {
      ...TOYOTA_AD_FORM,
      submission_key: 'k1',
      attrs: { year: '2015', model: 'corolla' },
    };
    const issues = (form: Record<string, unknown>, confirmedPhone?: boolean) => {
      const r = adFormSchema(attributes, { confirmedPhone }).safeParse(form);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(issues({ ...valid, contact_whatsapp: 'on' })).toEqual([]);
    expect(issues(valid)).toEqual(['contact_phone: contact-required']);
    expect(issues({ ...valid, contact_phone: 'on' }, false)).toEqual(['contact_phone: phone-unconfirmed']);
  });

  it('refuses calls or WhatsApp without a confirmed number, whatever is sent, and places nothing', async () => {
    for (const seller of [await member(), await member(number(), false)]) {
      expect(await confirmedPhone(t.db, seller.id)).toBeNull();
      const phone = await place(seller).catch(errorsOf);
      expect(phone).toEqual({ contact_phone: ['phone-unconfirmed'] });
      const both = await place(seller, { contact_whatsapp: true }).catch(errorsOf);
      expect(both).toEqual({ contact_phone: ['phone-unconfirmed'], contact_whatsapp: ['phone-unconfirmed'] });
      // Neither: nobody could reach the seller at all.
      const none = await place(seller, { contact_phone: false }).catch(errorsOf);
      expect(none).toEqual({ contact_phone: ['phone-unconfirmed'] });
      expect(await adsOf(seller.id)).toBe(0);
    }
    const confirmed = await member(number());
    expect(await place(confirmed, { contact_phone: false }).catch(errorsOf)).toEqual({
      contact_phone: ['contact-required'],
    });
    const placed = await place(confirmed, { contact_phone: false, contact_whatsapp: true });
    expect(placed.status).toBe('published');
  });

  it('refuses an edit offering calls or WhatsApp once the number is gone, and changes nothing', async () => {
    const phone = number();
    const seller = await member(phone);
    const ad = await place(seller, { contact_whatsapp: true });
    await t.db
      .updateTable('users')
      .set({ phone_number: null, phone_number_verified: false })
      .where('id', '=', seller.id)
      .execute();
    const before = await t.db.selectFrom('ads').selectAll().where('id', '=', ad.id).executeTakeFirstOrThrow();
    const { submission_key: _, ...edit } = input({ title: 'Toyota Corolla 2015, new tyres', contact_whatsapp: true });
    const refused = await updateAd(t.db, { moderation: 'post' }, seller, ad.id, attributes, edit).catch(errorsOf);
    expect(refused).toEqual({ contact_phone: ['phone-unconfirmed'], contact_whatsapp: ['phone-unconfirmed'] });
    expect(await t.db.selectFrom('ads').selectAll().where('id', '=', ad.id).executeTakeFirstOrThrow()).toEqual(before);
    expect(
      await t.db.selectFrom('revisions').select('action').where('subject_id', '=', String(ad.id)).execute(),
    ).toEqual([{ action: 'create' }]);
  });

  it('shows only the options that work now, and never the number', async () => {
    const phone = number();
    const seller = await member(phone);
    const ad = await place(seller, { contact_whatsapp: true });
    const view = await loadAdView(t.db, ad.id);
    expect(view.contact).toEqual({ phone: true, whatsapp: true, chat: true });
    expect(JSON.stringify(view)).not.toContain(phone.slice(1));

    // The number is unconfirmed, then removed: the page offers neither, and the chat stays.
    await t.db.updateTable('users').set({ phone_number_verified: false }).where('id', '=', seller.id).execute();
    expect((await loadAdView(t.db, ad.id)).contact).toEqual({ phone: false, whatsapp: false, chat: true });
    await t.db.updateTable('users').set({ phone_number: null }).where('id', '=', seller.id).execute();
    expect((await loadAdView(t.db, ad.id)).contact).toEqual({ phone: false, whatsapp: false, chat: true });
    await expect(revealSellerPhone(t.db, ad.id, 'someone', 'whatsapp')).rejects.toThrow(NotFound);
    // A banned seller is reached by no one.
    await t.db.updateTable('users').set({ banned_at: new Date() }).where('id', '=', seller.id).execute();
    expect((await loadAdView(t.db, ad.id)).contact).toEqual({ phone: false, whatsapp: false, chat: false });
  });

  it('reveals the number for the channel offered, on published ads only, limited and counted', async () => {
    const phone = number();
    const seller = await member(phone);
    const callsOnly = await place(seller);
    const viewer = (await member()).id;
    const reveals = async () =>
      toNumber(
        (await t.db.selectFrom('ads').select('phone_reveals').where('id', '=', callsOnly.id).executeTakeFirstOrThrow())
          .phone_reveals,
      );

    expect(await revealSellerPhone(t.db, callsOnly.id, viewer, 'phone')).toBe(phone);
    expect(await reveals()).toBe(1);
    await expect(revealSellerPhone(t.db, callsOnly.id, viewer, 'whatsapp')).rejects.toThrow(NotFound);
    await expect(revealSellerPhone(t.db, 987654321, viewer, 'phone')).rejects.toThrow(NotFound);
    await moveAd(t.db, await member(), callsOnly.id, 'reject', { reason: 'duplicate' });
    await expect(revealSellerPhone(t.db, callsOnly.id, viewer, 'phone')).rejects.toThrow(NotFound);
    expect(await reveals()).toBe(1);

    // Calls and WhatsApp share one limit per member.
    const both = await place(seller, { contact_whatsapp: true });
    const greedy = (await member()).id;
    for (let i = 0; i < PHONE_REVEAL_LIMIT.limit; i++) {
      await revealSellerPhone(t.db, both.id, greedy, i % 2 ? 'phone' : 'whatsapp');
    }
    await expect(revealSellerPhone(t.db, both.id, greedy, 'whatsapp')).rejects.toThrow(TooManyRequests);
    expect(
      toNumber(
        (await t.db.selectFrom('ads').select('phone_reveals').where('id', '=', both.id).executeTakeFirstOrThrow())
          .phone_reveals,
      ),
    ).toBe(PHONE_REVEAL_LIMIT.limit);
  });

  it('shows an ad to whom it should, and counts a view when it should', async () => {
    const seller = await member(number());
    const buyer = await member();
    const { id } = await place(seller);
    const ad = await loadAdView(t.db, id);
    expect(ad.status).toBe('published');
    expect(adAudience(ad, null)).toEqual({ owner: false, staff: false, visible: true });
    expect(adAudience(ad, { id: seller.id, staff: false })).toMatchObject({ owner: true, visible: true });
    await moveAd(t.db, { id: seller.id, ip: '', userAgent: '' }, id, 'reject', { reason: 'other' });
    const rejected = await loadAdView(t.db, id);
    expect(adAudience(rejected, null).visible).toBe(false);
    expect(adAudience(rejected, { id: buyer.id, staff: false }).visible).toBe(false);
    expect(adAudience(rejected, { id: buyer.id, staff: true }).visible).toBe(true);
    expect(adAudience(rejected, { id: seller.id, staff: false }).visible).toBe(true);

    const live = { id, status: 'published' as const, sellerId: seller.id };
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
    const views = async () =>
      toNumber((await t.db.selectFrom('ads').select('views').where('id', '=', id).executeTakeFirstOrThrow()).views);
    const before = await views();
    // The owner, a crawler and an ad that is not live do not count; a visitor counts once a day.
    expect(await recordAdView(t.db, live, { userId: seller.id, ip: '1.1.1.1', userAgent: browser })).toBe(false);
    expect(await recordAdView(t.db, live, { userId: null, ip: '1.1.1.1', userAgent: 'Googlebot/2.1' })).toBe(false);
    expect(
      await recordAdView(t.db, { ...live, status: 'rejected' }, { userId: buyer.id, ip: '', userAgent: browser }),
    ).toBe(false);
    expect(await recordAdView(t.db, live, { userId: buyer.id, ip: '2.2.2.2', userAgent: browser })).toBe(true);
    expect(await recordAdView(t.db, live, { userId: buyer.id, ip: '3.3.3.3', userAgent: browser })).toBe(false);
    expect(await recordAdView(t.db, live, { userId: null, ip: '2.2.2.2', userAgent: browser })).toBe(true);
    expect(await views()).toBe(before + 2);
  });
});
