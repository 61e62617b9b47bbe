// A member's public page: who they are and their published ads.
import type { BadgeChipData } from '../../app/lib/badges.ts';
import type { DB } from '../db/index.ts';
import { toBool, toIso, toNumber } from '../db/values.ts';
import { type AdCard, cardsOf, publishedCards } from './ads/cards.ts';
import { badgesOfUsers } from './badges.ts';
import { type CompanyMark, companyOfMember } from './companies/companies.ts';
import { NotFound } from './errors.ts';

export interface PublicProfile {
  id: string;
  name: string;
  image: string | null;
  member_since: string;
  city: { name_ar: string; name_en: string } | null;
  bio: string | null;
  phone_verified: boolean;
  email_verified: boolean;
  badges: BadgeChipData[];
  company: CompanyMark | null;
}

/** A member's public profile; unknown, banned or deleted members are NotFound. */
export async function loadPublicProfile(db: DB, id: string): Promise<PublicProfile> {
  const u = await db
    .selectFrom('users')
    .leftJoin('cities', 'cities.id', 'users.city_id')
    .select([
      'users.id',
      'users.name',
      'users.image',
      'users.created_at',
      'users.bio',
      'users.banned_at',
      'users.phone_number_verified',
      'users.email_verified',
      'cities.name_ar',
      'cities.name_en',
    ])
    .where('users.id', '=', id)
    .executeTakeFirst();
  if (!u || u.banned_at) throw new NotFound('errors.not-found');
  const [badges, company] = await Promise.all([badgesOfUsers(db, [u.id]), companyOfMember(db, u.id)]);
  return {
    id: u.id,
    name: u.name,
    image: u.image,
    member_since: toIso(u.created_at),
    city: u.name_ar ? { name_ar: u.name_ar, name_en: u.name_en as string } : null,
    bio: u.bio,
    phone_verified: toBool(u.phone_number_verified),
    email_verified: toBool(u.email_verified),
    badges: badges.get(u.id) ?? [],
    company,
  };
}

/** A member's published ads, newest (last bumped) first, one page, with the total and the number of pages (at least 1). */
export async function listUserAds(
  db: DB,
  userId: string,
  page: number,
): Promise<{ ads: AdCard[]; total: number; pages: number }> {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('ads')
      .where('ads.status', '=', 'published')
      .where('ads.user_id', '=', userId)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    publishedCards(db)
      .where('ads.user_id', '=', userId)
      .orderBy('ads.bumped_at', 'desc')
      .orderBy('ads.id', 'desc')
      .limit(USER_PAGE_SIZE)
      .offset((page - 1) * USER_PAGE_SIZE)
      .execute(),
  ]);
  const total = toNumber(count.n);
  return { ads: await cardsOf(db, rows), total, pages: Math.max(1, Math.ceil(total / USER_PAGE_SIZE)) };
}

/** Ads per page of a member's page. */
const USER_PAGE_SIZE = 24;
