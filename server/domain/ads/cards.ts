// Ad cards: what a listing, the home page, the map's preview and the API show of an ad.
import { sql } from 'kysely';
import type { BadgeChipData } from '../../../app/lib/badges.ts';
import { numberFormat } from '../../../app/lib/intl.ts';
import type { DB } from '../../db/index.ts';
import type { AttributeOption } from '../../db/schema.ts';
import { toBool, toIso, toJson, toNumber } from '../../db/values.ts';
import { type CoverPhoto, coverUrls } from '../ad-images.ts';
import { badgesOfCompanies, badgesOfUsers } from '../badges.ts';
import { type CompanyMark, companyMarks } from '../companies/companies.ts';
import { publicOwner } from './visibility.ts';

const isoOrNull = (v: unknown) => (v === null || v === undefined ? null : toIso(v));

export interface AdCard {
  id: number;
  slug: string;
  title: string;
  price: number | null;
  currency: string;
  price_type: string;
  category_slug: string;
  taxonomy_slug: string;
  city: { name_ar: string; name_en: string };
  area: { name_ar: string; name_en: string } | null;
  photo: CoverPhoto | null;
  bumped_at: string | null;
  featured: boolean;
  /** Values of the attributes flagged `shown_on_card`, in form order, in both languages. */
  attributes: CardValue[];
  /** The owner's company: its name and logo show on the card. */
  company: CompanyMark | null;
  /** The badges of the owner and of their company (at most CARD_BADGES). */
  badges: BadgeChipData[];
  /** The signed-in member saved it (set on members' pages only: server/domain/favorites.ts markFavorited). */
  favorited?: boolean;
}

/**
 * A value on a card, labelled: an option's words, a number with its unit or the attribute's name
 * ("Bedrooms: 3"). A number also carries its attribute's key and the number itself, which the site
 * words with the catalogue's plural where it has one (ads:card-values: "3 bedrooms", "3 غرف نوم").
 */
export interface CardValue {
  ar: string;
  en: string;
  key?: string;
  count?: number;
}

/** Published ads with what a card shows (its city, and the slugs of its URL). */
export function publishedCards(db: DB) {
  return cardQuery(db).where('ads.status', '=', 'published').where(publicOwner('ads.user_id'));
}

/** Ads with what a card shows, whatever their status. */
function cardQuery(db: DB) {
  return db
    .selectFrom('ads')
    .innerJoin('cities', 'cities.id', 'ads.city_id')
    .innerJoin('categories', 'categories.id', 'ads.category_id')
    .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
    .leftJoin('areas', 'areas.id', 'ads.area_id')
    .select([
      'ads.id',
      'ads.slug',
      'ads.title',
      'ads.price',
      'ads.currency',
      'ads.price_type',
      'ads.bumped_at',
      'ads.featured_until',
      'ads.user_id',
      'ads.company_id',
      'cities.name_ar',
      'cities.name_en',
      'areas.name_ar as area_ar',
      'areas.name_en as area_en',
      'categories.slug as category_slug',
      'taxonomies.slug as taxonomy_slug',
    ]);
}

type CardRow = Awaited<ReturnType<ReturnType<typeof cardQuery>['execute']>>[number];

/**
 * The cards of these ads (just read from a published listing), in the order of `ids`. By id
 * alone: a status condition here can lead SQLite's planner down the status index instead.
 */
export async function cardsByIds(db: DB, ids: number[]): Promise<AdCard[]> {
  if (ids.length === 0) return [];
  const rows = await cardQuery(db).where('ads.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return cardsOf(
    db,
    ids.map((id) => byId.get(id)).filter((r): r is CardRow => r !== undefined),
  );
}

/** The card of one published ad (the map's preview); null when there is no such published ad. */
export async function publishedCard(db: DB, id: number): Promise<AdCard | null> {
  const rows = await publishedCards(db).where('ads.id', '=', id).execute();
  return (await cardsOf(db, rows))[0] ?? null;
}

