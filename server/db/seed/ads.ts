// Demo ads (README.md, "Quick start") and bulk ads for benchmarks.
//
// Demo: a few hundred varied ads across every taxonomy and many cities, in Arabic and English
// (./ad-content.ts), in every status (mostly published), owned by the demo member and a handful
// of demo sellers, with created/published dates over the last 30 days, views, status history and
// photos drawn and processed like real uploads (./demo-photos.ts). Only into a database without
// ads: a second run adds nothing. A fixed seed makes every run write the same ads (dates relative
// to the day it runs).
//
// Bulk: N ads for benchmarks (it always adds N), mostly published, with attribute values, status
// history, text index rows and one shared photo per taxonomy, as fast as the database takes them:
// ads planned in a worker thread, indexes (and PostgreSQL's foreign keys) built once at the end;
// see "bulk" below. A million ads, on the 2-core machine shared with other work (load 4–13): SQLite
// 6–7.5 minutes (rows 3, text index and indexes 3–4; 4.5 CPU-minutes over two threads, 3.3 GB of
// memory at most), PostgreSQL 6–13 (rows 3.5–10, indexes and keys 2–3; 3.3 CPU-minutes of the
// server, 2 of this process). 100 000 ads: SQLite 17 s, PostgreSQL 27 s (before: 43 s and 91 s).
//
// Both end by recounting every taxonomy's categories and every seller's active ads.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { CompiledQuery, type Insertable, sql, type Transaction } from 'kysely';
import { recountTaxonomy, recountUserAds } from '../../domain/ads/bookkeeping.ts';
import { recountAll } from '../../domain/ads/counts.ts';
import { slugify, valueRows } from '../../domain/ads/placing.ts';
import { AD_RULES } from '../../domain/ads/rules.ts';
import { adSearchRow, type CatalogueWords, loadCatalogueWords } from '../../domain/search/text-index.ts';
import type { MediaStorage } from '../../media/storage.ts';
import type { DB, DialectName } from '../index.ts';
import type { AdStatus, Database } from '../schema.ts';
import { toBool, toJson, toNumber } from '../values.ts';
import {
  type AttrValue,
  type ContentAttribute,
  type ContentCategory,
  type ContentPlace,
  createRng,
  type Rng,
  writeAd,
} from './ad-content.ts';
import { DEMO_ACCOUNTS } from './demo-accounts.ts';
import { categoryHue, demoPhotoBytes, type StoredPhoto, storeDemoPhoto } from './demo-photos.ts';

/** Any fixed number: the same seed writes the same ads. */
export const DEMO_ADS_SEED = 20_260_410;
export const DEMO_ADS_COUNT = 300;

const DAY = 86_400_000;
const HOUR = 3_600_000;

type Handle = { db: DB; dialect: DialectName };
type Tx = Transaction<Database> | DB;

/** The demo member's ads: one of each of these statuses (one active, far from the free allowance). */
const MEMBER_STATUSES: AdStatus[] = ['published', 'sold', 'expired', 'rejected', 'draft'];
const MEMBER_EMAIL = DEMO_ACCOUNTS.find((a) => a.role === null && !a.superAdmin)?.email ?? 'user@souq.test';
const MODERATOR_EMAILS = DEMO_ACCOUNTS.filter((a) => a.role === 'moderator' || a.superAdmin).map((a) => a.email);

/**
 * Demo sellers (no password: nobody signs in as them). Three are shops that post mostly in their
 * taxonomy; the others are people. Phone numbers are Libyana-style (091…), so the ad page shows
 * call and WhatsApp buttons.
 */
export const DEMO_SELLERS = [
  { email: 'seller-01@souq.test', name: 'معرض النخبة للسيارات', city: 'tripoli', focus: 'motors' },
  { email: 'seller-02@souq.test', name: 'مكتب الريادة العقاري', city: 'benghazi', focus: 'property' },
  { email: 'seller-03@souq.test', name: 'متجر التقنية الحديثة', city: 'misrata', focus: 'electronics' },
  { email: 'seller-04@souq.test', name: 'محمد الورفلي', city: 'tripoli', focus: null },
  { email: 'seller-05@souq.test', name: 'أحمد المصراتي', city: 'misrata', focus: null },
  { email: 'seller-06@souq.test', name: 'فاطمة الزوي', city: 'benghazi', focus: null },
  { email: 'seller-07@souq.test', name: 'عبد الرحمن الترهوني', city: 'tarhuna', focus: null },
  { email: 'seller-08@souq.test', name: 'خالد البرعصي', city: 'bayda', focus: null },
  { email: 'seller-09@souq.test', name: 'مريم الفيتوري', city: 'zawiya', focus: null },
  { email: 'seller-10@souq.test', name: 'نورية الشريف', city: 'sabha', focus: null },
  { email: 'seller-11@souq.test', name: 'يوسف الككلي', city: 'janzour', focus: null },
  { email: 'seller-12@souq.test', name: 'هدى المقريف', city: 'benghazi', focus: null },
] as const;

const FIRST_NAMES = ['محمد', 'أحمد', 'علي', 'عمر', 'سالم', 'خالد', 'مصطفى', 'فاطمة', 'عائشة', 'مريم', 'سارة', 'حنان'];
const FAMILY_NAMES = ['الورفلي', 'المصراتي', 'الزوي', 'البرعصي', 'الفيتوري', 'الككلي', 'القماطي', 'الشريف', 'العبيدي'];

const REJECTIONS: [string, string][] = [
  ['الصور لا تعرض السلعة المعلن عنها.', 'The photos do not show the item advertised.'],
  ['السعر غير واقعي أو غير واضح.', 'The price is unrealistic or unclear.'],
  ['الإعلان مكرر: يوجد إعلان مطابق منشور.', 'Duplicate of an ad already published.'],
  ['القسم غير مناسب، يرجى اختيار القسم الصحيح.', 'Wrong category: please choose the right one.'],
  ['الوصف يحتوي على رقم هاتف أو رابط خارجي.', 'The description contains a phone number or an external link.'],
];

/**
 * Share of each status: demo ads show every one; bulk ads are mostly published. Fewer pending ads
 * than the moderation queue's first page (20), so an ad placed on a demo site shows on it.
 */
const DEMO_MIX: [AdStatus, number][] = [
  ['published', 0.76],
  ['pending', 0.03],
  ['rejected', 0.04],
  ['sold', 0.05],
  ['expired', 0.05],
  ['archived', 0.01],
  ['deleted', 0.02],
  ['draft', 0.04],
];
const BULK_MIX: [AdStatus, number][] = [
  ['published', 0.9],
  ['pending', 0.02],
  ['rejected', 0.01],
  ['sold', 0.03],
  ['expired', 0.03],
  ['deleted', 0.005],
  ['draft', 0.005],
];

