// How buyers reach a seller, over real HTTP: the seller's number is in no page, `.data` payload or
// API answer until a signed-in member reveals it; WhatsApp goes through sign-in, the limit and the
// count (a 303 to wa.me); an ad offers calls or WhatsApp only with the seller's confirmed number,
// checked when it is placed or edited (422, translated, nothing changed) and when it is shown.
import { describe, expect, it } from 'vitest';
import { testPhoneNumber } from '../support/ad-fixtures.ts';
import { member, placeToyota, publish, toyotaForm } from '../support/ads.ts';
import { browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';

const FORM = '/en/place-your-ad/motors/cars/toyota';
const sellerOf = (adId: number) =>
  sql<{ id: string; phone: string }>(
    'select u.id, u.phone_number as phone from users u join ads a on a.user_id = u.id where a.id = ?',
    adId,
  )[0] as { id: string; phone: string };
const reveals = (adId: number) => sql<{ n: number }>('select phone_reveals as n from ads where id = ?', adId)[0]?.n;

/** A published ad offering calls and WhatsApp, and its seller's number (digits only). */
async function publishedAd(title: string, over: Record<string, string> = { contact_whatsapp: 'on' }) {
  const owner = await member('contact-seller');
  const ad = await placeToyota(owner, title, over);
  publish(ad.id);
  return { owner, ad, digits: sellerOf(ad.id).phone.replace(/\D/g, '') };
}

describe('reaching the seller', () => {
  it('keeps the number out of every page, payload and API answer until a member reveals it', async () => {
    const { ad, digits } = await publishedAd('Toyota Corolla 2015 never leaked');
    const local = digits.slice(3); // 9XXXXXXXX, as a Libyan would write it after the 0
    const seller = sellerOf(ad.id).id;
    const signedIn = await member('contact-buyer');
    const pages = [
      ad.url,
      `${ad.url}.data`,
      ad.url.replace('/en/', '/'),
      `${ad.url.replace('/en/', '/')}.data`,
      `/en/users/${seller}`,
      `/en/users/${seller}.data`,
      '/en/motors/toyota',
      '/en/posts?q=leaked',
      '/api/posts?q=leaked',
      `/api/posts/${ad.id}/card`,
      '/api/openapi.json',
    ];
    for (const who of [browser(), signedIn]) {
      for (const page of pages) {
        const res = await who.get(page);
        expect(res.status, page).toBe(200);
        const body = await res.text();
        expect(body, page).not.toContain(local);
        expect(body, page).not.toContain('wa.me');
      }
    }
    // The ad page offers both, by sign-in for a visitor.
    const anonymous = await (await browser().get(ad.url)).text();
    expect(anonymous).toContain('Log in to see the phone number');
    expect(anonymous).toContain('Log in to contact on WhatsApp');
    expect(anonymous).toContain(`/en/login?redirect=${encodeURIComponent(ad.url)}`);
    const member_ = await (await signedIn.get(ad.url)).text();
    expect(member_).toContain('Show phone number');
    expect(member_).toContain('name="intent" value="whatsapp"');
    expect(reveals(ad.id)).toBe(0);
  });

  it('sends WhatsApp through sign-in, the limit and the count', async () => {
    const { ad, digits } = await publishedAd('Toyota Corolla 2015 on WhatsApp');
    const anonymous = await browser().post(ad.url, { intent: 'whatsapp' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe(`/en/login?redirect=${encodeURIComponent(ad.url)}`);
    const arabic = ad.url.replace('/en/', '/');
    expect((await browser().post(arabic, { intent: 'whatsapp' })).headers.get('location')).toBe(
      `/login?redirect=${encodeURIComponent(arabic)}`,
    );
    expect(reveals(ad.id)).toBe(0);

    const buyer = await member('contact-buyer');
    const sent = await buyer.post(ad.url, { intent: 'whatsapp' });
    expect(sent.status).toBe(303);
    const target = new URL(sent.headers.get('location') ?? '');
    expect(target.origin + target.pathname).toBe(`https://wa.me/${digits}`);
    expect(target.searchParams.get('text')).toContain('Toyota Corolla 2015 on WhatsApp');
    expect(target.searchParams.get('text')).toContain(`${ad.url}`);
    expect(reveals(ad.id)).toBe(1);
    // Calls and WhatsApp share the member's limit.
    for (let i = 1; i < 30; i++) await buyer.post(ad.url, { intent: i % 2 ? 'reveal-phone' : 'whatsapp' });
    expect(reveals(ad.id)).toBe(30);
    const limited = await buyer.post(ad.url, { intent: 'whatsapp' });
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain('Too many attempts');
    expect(reveals(ad.id)).toBe(30);
  });

  it('offers only the channels the ad chose, and only the chat once the seller has no confirmed number', async () => {
    const { owner, ad } = await publishedAd('Toyota Corolla 2015 calls only', {});
    const buyer = await member('contact-buyer');
    expect((await buyer.post(ad.url, { intent: 'whatsapp' })).status).toBe(404);
    const before = await (await browser().get(ad.url)).text();
    expect(before).toContain('Log in to see the phone number');
    expect(before).not.toContain('Log in to contact on WhatsApp');

    sql(
      'update users set phone_number = null, phone_number_verified = 0 where id = ? returning id',
      sellerOf(ad.id).id,
    );
    const after = await (await buyer.get(ad.url)).text();
    expect(after).not.toContain('Show phone number');
    // The chat stays (tests/http/chats.test.ts).
    expect(after).toContain(`href="/en/chats/new/${ad.id}"`);
    expect((await buyer.post(ad.url, { intent: 'reveal-phone' })).status).toBe(404);
    expect(reveals(ad.id)).toBe(0);
    expect(await (await owner.get(ad.url)).text()).toContain('Buyers can only chat with you');
  });

  it('refuses calls or WhatsApp without a confirmed number, in the page language, and changes nothing', async () => {
    const b = await member('no-phone', { phone: false });
    const form = await (await b.get(FORM)).text();
    expect(form).toContain('A confirmed phone number is needed');
    expect(form).toContain(`/en/account/phone-verification?redirect=${encodeURIComponent(FORM)}`);
    for (const name of ['contact_phone', 'contact_whatsapp']) {
      expect(new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(form)?.[0]).toContain('disabled');
    }

    const refused = await b.post(FORM, toyotaForm('Toyota Corolla 2015 no phone', { contact_whatsapp: 'on' }));
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('Calls and WhatsApp need your confirmed phone number');
    const arabic = await b.post(
      '/place-your-ad/motors/cars/toyota',
      toyotaForm('Toyota Corolla 2015 no phone', { contact_phone: '' }),
    );
    expect(arabic.status).toBe(422);
    expect(await arabic.text()).toContain('الاتصال وواتساب يحتاجان إلى رقم هاتفك المؤكد');
    expect(sql('select id from ads where title = ?', 'Toyota Corolla 2015 no phone')).toEqual([]);

    // With a confirmed number, at least one of the two.
    const confirmed = await member('with-phone');
    const neither = await confirmed.post(FORM, toyotaForm('Toyota Corolla 2015 unreachable', { contact_phone: '' }));
    expect(neither.status).toBe(422);
    expect(await neither.text()).toContain('Choose at least one way for buyers to reach you');
    expect(sql('select id from ads where title = ?', 'Toyota Corolla 2015 unreachable')).toEqual([]);
  });

  it('refuses an edit offering calls or WhatsApp once the number is gone, and changes nothing', async () => {
    const { owner, ad } = await publishedAd('Toyota Corolla 2015 to edit');
    const row = () => sql('select title, contact_phone, contact_whatsapp, updated_at from ads where id = ?', ad.id);
    const before = row();
    const seller = sellerOf(ad.id).id;
    sql('update users set phone_number = null, phone_number_verified = 0 where id = ? returning id', seller);
    const edit = await owner.get(`${ad.own}/edit`);
    expect(await edit.text()).toContain('A confirmed phone number is needed');
    const fields = toyotaForm('Toyota Corolla 2015 edited', { contact_whatsapp: 'on' });
    const refused = await owner.post(`${ad.own}/edit`, fields);
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('Calls and WhatsApp need your confirmed phone number');
    expect(row()).toEqual(before);

    // Back with a confirmed number, the same edit goes through: the contact option at once, the new
    // title as a change waiting for review (docs/product/ads.md, "Editing a live ad").
    sql(
      'update users set phone_number = ?, phone_number_verified = 1 where id = ? returning id',
      testPhoneNumber(),
      seller,
    );
    expect((await owner.post(`${ad.own}/edit`, fields)).status).toBe(302);
    expect(row()[0]).toMatchObject({ title: 'Toyota Corolla 2015 to edit', contact_whatsapp: 1 });
    expect(sql('select ad_id from ad_pending_changes where ad_id = ?', ad.id)).toHaveLength(1);
  });
});
