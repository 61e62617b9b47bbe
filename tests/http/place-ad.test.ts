// Place your ad over real HTTP: the drill-down, the form of a leaf category, placing (pending under
// pre-moderation), the double-submit guard and the refusals of bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { testPhoneNumber } from '../support/ad-fixtures.ts';
import { type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn } from '../support/members.ts';
import { serverSql as query } from '../support/server-db.ts';

async function member(): Promise<Browser> {
  const b = browser();
  const email = `seller-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await registerAndSignIn(b, { name: 'Seller', email, password: 'seller-passphrase' });
  // Placing an ad needs a confirmed phone number.
  query(
    'update users set phone_number = ?, phone_number_verified = 1 where email = ? returning id',
    testPhoneNumber(),
    email,
  );
  return b;
}

let tripoli: number;
beforeAll(() => {
  tripoli = query<{ id: number }>("select id from cities where slug = 'tripoli'")[0]?.id as number;
});

const FORM = '/en/place-your-ad/motors/cars/toyota';
const ad = (over: Record<string, string> = {}) => ({
  title: 'Toyota Corolla 2015',
  description: 'Clean car, one owner, full service history in Tripoli.',
  price_type: 'fixed',
  price: '45000',
  currency: 'LYD',
  city: String(tripoli),
  'attrs.year': '2015',
  'attrs.model': 'corolla',
  contact_phone: 'on',
  submission_key: `k-${Math.random()}`,
  ...over,
});

describe('place your ad', () => {
  it('sends visitors to log in first', async () => {
    const res = await browser().get(FORM);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/en/login?redirect=${encodeURIComponent(FORM)}`);
  });

  it('drills down from the sections to a leaf category, and only along real paths', async () => {
    const b = await member();
    expect(await (await b.get('/en/place-your-ad')).text()).toContain('Motors');
    const cars = await b.get('/en/place-your-ad/motors/cars');
    expect(cars.status).toBe(200);
    expect(await cars.text()).toContain('href="/en/place-your-ad/motors/cars/toyota"');
    expect((await b.get('/en/place-your-ad/property/cars/toyota')).status).toBe(404);
    expect((await b.get('/en/place-your-ad/motors/toyota')).status).toBe(404);
    const form = await (await b.get(FORM)).text();
    expect(form).toContain('name="attrs.year"');
    expect(form).toContain('name="submission_key"');
    const arabic = await (await b.get('/place-your-ad/motors/cars/toyota')).text();
    expect(arabic).toContain('أرسل للمراجعة');
  });

  it('places a pending ad once, however often the same form is sent', async () => {
    const b = await member();
    const form = ad();
    const first = await b.post(FORM, form);
    expect(first.status).toBe(302);
    const location = first.headers.get('location') ?? '';
    // To My ads, on the tab that holds it (pre-moderation: pending), with its confirmation.
    expect(location).toMatch(/^\/en\/profile\/posts\?status=pending&placed=\d+$/);
    const id = Number(/placed=(\d+)/.exec(location)?.[1]);
    expect(await (await b.get(location)).text()).toContain('Our team will review it shortly');
    const again = await b.post(FORM, form);
    expect(again.headers.get('location')).toBe(location);
    const rows = query<{ status: string; title: string }>(
      'select status, title from ads where submission_key = ?',
      form.submission_key,
    );
    expect(rows).toEqual([{ status: 'pending', title: 'Toyota Corolla 2015' }]);
    expect(query('select id from ads where id = ?', id)).toHaveLength(1);
  });

  it('refuses bad input with translated errors and creates nothing', async () => {
    const b = await member();
    const cases: [Record<string, string>, string][] = [
      [ad({ 'attrs.year': '' }), 'The Year field is required'],
      [ad({ 'attrs.year': '1900' }), 'The Year field must be at least 1960'],
      [ad({ 'attrs.model': 'ferrari-f40' }), 'The selected Model is invalid'],
      [ad({ 'attrs.bedrooms': '3' }), 'This category has no such detail'],
      [ad({ price: '' }), 'The price field is required'],
      [ad({ photos: '1,2' }), 'The data given is not valid.'],
    ];
    for (const [form, message] of cases) {
      const res = await b.post(FORM, form);
      expect(res.status, message).toBe(422);
      if (!message.startsWith('The data')) expect(await res.text(), message).toContain(message);
      expect(query('select id from ads where submission_key = ?', form.submission_key)).toEqual([]);
    }
    const arabic = await b.post('/place-your-ad/motors/cars/toyota', ad({ 'attrs.year': '' }));
    expect(await arabic.text()).toContain('حقل سنة الصنع مطلوب');
    // A category with subcategories takes no ads.
    expect((await b.post('/en/place-your-ad/motors/cars', ad())).status).toBe(404);
  });

  it('refuses posting beyond the free allowance with the reason', async () => {
    const b = await member();
    for (let i = 0; i < 5; i++) expect((await b.post(FORM, ad())).status).toBe(302);
    const sixth = await b.post(FORM, ad());
    expect(sixth.status).toBe(422);
    expect(await sixth.text()).toContain('You already have 5 active ads, the most your account may have now.');
  });
});
