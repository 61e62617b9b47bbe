// Members, phone numbers and ad fields for the suites: rows written straight into the database (tests/db)
// and the fields of a complete ad form (the HTTP helpers in tests/support/ads.ts and the sweep).
import type { DB } from '../../server/db/index.ts';
import type { AdInput } from '../../server/domain/ads/placing.ts';

let members = 0;

/** A Libyan mobile number nobody else in the test has (most likely). */
export const testPhoneNumber = () => `+21893${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

/**
 * A member row. By default with a confirmed phone number (placing an ad needs one); `phone: null`
 * for none, `verified: false` for a number never confirmed.
 */
export async function insertMember(
  db: DB,
  options: { name?: string; phone?: string | null; verified?: boolean } = {},
): Promise<{ id: string; ip: string; userAgent: string }> {
  const name = options.name ?? `m${++members}`;
  const id = `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const phone = options.phone === undefined ? testPhoneNumber() : options.phone;
  await db
    .insertInto('users')
    .values({
      id,
      name,
      email: `${id}@example.ly`,
      phone_number: phone,
      phone_number_verified: phone !== null && options.verified !== false,
    } as never)
    .execute();
  return { id, ip: '10.0.0.1', userAgent: 'test' };
}

/** A complete ad for the Toyota category in `cityId`, offering calls; `over` changes any field. */
export const toyotaAdInput = (cityId: number, over: Partial<AdInput> = {}): AdInput => ({
  title: 'Toyota Corolla 2015',
  description: 'Clean car, one owner, full service history in Tripoli.',
  price_type: 'fixed',
  price: 45000,
  currency: 'LYD',
  city: cityId,
  contact_phone: true,
  contact_whatsapp: false,
  photos: [],
  submission_key: `key-${Math.random()}`,
  attrs: { year: 2015, model: 'corolla' },
  ...over,
});

/** The text fields of a complete Toyota ad as a form posts them (city 1: the first seeded city). */
export const TOYOTA_AD_FORM = {
  title: 'Toyota Corolla 2015',
  description: 'Clean car, one owner, full service history in Tripoli.',
  price_type: 'fixed',
  price: '45000',
  currency: 'LYD',
  city: '1',
} as const;