/** How often each taxonomy gets an ad, and the leaf categories people use most. */
const TAXONOMY_WEIGHT: Record<string, number> = {
  motors: 30,
  property: 20,
  electronics: 16,
  'home-garden': 10,
  fashion: 7,
  jobs: 6,
  services: 6,
  'hobbies-pets': 5,
};
const LEAF_WEIGHT: Record<string, number> = {
  toyota: 10,
  hyundai: 8,
  kia: 7,
  nissan: 4,
  'mercedes-benz': 4,
  'apartments-for-sale': 6,
  'apartments-for-rent': 6,
  'houses-for-sale': 4,
  'land-for-sale': 4,
  iphone: 6,
  'samsung-phones': 5,
  laptops: 3,
  'generators-solar': 3,
  'air-conditioners': 2,
  livestock: 3,
};

const SEASIDE = new Set(['boats', 'chalets-for-rent', 'fishing-gear']);
const INLAND = new Set(
  (
    'sabha ubari murzuq brak ghat qatrun hun waddan sokna kufra jalu awjila gharyan yefren nalut jadu ghadames ' +
    'mizda zintan bani-walid tarhuna aziziya msallata abyar'
  ).split(' '),
);

// ───────────────────────── the catalogue, read once ─────────────────────────

interface Leaf extends ContentCategory {
  id: number;
  taxonomyId: number;
  attributeIds: Map<string, { id: number; type: ContentAttribute['type'] }>;
}

interface City {
  id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  lat: number;
  lng: number;
  areas: { id: number; name_ar: string; name_en: string; lat: number; lng: number }[];
}

interface Catalogue {
  taxonomies: { id: number; slug: string }[];
  /** Leaf categories by taxonomy slug, with their weights. */
  leaves: Map<string, [Leaf, number][]>;
  cities: City[];
  cityWeights: [City, number][];
  taxonomyWeights: [string, number][];
}