export async function cardsOf(db: DB, rows: CardRow[]): Promise<AdCard[]> {
  const ids = rows.map((r) => r.id);
  const companyIds = rows.flatMap((r) => (r.company_id === null ? [] : [r.company_id]));
  const userIds = rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id]));
  const [cover, attributes, companies, userBadges, companyBadges] = await Promise.all([
    coverUrls(db, ids),
    cardAttributes(db, ids),
    companyMarks(db, companyIds),
    badgesOfUsers(db, userIds),
    badgesOfCompanies(db, companyIds),
  ]);
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    title: r.title,
    price: r.price === null ? null : toNumber(r.price),
    currency: r.currency,
    price_type: r.price_type,
    category_slug: r.category_slug,
    taxonomy_slug: r.taxonomy_slug,
    city: { name_ar: r.name_ar, name_en: r.name_en },
    area: r.area_ar !== null ? { name_ar: r.area_ar, name_en: r.area_en as string } : null,
    photo: cover.get(r.id) ?? null,
    bumped_at: isoOrNull(r.bumped_at),
    featured: r.featured_until !== null && new Date(r.featured_until as string).getTime() > now,
    attributes: attributes.get(r.id) ?? [],
    company: r.company_id === null ? null : (companies.get(r.company_id) ?? null),
    badges: [
      ...(r.company_id === null ? [] : (companyBadges.get(r.company_id) ?? [])),
      ...(r.user_id === null ? [] : (userBadges.get(r.user_id) ?? [])),
    ].slice(0, CARD_BADGES),
  }));
}

/** Badges a card shows at most (the holder's page shows them all). */
export const CARD_BADGES = 3;

const cardNumber = { ar: numberFormat('ar'), en: numberFormat('en') };

const cardYear = {
  ar: numberFormat('ar', { useGrouping: false }),
  en: numberFormat('en', { useGrouping: false }),
};

/**
 * What cards show of their ads' details: the values of attributes flagged `shown_on_card`, in
 * form order (option labels, numbers with their unit, a yes as the attribute's name).
 */
async function cardAttributes(db: DB, ids: number[]): Promise<Map<number, CardValue[]>> {
  const byAd = new Map<number, CardValue[]>();
  if (ids.length === 0) return byAd;
  const rows = await db
    .selectFrom('ad_attribute_values as v')
    .innerJoin('attributes as a', 'a.id', 'v.attribute_id')
    .select([
      'v.ad_id',
      'v.attribute_id',
      'a.type',
      'a.key',
      'a.name_ar',
      'a.name_en',
      'a.unit_ar',
      'a.unit_en',
      'v.value_option',
      'v.value_number',
      'v.value_bool',
      'v.value_text',
    ])
    .where('v.ad_id', 'in', ids)
    .where('a.shown_on_card', '=', true)
    .orderBy('v.ad_id')
    // The taxonomy's attributes first, as on the form.
    .orderBy(sql`case when a.taxonomy_id is null then 1 else 0 end`)
    .orderBy('a.position')
    .orderBy('v.id')
    .execute();
  // The option lists once per attribute, not with every row (a make's models run to hundreds).
  const withOptions = [...new Set(rows.filter((r) => r.value_option !== null).map((r) => r.attribute_id))];
  const optionsOf = new Map<number, AttributeOption[]>();
  if (withOptions.length > 0) {
    const lists = await db.selectFrom('attributes').select(['id', 'options']).where('id', 'in', withOptions).execute();
    for (const a of lists) optionsOf.set(a.id, toJson<AttributeOption[]>(a.options, []));
  }
  for (const r of rows) {
    let shown: CardValue | null = null;
    if (r.value_option !== null) {
      const o = optionsOf.get(r.attribute_id)?.find((x) => x.value === r.value_option);
      shown = o ? { ar: o.ar, en: o.en } : null;
    } else if (r.value_number !== null) {
      const n = Number(r.value_number);
      const f = r.type === 'year' ? cardYear : cardNumber;
      // A bare number is not a fact: without a unit it is named ("Bedrooms: 3").
      const label = (value: string, unit: string | null, name: string) =>
        unit ? `${value} ${unit}` : `${name}: ${value}`;
      shown = {
        ar: label(f.ar.format(n), r.unit_ar, r.name_ar),
        en: label(f.en.format(n), r.unit_en, r.name_en),
        key: r.key,
        count: n,
      };
    } else if (r.value_bool !== null) {
      shown = toBool(r.value_bool) ? { ar: r.name_ar, en: r.name_en } : null;
    } else if (r.value_text !== null && r.value_text.length <= 30) {
      shown = { ar: r.value_text, en: r.value_text };
    }
    if (!shown) continue;
    const list = byAd.get(r.ad_id) ?? [];
    if (list.length < 3) list.push(shown);
    byAd.set(r.ad_id, list);
  }
  return byAd;
}

export const LISTING_PAGE_SIZE = 24;
