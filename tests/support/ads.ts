// Members and ads for HTTP tests: a registered member's browser, a Toyota ad placed through the
// real form, and a shortcut to publish it (as a moderator would) with a chosen last bump.
import { expect } from 'vitest';
import { TOYOTA_AD_FORM, testPhoneNumber } from './ad-fixtures.ts';
import { type Browser, browser } from './http-browser.ts';
import { registerAndSignIn } from './members.ts';
import { serverSql as sql } from './server-db.ts';

/**
 * A new member, signed in. With a confirmed phone number unless `phone: false`: placing an ad needs
 * one (server/domain/ads/placing.ts), so it is written straight into the database as an SMS code would.
 */
export async function member(prefix = 'member', options: { phone?: boolean } = {}): Promise<Browser> {
  const b = browser();
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await registerAndSignIn(b, { name: 'Member', email, password: 'member-passphrase' });
  if (options.phone !== false) {
    sql(
      'update users set phone_number = ?, phone_number_verified = ? where email = ? returning id',
      testPhoneNumber(),
      1,
      email,
    );
  }
  return b;
}

export const cityId = (slug: string) =>
  sql<{ id: number }>('select id from cities where slug = ?', slug)[0]?.id as number;

/** The fields of a complete Toyota ad in Tripoli, as the form posts them. */
export function toyotaForm(title: string, over: Record<string, string | string[]> = {}) {
  return {
    ...TOYOTA_AD_FORM,
    title,
    city: String(cityId('tripoli')),
    'attrs.year': '2015',
    'attrs.model': 'corolla',
    contact_phone: 'on',
    submission_key: `k-${Math.random()}`,
    ...over,
  };
}

export interface PlacedTestAd {
  id: number;
  slug: string;
  /** The public page. */
  url: string;
  /** The owner's page. */
  own: string;
}

export async function placeToyota(
  b: Browser,
  title = 'Toyota Corolla 2015 clean',
  over: Record<string, string | string[]> = {},
): Promise<PlacedTestAd> {
  const res = await b.post('/en/place-your-ad/motors/cars/toyota', toyotaForm(title, over));
  const id = Number(/placed=(\d+)/.exec(res.headers.get('location') ?? '')?.[1]);
  expect(id, `placing "${title}" answered ${res.status}`).toBeGreaterThan(0);
  return adRef(id);
}

export function adRef(id: number): PlacedTestAd {
  const slug = sql<{ slug: string }>('select slug from ads where id = ?', id)[0]?.slug as string;
  return { id, slug, url: `/en/motors/toyota/${slug}-${id}`, own: `/en/profile/posts/motors/toyota/${slug}-${id}` };
}

/** Publishes the ad directly in the database, last bumped `bumpedDaysAgo` days ago. */
export function publish(id: number, bumpedDaysAgo = 0) {
  const day = 86_400_000;
  sql(
    "update ads set status = 'published', published_at = ?, bumped_at = ?, expires_at = ?, updated_at = ? where id = ? returning id",
    new Date(Date.now() - bumpedDaysAgo * day).toISOString(),
    new Date(Date.now() - bumpedDaysAgo * day).toISOString(),
    new Date(Date.now() + 20 * day).toISOString(),
    new Date().toISOString(),
    id,
  );
}

export const adStatus = (id: number) => sql<{ status: string }>('select status from ads where id = ?', id)[0]?.status;