async function loadCatalogue(db: DB): Promise<Catalogue> {
  const [taxonomies, categories, attributes, cities, areas] = await Promise.all([
    db.selectFrom('taxonomies').select(['id', 'slug']).where('active', '=', true).orderBy('position').execute(),
    db
      .selectFrom('categories')
      .select(['id', 'taxonomy_id', 'parent_id', 'slug', 'name_ar', 'name_en', 'position'])
      .where('active', '=', true)
      .orderBy('taxonomy_id')
      .orderBy('depth')
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db.selectFrom('attributes').selectAll().orderBy('position').orderBy('id').execute(),
    db
      .selectFrom('cities')
      .select(['id', 'slug', 'name_ar', 'name_en', 'lat', 'lng'])
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('areas')
      .select(['id', 'city_id', 'name_ar', 'name_en', 'lat', 'lng'])
      .orderBy('city_id')
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);
  if (taxonomies.length === 0) throw new Error('No catalogue: seed the catalogue before ads.');
  const taxonomySlug = new Map(taxonomies.map((t) => [t.id, t.slug]));
  const byId = new Map(categories.map((c) => [c.id, c]));
  const parents = new Set(categories.map((c) => c.parent_id).filter((id) => id !== null));
  const toContent = (a: (typeof attributes)[number]): ContentAttribute & { id: number } => ({
    id: a.id,
    key: a.key,
    type: a.type,
    required: toBool(a.required),
    options: toJson(a.options, []),
    min: a.min === null ? null : toNumber(a.min),
    max: a.max === null ? null : toNumber(a.max),
  });
  const ofTaxonomy = new Map<number, ReturnType<typeof toContent>[]>();
  const ofCategory = new Map<number, ReturnType<typeof toContent>[]>();
  for (const a of attributes) {
    const map = a.taxonomy_id !== null ? ofTaxonomy : ofCategory;
    const owner = (a.taxonomy_id ?? a.category_id) as number;
    map.set(owner, [...(map.get(owner) ?? []), toContent(a)]);
  }
  const leaves = new Map<string, [Leaf, number][]>();
  for (const c of categories) {
    if (parents.has(c.id) || !taxonomySlug.has(c.taxonomy_id)) continue;
    const chain: typeof categories = [];
    for (
      let at: (typeof categories)[number] | undefined = c;
      at;
      at = at.parent_id ? byId.get(at.parent_id) : undefined
    ) {
      chain.unshift(at);
    }
    const attrs = [...(ofTaxonomy.get(c.taxonomy_id) ?? []), ...chain.flatMap((k) => ofCategory.get(k.id) ?? [])];
    const slug = taxonomySlug.get(c.taxonomy_id) as string;
    const leaf: Leaf = {
      id: c.id,
      taxonomyId: c.taxonomy_id,
      slug: c.slug,
      name_ar: c.name_ar,
      name_en: c.name_en,
      parentSlug: c.parent_id ? (byId.get(c.parent_id)?.slug ?? null) : null,
      taxonomySlug: slug,
      attributes: attrs,
      attributeIds: new Map(attrs.map((a) => [a.key, { id: a.id, type: a.type }])),
    };
    leaves.set(slug, [...(leaves.get(slug) ?? []), [leaf, LEAF_WEIGHT[c.slug] ?? 1]]);
  }
  const areasOf = new Map<number, City['areas']>();
  for (const a of areas) areasOf.set(a.city_id, [...(areasOf.get(a.city_id) ?? []), a]);
  const list: City[] = cities.map((c) => ({ ...c, areas: areasOf.get(c.id) ?? [] }));
  // Tripoli and Benghazi first by far, then the order of the list (most important first).
  const cityWeights = list.map((c, i): [City, number] => [
    c,
    i === 0 ? 30 : i === 1 ? 18 : Math.max(0.6, 8 - i * 0.35),
  ]);
  const taxonomyWeights = taxonomies.map((t): [string, number] => [t.slug, TAXONOMY_WEIGHT[t.slug] ?? 3]);
  return { taxonomies, leaves, cities: list, cityWeights, taxonomyWeights };
}

// ───────────────────────── sellers ─────────────────────────

interface Seller {
  id: string;
  cityId: number | null;
  focus: string | null;
}

interface People {
  /** The demo member (user@souq.test), when that account exists. */
  member: Seller | null;
  /** Who approves and rejects (the demo moderator or admin), when one exists. */
  moderatorId: string | null;
  sellers: Seller[];
}

async function ensureSellers(db: DB, catalogue: Catalogue, now: Date, extra: number): Promise<People> {
  const cityId = new Map(catalogue.cities.map((c) => [c.slug, c.id]));
  const wanted = [
    ...DEMO_SELLERS.map((s, i) => ({ ...s, phone: `+2189100001${String(i + 1).padStart(2, '0')}` })),
    ...Array.from({ length: extra }, (_, i) => ({
      email: `bulk-seller-${String(i + 1).padStart(5, '0')}@souq.test`,
      name: `${FIRST_NAMES[i % FIRST_NAMES.length]} ${FAMILY_NAMES[Math.floor(i / FIRST_NAMES.length) % FAMILY_NAMES.length]}`,
      city: catalogue.cities[i % catalogue.cities.length]?.slug ?? 'tripoli',
      focus: null,
      phone: `+21895${String(i + 1).padStart(7, '0')}` as string | null,
    })),
  ];
  const existing = new Map<string, string>();
  for (let i = 0; i < wanted.length; i += 500) {
    const emails = wanted.slice(i, i + 500).map((s) => s.email);
    for (const row of await db.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute()) {
      existing.set(row.email, row.id);
    }
  }
  const missing = wanted.filter((s) => !existing.has(s.email));
  const rows = missing.map((s, i) => {
    const id = randomBytes(16).toString('hex');
    existing.set(s.email, id);
    const since = new Date(now.getTime() - (120 + ((i * 37) % 700)) * DAY);
    return {
      id,
      name: s.name,
      email: s.email,
      email_verified: true,
      phone_number: s.phone,
      phone_number_verified: s.phone !== null,
      show_phone: s.phone !== null,
      locale: 'ar',
      city_id: cityId.get(s.city) ?? null,
      created_at: since,
      updated_at: since,
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('users')
      .values(rows.slice(i, i + 500))
      .execute();
  const sellers = wanted.map((s) => ({
    id: existing.get(s.email) as string,
    cityId: cityId.get(s.city) ?? null,
    focus: s.focus,
  }));
  const staff = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'in', [MEMBER_EMAIL, ...MODERATOR_EMAILS])
    .execute();
  const member = staff.find((u) => u.email === MEMBER_EMAIL);
  const moderator = MODERATOR_EMAILS.map((e) => staff.find((u) => u.email === e)).find(Boolean);
  return {
    member: member ? { id: member.id, cityId: null, focus: null } : null,
    moderatorId: moderator?.id ?? null,
    sellers,
  };
}

// ───────────────────────── one ad ─────────────────────────

/** Calls and/or WhatsApp: every ad offers at least one (server/domain/ads/placing.ts), a call when neither was drawn. */
const contactOptions = (phone: boolean, whatsapp: boolean) => ({
  contact_phone: phone || !whatsapp,
  contact_whatsapp: whatsapp,
});

interface PlannedAd {
  row: Insertable<Database['ads']> & { id: number };
  values: Insertable<Database['ad_attribute_values']>[];
  history: Insertable<Database['ad_status_history']>[];
  leaf: Leaf;
  status: AdStatus;
  ownerId: string;
  /** Photos to draw for it (demo mode). */
  photos: number;
}

/** Typed value rows, exactly as placing an ad writes them. */
const leafValueRows = (adId: number, leaf: Leaf, attrs: Record<string, AttrValue>) =>
  valueRows(
    adId,
    [...leaf.attributeIds].map(([key, a]) => ({ key, id: a.id, type: a.type })),
    attrs,
  );

function chooseLeaf(r: Rng, catalogue: Catalogue, taxonomy?: string): Leaf {
  const slug = taxonomy ?? r.weighted(catalogue.taxonomyWeights);
  const leaves = catalogue.leaves.get(slug) ?? [...catalogue.leaves.values()][0];
  return r.weighted(leaves);
}

interface PlanContext {
  catalogue: Catalogue;
  people: People;
  now: Date;
  seed: number;
  /** What the text index gives each ad besides its own words (server/domain/search/text-index.ts). */
  words: CatalogueWords;
}

function planAd(ctx: PlanContext, index: number, id: number, status: AdStatus, owner: Seller, taxonomy?: string) {
  const { catalogue, now } = ctx;
  const r = createRng((ctx.seed + Math.imul(index + 1, 0x9e3779b9)) >>> 0);
  const preferred = owner.focus && r.chance(0.85) ? owner.focus : taxonomy;
  const leaf = chooseLeaf(r, catalogue, preferred);
  const home = owner.cityId !== null && r.chance(0.6) ? catalogue.cities.find((c) => c.id === owner.cityId) : undefined;
  let city = home ?? r.weighted(catalogue.cityWeights);
  // Boats and beach chalets are by the sea.
  if (SEASIDE.has(leaf.slug) && INLAND.has(city.slug)) {
    city = r.weighted(catalogue.cityWeights.filter(([c]) => !INLAND.has(c.slug)));
  }
  const area = city.areas.length && r.chance(0.75) ? r.pick(city.areas) : null;
  const place: ContentPlace = { city, area };
  const content = writeAd(r, leaf, place);

  // When things happened, newest last; every ad lives in the last 30 days except those already
  // past their lifetime (expired, archived).
  const t = now.getTime();
  const lifetime = AD_RULES.lifetimeDays * DAY;
  const created =
    status === 'pending'
      ? t - r.next() * 2 * DAY
      : status === 'expired'
        ? t - lifetime - (1 + r.next() * 10) * DAY
        : status === 'archived'
          ? t - lifetime - (20 + r.next() * 20) * DAY
          : t - (0.05 + r.next() * 29.5) * DAY;
  const everPublished = ['published', 'sold', 'expired', 'archived', 'deleted'].includes(status);
  const published = everPublished ? Math.min(created + (0.25 + r.next() * 10) * HOUR, t - 60_000) : null;
  let bumped = published;
  if (status === 'published' && published !== null && t - published > 9 * DAY && r.chance(0.15)) {
    // Reposted once after the cool-down.
    bumped = published + (AD_RULES.repostCooldownDays + r.next() * ((t - published) / DAY - 8)) * DAY;
  }
  const expires = published !== null ? published + lifetime : null;
  const events: { from: AdStatus | null; to: AdStatus; at: number; actor: string | null; reason?: string }[] = [];
  const mod = ctx.people.moderatorId;
  if (status === 'draft') events.push({ from: null, to: 'draft', at: created, actor: owner.id });
  else {
    events.push({ from: null, to: 'pending', at: created, actor: owner.id });
    if (published !== null) events.push({ from: 'pending', to: 'published', at: published, actor: mod });
  }
  const after = (from: number, upTo = t) => from + r.next() * Math.max(0, upTo - from);
  let rejection: string | null = null;
  if (status === 'rejected') {
    const [ar, en] = r.pick(REJECTIONS);
    rejection = content.lang === 'ar' ? ar : en;
    events.push({
      from: 'pending',
      to: 'rejected',
      at: Math.min(created + (1 + r.next() * 20) * HOUR, t),
      actor: mod,
      reason: rejection,
    });
  }
  if (status === 'sold' && published !== null)
    events.push({ from: 'published', to: 'sold', at: after(published), actor: owner.id });
  if ((status === 'expired' || status === 'archived') && expires !== null)
    events.push({ from: 'published', to: 'expired', at: expires, actor: null });
  if (status === 'archived' && expires !== null)
    events.push({ from: 'expired', to: 'archived', at: after(expires), actor: null });
  if (status === 'deleted' && published !== null)
    events.push({ from: 'published', to: 'deleted', at: after(published), actor: owner.id });
  const last = events[events.length - 1].at;
  const days = Math.max(0, ((status === 'published' ? t : last) - (published ?? last)) / DAY);
  const views = published === null ? 0 : Math.round(days * (3 + r.next() * 40) + r.int(0, 12));
  // The owner's pin: some set one, near the area's centre or anywhere in the city (about 1.5 km).
  const pin = r.chance(area ? 0.45 : 0.3);
  const centre = area ?? city;
  const spread = area ? 0.008 : 0.03;

  const adRow: PlannedAd['row'] = {
    id,
    user_id: owner.id,
    taxonomy_id: leaf.taxonomyId,
    category_id: leaf.id,
    slug: slugify(content.title),
    title: content.title,
    description: content.description,
    price: content.price,
    currency: content.currency,
    price_type: content.price_type,
    city_id: city.id,
    area_id: area?.id ?? null,
    lat: pin ? Math.round((centre.lat + (r.next() - 0.5) * spread) * 1e5) / 1e5 : null,
    lng: pin ? Math.round((centre.lng + (r.next() - 0.5) * spread) * 1e5) / 1e5 : null,
    ...contactOptions(r.chance(0.85), r.chance(0.6)),
    status,
    rejection_reason: rejection,
    bumped_at: bumped === null ? null : new Date(bumped),
    published_at: published === null ? null : new Date(published),
    expires_at: expires === null ? null : new Date(expires),
    views,
    created_at: new Date(created),
    updated_at: new Date(last),
    deleted_at: status === 'deleted' ? new Date(last) : null,
    // A pending ad's place in the moderation queue: when it entered review (migration 0028).
    queued_at: status === 'pending' ? new Date(created) : null,
  };
  const photos =
    leaf.taxonomySlug === 'jobs'
      ? r.chance(0.15)
        ? 1
        : 0
      : r.weighted<number>([
          [0, 1],
          [1, 5],
          [2, 3],
          [3, 1.5],
        ]);
  return {
    row: adRow,
    values: leafValueRows(id, leaf, content.attrs),
    history: events.map((e) => ({
      ad_id: id,
      from_status: e.from,
      to_status: e.to,
      actor_id: e.actor,
      reason: e.reason ?? null,
      created_at: new Date(e.at),
    })),
    leaf,
    status,
    ownerId: owner.id,
    photos,
  } satisfies PlannedAd;
}

/** `n` statuses in the given shares, shuffled; with `every`, each status at least once. */
function statusList(r: Rng, n: number, mix: [AdStatus, number][], every: boolean): AdStatus[] {
  const list: AdStatus[] = [];
  for (const [status, share] of mix.slice(1)) {
    const k = Math.max(every && n >= mix.length * 2 ? 1 : 0, Math.floor(n * share));
    for (let i = 0; i < k; i++) list.push(status);
  }
  while (list.length < n) list.push(mix[0][0]);
  list.length = n;
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(r.next() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** Of the demo ads, the three shops hold about a third. */
function pickOwner(r: Rng, people: People): Seller {
  const { sellers } = people;
  return r.chance(0.35) ? sellers[r.int(0, 2)] : sellers[r.int(3, sellers.length - 1)];
}

/** Bulk ads go round the bulk sellers. */
function bulkOwner(people: People, index: number): Seller {
  const { sellers } = people;
  return sellers[DEMO_SELLERS.length + (index % (sellers.length - DEMO_SELLERS.length))];
}

// ───────────────────────── writing ─────────────────────────

/** Multi-row inserts of at most `size` rows (the parameter limits: 32 766 on SQLite, 65 535 on PostgreSQL). */
async function insertAll<T extends 'ads' | 'ad_attribute_values' | 'ad_status_history' | 'ad_images' | 'ad_search'>(
  tx: Tx,
  table: T,
  rows: Insertable<Database[T]>[],
  size: number,
) {
  for (let i = 0; i < rows.length; i += size) {
    await tx
      .insertInto(table)
      .values(rows.slice(i, i + size) as any)
      .execute();
  }
}

async function writeAds(
  tx: Tx,
  dialect: DialectName,
  planned: PlannedAd[],
  images: Insertable<Database['ad_images']>[],
  words: CatalogueWords,
) {
  await insertAll(
    tx,
    'ads',
    planned.map((p) => p.row),
    400,
  );
  await insertAll(
    tx,
    'ad_attribute_values',
    planned.flatMap((p) => p.values),
    2000,
  );
  await insertAll(
    tx,
    'ad_status_history',
    planned.flatMap((p) => p.history),
    2000,
  );
  await insertAll(tx, 'ad_images', images, 2000);
  await insertAll(
    tx,
    'ad_search',
    planned.map((p) => searchRow(p, words)),
    1000,
  );
  // Ids were given explicitly: move PostgreSQL's identity past them (SQLite follows by itself).
  if (dialect === 'postgres') {
    await sql`select setval(pg_get_serial_sequence('ads', 'id'), (select max(id) from ads))`.execute(tx);
  }
}

async function nextAdId(db: Tx): Promise<number> {
  const row = await db
    .selectFrom('ads')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return toNumber(row?.max ?? 0) + 1;
}

/** Every taxonomy's category counts and every seller's active-ad count, as the jobs would leave them. */
export async function recountAds(db: DB, taxonomyIds: number[], userIds: Iterable<string>): Promise<void> {
  for (const id of taxonomyIds) await recountTaxonomy(db, id);
  for (const id of new Set(userIds)) await recountUserAds(db, id);
}

export async function hasAds(db: Tx): Promise<boolean> {
  return !!(await db.selectFrom('ads').select('id').limit(1).executeTakeFirst());
}

// ───────────────────────── photos ─────────────────────────

async function drawPhotos(
  db: DB,
  storage: MediaStorage,
  planned: PlannedAd[],
  now: Date,
  seed: number,
  concurrency = 3,
): Promise<number> {
  let next = 0;
  let made = 0;
  const worker = async () => {
    for (;;) {
      const ad = planned[next++];
      if (!ad) return;
      const r = createRng((seed ^ Math.imul(ad.row.id, 0x85ebca6b)) >>> 0);
      const hue = categoryHue(ad.leaf.slug);
      const portrait = ['fashion'].includes(ad.leaf.taxonomySlug) || ad.leaf.parentSlug === 'mobile-phones';
      const rows: Insertable<Database['ad_images']>[] = [];
      for (let position = 0; position < ad.photos; position++) {
        const bytes = await demoPhotoBytes(r, ad.leaf.taxonomySlug, (hue + position * 12) % 360, portrait);
        const stored = await storeDemoPhoto(storage, bytes, now);
        rows.push(imageRow(ad, stored, position));
      }
      if (rows.length) await db.insertInto('ad_images').values(rows).execute();
      made += rows.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return made;
}

function imageRow(ad: PlannedAd, photo: StoredPhoto, position: number): Insertable<Database['ad_images']> {
  return {
    ad_id: ad.row.id,
    user_id: ad.ownerId,
    position,
    key: photo.key,
    width: photo.width,
    height: photo.height,
    variants: JSON.stringify(photo.variants),
    created_at: ad.row.created_at,
  };
}

// ───────────────────────── demo ─────────────────────────

export interface DemoAdsOptions {
  count?: number;
  /** Where photos are stored; without it the ads have none. */
  storage?: MediaStorage;
  /** Photos for at most this many ads, the newest published first (default: all). */
  photoAds?: number;
  /** At most this many photos per ad (default 3). */
  maxPhotosPerAd?: number;
  now?: Date;
  seed?: number;
  log?: (message: string) => void;
}

export interface SeedAdsReport {
  ads: number;
  photos: number;
  sellers: number;
  statuses: Partial<Record<AdStatus, number>>;
  ms: number;
}

/**
 * The demo ads, into a database that has none (returns null otherwise). Needs the catalogue; uses
 * the demo accounts when they exist and creates the demo sellers.
 */
export async function seedDemoAds(handle: Handle, options: DemoAdsOptions = {}): Promise<SeedAdsReport | null> {
  const started = performance.now();
  const { db, dialect } = handle;
  const now = options.now ?? new Date();
  const seed = options.seed ?? DEMO_ADS_SEED;
  const count = options.count ?? DEMO_ADS_COUNT;
  if (await hasAds(db)) return null;
  const catalogue = await loadCatalogue(db);
  const people = await ensureSellers(db, catalogue, now, 0);
  const r = createRng(seed);
  const statuses = statusList(r, count, DEMO_MIX, true);
  // The demo member gets one ad of each of MEMBER_STATUSES (the first of each in the list).
  const memberAt = new Set<number>();
  if (people.member) {
    for (const s of MEMBER_STATUSES) {
      const i = statuses.findIndex((x, k) => x === s && !memberAt.has(k));
      if (i >= 0) memberAt.add(i);
    }
  }
  const ctx: PlanContext = { catalogue, people, now, seed, words: await loadCatalogueWords(db) };
  const planned = await db.transaction().execute(async (trx) => {
    // Checked again in the transaction: two processes starting together seed once.
    if (await hasAds(trx)) return null;
    const first = await nextAdId(trx);
    const list = statuses.map((status, i) => {
      const owner = memberAt.has(i) && people.member ? people.member : pickOwner(r, people);
      // The first ads go round the taxonomies so that each has some.
      const taxonomy =
        i < catalogue.taxonomies.length * 2 ? catalogue.taxonomies[i % catalogue.taxonomies.length].slug : undefined;
      return planAd(ctx, i, first + i, status, owner, taxonomy);
    });
    await writeAds(trx, dialect, list, [], ctx.words);
    return list;
  });
  if (!planned) return null;
  let photos = 0;
  if (options.storage) {
    const time = (p: PlannedAd) => new Date((p.row.bumped_at ?? p.row.created_at) as Date).getTime();
    const order = [...planned]
      .filter((p) => p.photos > 0)
      .sort((a, b) => Number(b.status === 'published') - Number(a.status === 'published') || time(b) - time(a))
      .slice(0, options.photoAds ?? planned.length)
      .map((p) => ({ ...p, photos: Math.min(p.photos, options.maxPhotosPerAd ?? 3) }));
    options.log?.(`Drawing photos for ${order.length} ads…`);
    photos = await drawPhotos(db, options.storage, order, now, seed);
  }
  await recountAds(
    db,
    catalogue.taxonomies.map((t) => t.id),
    planned.map((p) => p.ownerId),
  );
  const tally: Partial<Record<AdStatus, number>> = {};
  for (const s of statuses) tally[s] = (tally[s] ?? 0) + 1;
  return {
    ads: planned.length,
    photos,
    sellers: new Set(planned.map((p) => p.ownerId)).size,
    statuses: tally,
    ms: Math.round(performance.now() - started),
  };
}

// ───────────────────────── bulk ─────────────────────────
//
// As fast as the database takes them:
// - a worker thread plans the ads (./bulk-worker.ts) while this one writes the previous batch;
// - the ad tables' secondary indexes are dropped and, at the end, created again from their own
//   definitions in the database's catalogue, so the schema ends exactly as the migrations made it:
//   building an index once is several times cheaper than keeping it in order row by row. On
//   PostgreSQL the foreign keys of these tables too (checked by one join each when added again,
//   instead of one lookup per row and key);
// - SQLite: a transaction per batch, multi-row inserts compiled once per shape, no fsync; the
//   FTS5 triggers of migration 0008 are set aside and the new text indexed by one statement at the end;
// - PostgreSQL: one transaction for everything (all of it undone if anything fails), one
//   `insert … select from unnest(column arrays)` per table and batch (its generated tsvector is
//   computed as the rows go in; the GIN index is built at the end).

/** What the bulk load writes to each table: columns in row order, with their PostgreSQL types. */
const BULK_TABLES = {
  ads: {
    id: 'int4',
    user_id: 'text',
    taxonomy_id: 'int4',
    category_id: 'int4',
    slug: 'text',
    title: 'text',
    description: 'text',
    price: 'int8',
    currency: 'text',
    price_type: 'text',
    city_id: 'int4',
    area_id: 'int4',
    lat: 'float8',
    lng: 'float8',
    contact_phone: 'bool',
    contact_whatsapp: 'bool',
    status: 'text',
    rejection_reason: 'text',
    bumped_at: 'timestamptz',
    published_at: 'timestamptz',
    expires_at: 'timestamptz',
    views: 'int4',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
    deleted_at: 'timestamptz',
    queued_at: 'timestamptz',
  },
  ad_attribute_values: {
    ad_id: 'int4',
    attribute_id: 'int4',
    value_text: 'text',
    value_number: 'float8',
    value_bool: 'bool',
    value_date: 'text',
    value_option: 'text',
  },
  ad_status_history: {
    ad_id: 'int4',
    from_status: 'text',
    to_status: 'text',
    actor_id: 'text',
    reason: 'text',
    created_at: 'timestamptz',
  },
  ad_images: {
    ad_id: 'int4',
    user_id: 'text',
    position: 'int4',
    key: 'text',
    width: 'int4',
    height: 'int4',
    variants: 'jsonb',
    created_at: 'timestamptz',
  },
  ad_search: { ad_id: 'int4', title: 'text', body: 'text', terms: 'text', stems: 'text' },
} as const;
type BulkTable = keyof typeof BULK_TABLES;
const BULK_ORDER = Object.keys(BULK_TABLES) as BulkTable[];
const columnsOf = (table: BulkTable) => Object.keys(BULK_TABLES[table]);

/** Rows of one chunk, each table's values flat in column order (booleans 0/1, times ISO text). */
type Batch = Record<BulkTable, unknown[]>;

const days = new Map<number, string>();
const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** What toISOString writes (2026-04-10T08:05:09.042Z), a few times quicker: each day's date once. */
function isoText(ms: number): string {
  const day = Math.floor(ms / DAY);
  let date = days.get(day);
  if (date === undefined) {
    date = new Date(day * DAY).toISOString().slice(0, 11);
    days.set(day, date);
  }
  let rest = ms - day * DAY;
  const h = Math.floor(rest / HOUR);
  rest -= h * HOUR;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const milli = rest - s * 1000;
  return `${date}${two(h)}:${two(m)}:${two(s)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

const iso = (v: Date | string | null | undefined) => (v instanceof Date ? isoText(v.getTime()) : (v ?? null));
const bit = (v: boolean | number | null | undefined) => (v === null || v === undefined ? null : v ? 1 : 0);

/** The text index's row of a planned ad. */
function searchRow(p: PlannedAd, words: CatalogueWords) {
  const a = p.row;
  const options = p.values.flatMap((v) =>
    v.value_option === null || v.value_option === undefined
      ? []
      : [{ attribute_id: v.attribute_id, value: v.value_option }],
  );
  const place = { category_id: a.category_id, city_id: a.city_id, area_id: a.area_id ?? null, options };
  return adSearchRow(a.id, a.title, a.description, words, place);
}

function addToBatch(batch: Batch, p: PlannedAd, photo: StoredPhoto | undefined, words: CatalogueWords) {
  const a = p.row;
  batch.ads.push(
    a.id,
    a.user_id,
    a.taxonomy_id,
    a.category_id,
    a.slug,
    a.title,
    a.description,
    a.price,
    a.currency,
    a.price_type,
    a.city_id,
    a.area_id,
    a.lat,
    a.lng,
    bit(a.contact_phone),
    bit(a.contact_whatsapp),
    a.status,
    a.rejection_reason,
    iso(a.bumped_at),
    iso(a.published_at),
    iso(a.expires_at),
    a.views,
    iso(a.created_at),
    iso(a.updated_at),
    iso(a.deleted_at),
    iso(a.queued_at),
  );
  for (const v of p.values) {
    batch.ad_attribute_values.push(
      v.ad_id,
      v.attribute_id,
      v.value_text,
      v.value_number,
      bit(v.value_bool),
      v.value_date,
      v.value_option,
    );
  }
  for (const h of p.history) {
    batch.ad_status_history.push(h.ad_id, h.from_status, h.to_status, h.actor_id, h.reason, iso(h.created_at));
  }
  if (photo) {
    const i = imageRow(p, photo, 0);
    batch.ad_images.push(i.ad_id, i.user_id, i.position, i.key, i.width, i.height, i.variants, iso(i.created_at));
  }
  const text = searchRow(p, words);
  batch.ad_search.push(text.ad_id, text.title, text.body, text.terms, text.stems);
}

const ADS_WIDTH = columnsOf('ads').length;
const IMAGES_WIDTH = columnsOf('ad_images').length;

/** What bulk batches are planned from (plain data: it can be sent to a worker thread). */
export interface BulkPlan {
  ctx: PlanContext;
  statuses: AdStatus[];
  /** The id of the first ad. */
  first: number;
  /** The shared photo of each taxonomy, if any. */
  photos: Map<string, StoredPhoto>;
}

/** The rows of ads `from` to `to` (exclusive) of a bulk load. */
export function planBatch(plan: BulkPlan, from: number, to: number): Batch {
  const batch = Object.fromEntries(BULK_ORDER.map((t) => [t, []])) as unknown as Batch;
  for (let i = from; i < to; i++) {
    const owner = bulkOwner(plan.ctx.people, i);
    const planned = planAd(plan.ctx, i, plan.first + i, plan.statuses[i], owner);
    addToBatch(batch, planned, plan.photos.get(planned.leaf.taxonomySlug), plan.ctx.words);
  }
  return batch;
}

/** The batches of a bulk load, planned in this thread. */
function* plannedHere(plan: BulkPlan, count: number, chunk: number): Generator<Batch> {
  for (let from = 0; from < count; from += chunk) yield planBatch(plan, from, Math.min(count, from + chunk));
}

/** The batches of a bulk load, planned by a worker thread (./bulk-worker.ts) while this one writes. */
async function* plannedInWorker(plan: BulkPlan, count: number, chunk: number): AsyncGenerator<Batch> {
  const worker = new Worker(new URL('./bulk-worker.ts', import.meta.url), {
    workerData: { plan, count, chunk, ahead: 2 },
  });
  const ready: Batch[] = [];
  let failure: Error | null = null;
  let exited = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (batch: Batch) => {
    ready.push(batch);
    notify();
  });
  worker.on('error', (error) => {
    failure = error;
    notify();
  });
  worker.on('exit', () => {
    exited = true;
    notify();
  });
  try {
    for (let from = 0; from < count; from += chunk) {
      while (ready.length === 0) {
        if (failure) throw failure;
        if (exited) throw new Error('The bulk-ads worker stopped early.');
        await new Promise<void>((resolve) => (wake = resolve));
      }
      const batch = ready.shift() as Batch;
      worker.postMessage('next');
      yield batch;
    }
  } finally {
    await worker.terminate();
  }
}

/** Each step runs in the transaction it is given. */
interface BulkWriter {
  /** Sets the indexes (and what else the dialect's writer sets aside) aside; `firstId` is the first new ad's. */
  begin(trx: Tx, firstId: number): Promise<void>;
  write(trx: Tx, batch: Batch): Promise<void>;
  /** Puts back what `begin` set aside. */
  end(trx: Tx): Promise<void>;
}

/** The secondary indexes of the bulk tables (not primary keys nor constraints), with their definitions. */
async function secondaryIndexes(trx: Tx, dialect: DialectName): Promise<{ name: string; sql: string }[]> {
  const tables = BULK_ORDER;
  if (dialect === 'postgres') {
    const { rows } = await sql<{ name: string; sql: string }>`
      select i.relname as name, pg_get_indexdef(x.indexrelid) as sql
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class t on t.oid = x.indrelid
      where t.relnamespace = (select oid from pg_namespace where nspname = current_schema())
        and t.relname in (${sql.join(tables)})
        and not x.indisprimary
        and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
      order by i.oid`.execute(trx);
    return rows;
  }
  const { rows } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_schema
    where type = 'index' and sql is not null and tbl_name in (${sql.join(tables)})
    order by rowid`.execute(trx);
  return rows;
}

/** Drops the secondary indexes now and returns what creates them again, exactly as they were defined. */
async function setIndexesAside(trx: Tx, dialect: DialectName) {
  const indexes = await secondaryIndexes(trx, dialect);
  for (const i of indexes) await sql`drop index ${sql.id(i.name)}`.execute(trx);
  return async (later: Tx) => {
    for (const i of indexes) await sql.raw(i.sql).execute(later);
  };
}

interface SchemaObject {
  type: 'index' | 'trigger';
  name: string;
  sql: string;
}

/** SQLite: where the indexes and triggers set aside by a load are written down (none in memory). */
async function pendingFile(db: Tx): Promise<string | null> {
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  const file = rows.find((r) => r.name === 'main')?.file;
  return file ? `${file}.bulk-load.json` : null;
}

/**
 * SQLite: creates again what a bulk load killed before its end left out (the file it wrote down
 * before dropping them). Returns how many it created.
 */
export async function restoreAfterBulkLoad(db: DB): Promise<number> {
  const pending = await pendingFile(db);
  if (!pending || !existsSync(pending)) return 0;
  const objects = JSON.parse(readFileSync(pending, 'utf8')) as SchemaObject[];
  const created: SchemaObject[] = [];
  await db.transaction().execute(async (trx) => {
    for (const o of objects) {
      const exists = await sql`select 1 from sqlite_schema where type = ${o.type} and name = ${o.name}`.execute(trx);
      if (exists.rows.length) continue;
      await sql.raw(o.sql).execute(trx);
      created.push(o);
    }
  });
  // Text written without the triggers is not in the FTS5 index: index it all again.
  if (created.some((o) => o.type === 'trigger')) {
    await sql`insert into ad_search_fts(ad_search_fts) values ('rebuild')`.execute(db);
    // And the counters of migration 0028 missed the rows written meanwhile.
    await recountAll(db, 'sqlite');
  }
  rmSync(pending, { force: true });
  return created.length;
}

/** SQLite: prepared multi-row inserts (one SQL text per table and row count, compiled once). */
function sqliteWriter(rebuildIndexes: boolean): BulkWriter {
  // Up to this many values per statement (SQLite allows 32 766 parameters).
  const PARAMS = 12_000;
  const texts = new Map<string, string>();
  /** Indexes and triggers dropped for the load, with what creates them again. */
  let setAside: SchemaObject[] = [];
  let pending: string | null = null;
  let first = 0;
  const insert = async (trx: Tx, table: BulkTable, values: unknown[]) => {
    const columns = columnsOf(table);
    const width = columns.length;
    const per = Math.floor(PARAMS / width);
    for (let i = 0; i < values.length; i += per * width) {
      const part = values.slice(i, i + per * width);
      const rows = part.length / width;
      const key = `${table}:${rows}`;
      let text = texts.get(key);
      if (text === undefined) {
        const row = `(${columns.map(() => '?').join(',')})`;
        text = `insert into ${table} (${columns.join(',')}) values ${Array(rows).fill(row).join(',')}`;
        texts.set(key, text);
      }
      await trx.executeQuery(CompiledQuery.raw(text, part));
    }
  };
  return {
    async begin(trx, firstId) {
      first = firstId;
      // The FTS5 triggers of migration 0008: the new ads' text is indexed in one statement at the end
      // (as the batches go in, the text index's merges slowed the load down more and more).
      setAside = (
        await sql<SchemaObject>`
          select type, name, sql from sqlite_schema
          where type = 'trigger' and (tbl_name = 'ad_search' or substr(name, 1, 10) = 'ad_counts_')
          order by rowid`.execute(trx)
      ).rows;
      if (rebuildIndexes)
        setAside.push(...(await secondaryIndexes(trx, 'sqlite')).map((i) => ({ type: 'index' as const, ...i })));
      // Written down beside the database until they are back, for a load killed outright.
      pending = await pendingFile(trx);
      if (pending) writeFileSync(pending, JSON.stringify(setAside));
      for (const o of setAside) await sql`drop ${sql.raw(o.type)} ${sql.id(o.name)}`.execute(trx);
    },
    async write(trx, batch) {
      for (const table of BULK_ORDER) await insert(trx, table, batch[table]);
    },
    async end(trx) {
      await sql`
        insert into ad_search_fts(rowid, title, body, terms, stems)
        select ad_id, title, body, terms, stems from ad_search where ad_id >= ${first}`.execute(trx);
      for (const o of setAside) await sql.raw(o.sql).execute(trx);
      if (pending) rmSync(pending, { force: true });
    },
  };
}

/** PostgreSQL: one `insert … select from unnest(column arrays)` per table and chunk. */
function postgresWriter(rebuildIndexes: boolean): BulkWriter {
  let restoreIndexes = async (_: Tx) => {};
  let first = 0;
  return {
    async begin(trx, firstId) {
      first = firstId;
      // More memory to build the indexes again (this transaction only).
      await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
      // The word list of migration 0013 is written in one statement at the end, not by its trigger
      // 39 rows at a time per ad.
      await sql`alter table ad_search disable trigger ad_words_follow`.execute(trx);
      // The counters of migration 0028 are counted once at the end (recountAll), not per batch.
      await sql`alter table ads disable trigger ad_counts_insert`.execute(trx);
      if (!rebuildIndexes) return;
      const restore = await setIndexesAside(trx, 'postgres');
      // Foreign keys too: checking each row costs as much as writing it; checking them all at once
      // when they are added again is a join. And the word list's key, built once after it is filled.
      const { rows: keys } = await sql<{ table: string; name: string; definition: string }>`
        select t.relname as table, c.conname as name, pg_get_constraintdef(c.oid) as definition
        from pg_constraint c join pg_class t on t.oid = c.conrelid
        where t.relnamespace = (select oid from pg_namespace where nspname = current_schema())
          and ((c.contype = 'f' and t.relname in (${sql.join(BULK_ORDER)}))
            or (c.contype = 'p' and t.relname = 'ad_words'))
        order by c.oid`.execute(trx);
      for (const k of keys) await sql`alter table ${sql.id(k.table)} drop constraint ${sql.id(k.name)}`.execute(trx);
      restoreIndexes = async (later) => {
        await restore(later);
        for (const k of keys) {
          await sql`alter table ${sql.id(k.table)} add constraint ${sql.id(k.name)} ${sql.raw(k.definition)}`.execute(
            later,
          );
        }
      };
    },
    async write(trx, batch) {
      for (const table of BULK_ORDER) {
        const types = Object.values(BULK_TABLES[table]);
        const flat = batch[table];
        const width = types.length;
        if (flat.length === 0) continue;
        const columns: unknown[][] = types.map(() => new Array(flat.length / width));
        for (let i = 0, row = 0; i < flat.length; i += width, row++) {
          for (let c = 0; c < width; c++) {
            const v = flat[i + c];
            // Booleans travel as 0/1 in a batch; PostgreSQL reads t/f.
            columns[c][row] = types[c] === 'bool' && v !== null ? (v ? 't' : 'f') : v;
          }
        }
        const text =
          `insert into ${table} (${columnsOf(table).join(',')}) select * from unnest(` +
          types.map((t, i) => `$${i + 1}::${t}[]`).join(',') +
          ')';
        await trx.executeQuery(CompiledQuery.raw(text, columns));
      }
    },
    async end(trx) {
      await sql`
        insert into ad_words (word, ad_id)
        select unnest(tsvector_to_array(document)), ad_id from ad_search where ad_id >= ${first}`.execute(trx);
      await restoreIndexes(trx);
      await sql`alter table ad_search enable trigger ad_words_follow`.execute(trx);
      await sql`alter table ads enable trigger ad_counts_insert`.execute(trx);
      // Ids were given explicitly: move the identity past them.
      await sql`select setval(pg_get_serial_sequence('ads', 'id'), (select max(id) from ads))`.execute(trx);
    },
  };
}

/**
 * SQLite settings for the load, put back afterwards: no fsync, and a page cache of up to 2 GB
 * (SQLite's default is 2 MB; with 256 MB, indexing a million ads' text at the end read the same
 * pages back from disk millions of times and took longer than all the rest).
 */
async function sqliteLoadSettings(db: DB) {
  const read = async (name: string) =>
    Object.values((await sql.raw<Record<string, number>>(`pragma ${name}`).execute(db)).rows[0] ?? {})[0];
  const before = { synchronous: await read('synchronous'), cache_size: await read('cache_size') };
  await sql`pragma synchronous = off`.execute(db);
  await sql`pragma cache_size = -2097152`.execute(db);
  return async () => {
    await sql.raw(`pragma synchronous = ${Number(before.synchronous)}`).execute(db);
    await sql.raw(`pragma cache_size = ${Number(before.cache_size)}`).execute(db);
    // The load went through the write-ahead log: move it into the database file and shrink the log.
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
  };
}

export interface BulkAdsOptions {
  count: number;
  /** Where the shared photos go; without it bulk ads have none. */
  storage?: MediaStorage;
  now?: Date;
  seed?: number;
  /** Ads per batch of statements. */
  chunk?: number;
  /**
   * Drop the ad tables' secondary indexes for the load and create them again at the end (default);
   * false keeps them and updates them row by row (several times slower).
   */
  rebuildIndexes?: boolean;
  /** Plan the ads in a worker thread while this one writes (default: from 20 000 ads). */
  worker?: boolean;
  log?: (message: string) => void;
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/**
 * Adds `count` ads quickly, for benchmarks: mostly published, attribute values, status history and
 * text index included, one shared photo per taxonomy (`ads/bulk/<taxonomy>`, never deleted by
 * anything but this data). Sellers: the demo sellers plus one bulk seller per 200 ads (at most
 * 2000). Not for a live site: on PostgreSQL one transaction holds the ad tables until it ends; on
 * SQLite others see the ads arrive batch by batch, and the ad tables without their indexes.
 */
export async function seedBulkAds(handle: Handle, options: BulkAdsOptions): Promise<SeedAdsReport> {
  const started = performance.now();
  const { db, dialect } = handle;
  const now = options.now ?? new Date();
  const seed = (options.seed ?? DEMO_ADS_SEED) + 1;
  const chunk = options.chunk ?? 5000;
  const rebuildIndexes = options.rebuildIndexes ?? true;
  const worker = options.worker ?? options.count >= 20_000;
  if (dialect === 'sqlite') {
    const restored = await restoreAfterBulkLoad(db);
    if (restored) options.log?.(`Created again ${restored} indexes and triggers an interrupted bulk load left out.`);
  }
  const catalogue = await loadCatalogue(db);
  // Read before the load's transaction: on PostgreSQL it takes locks the catalogue's tables share.
  const words = await loadCatalogueWords(db);
  const people = await ensureSellers(db, catalogue, now, Math.min(2000, Math.ceil(options.count / 200)));
  const shared = new Map<string, StoredPhoto>();
  if (options.storage) {
    for (const t of catalogue.taxonomies) {
      const bytes = await demoPhotoBytes(createRng(seed + t.id), t.slug, categoryHue(t.slug));
      shared.set(t.slug, await storeDemoPhoto(options.storage, bytes, now, `ads/bulk/${t.slug}`));
    }
  }
  const r = createRng(seed);
  const statuses = statusList(r, options.count, BULK_MIX, false);
  const owners = new Set<string>();
  let photos = 0;
  // Ctrl-C (or a stop signal) ends the load after the batch being written, keeping what it wrote.
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    options.log?.('Stopping after this batch…');
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  const writer = dialect === 'sqlite' ? sqliteWriter(rebuildIndexes) : postgresWriter(rebuildIndexes);
  let done = 0;
  /** `each` runs a step in its transaction; with `restoreOnFailure`, `end` runs even if the load fails. */
  const load = async (each: (step: (trx: Tx) => Promise<void>) => Promise<void>, restoreOnFailure: boolean) => {
    let first = 0;
    await each(async (trx) => {
      first = await nextAdId(trx);
      await writer.begin(trx, first);
    });
    let ended = false;
    try {
      const plan: BulkPlan = {
        ctx: { catalogue, people, now, seed, words },
        statuses,
        first,
        photos: shared,
      };
      const batches = worker ? plannedInWorker(plan, options.count, chunk) : plannedHere(plan, options.count, chunk);
      // One batch is written while the next is planned (by the worker, or here while PostgreSQL
      // works on the previous one).
      let writing: Promise<void> = Promise.resolve();
      const loading = performance.now();
      for await (const batch of batches) {
        await writing;
        if (interrupted) break;
        for (let i = 1; i < batch.ads.length; i += ADS_WIDTH) owners.add(batch.ads[i] as string);
        photos += batch.ad_images.length / IMAGES_WIDTH;
        done += batch.ads.length / ADS_WIDTH;
        const progress = `${done} / ${options.count} ads`;
        writing = each((trx) => writer.write(trx, batch)).then(() => options.log?.(progress));
        // A failure is thrown where it is awaited, not reported as unhandled meanwhile.
        writing.catch(() => {});
      }
      await writing;
      options.log?.(`Rows written in ${seconds(loading)} s; indexes and constraints again…`);
      const indexing = performance.now();
      ended = true;
      await each((trx) => writer.end(trx));
      options.log?.(`… in ${seconds(indexing)} s.`);
    } finally {
      if (!ended && restoreOnFailure) await each((trx) => writer.end(trx));
    }
  };
  const restoreSettings = dialect === 'sqlite' ? await sqliteLoadSettings(db) : null;
  try {
    if (dialect === 'postgres') {
      // PostgreSQL: all in one transaction (others see none or all of it, and the schema never
      // without its indexes and keys).
      await db.transaction().execute((trx) => load((step) => step(trx), false));
    } else {
      // SQLite: a transaction per batch. One for the whole load would keep every page it wrote in
      // the write-ahead log until the end, and reading them back from there slows it down more and
      // more (a million ads never finished); the triggers and indexes are put back even if the load
      // fails, but not if the process is killed outright.
      await load((step) => db.transaction().execute(step), true);
    }
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await restoreSettings?.();
  }
  const counting = performance.now();
  await recountAds(
    db,
    catalogue.taxonomies.map((t) => t.id),
    owners,
  );
  // The counters of migration 0028, whose triggers the load set aside: counted from the rows.
  await recountAll(db, dialect);
  // Fresh statistics for the query planner after a bulk load (SQLite has none until ANALYZE and
  // would otherwise walk a status index for "these 24 ids"; PostgreSQL's autovacuum is not instant).
  await sql`analyze`.execute(db);
  // PostgreSQL reads the word list from its key alone only where the rows are known visible to all.
  if (dialect === 'postgres') await sql`vacuum ad_words`.execute(db);
  options.log?.(`Counters and planner statistics in ${seconds(counting)} s.`);
  if (interrupted) options.log?.(`Interrupted: ${done} of ${options.count} ads added.`);
  const tally: Partial<Record<AdStatus, number>> = {};
  for (const s of statuses.slice(0, done)) tally[s] = (tally[s] ?? 0) + 1;
  return {
    ads: done,
    photos,
    sellers: owners.size,
    statuses: tally,
    ms: Math.round(performance.now() - started),
  };
}
