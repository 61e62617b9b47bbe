// Companies (docs/product/back-office.md, "Companies"; docs/product/companies.md): dealers and
// agencies whose members' ads show the company's name and logo and link to its page
// `/companies/{slug}`. Staff create, edit, verify and delete them; every change writes a revision
// in its transaction and tells the page cache once committed.
import { randomBytes } from 'node:crypto';
import type { ListQuery } from '../../../app/lib/admin-list.ts';
import type { CompanyInput, CompanySort } from '../../../app/lib/validation/companies.ts';
import type { DB } from '../../db/index.ts';
import { afterCommitOf, withTransaction } from '../../db/transaction.ts';
import { toBool, toIso, toNumber } from '../../db/values.ts';
import { type ImageVariantSpec, processImage } from '../../media/images.ts';
import { type MediaStorage, UPLOADS_PUBLIC_PATH } from '../../media/storage.ts';
import { pagesChanged } from '../ad-changes.ts';
import { containsAny, decodeCursor, type KeysetPage, keysetPage } from '../admin/keyset.ts';
import type { Actor } from '../ads/rules.ts';
import { changedFields, recordRevision } from '../audit.ts';
import { Invalid, NotFound } from '../errors.ts';
import { moveMemberAds } from './members.ts';

/** A logo fits inside these boxes, keeping its shape (logos are rarely square). */
export const LOGO_VARIANTS: readonly ImageVariantSpec[] = [
  { name: 'large', width: 256, height: 256, fit: 'inside' },
  { name: 'small', width: 64, height: 64, fit: 'inside' },
];

export interface LogoUrls {
  small: string;
  large: string;
}

/** The public URLs of a logo's variants from its key base (`companies.logo`), or null without one. */
export function logoUrls(base: string | null | undefined): LogoUrls | null {
  if (!base) return null;
  return { small: `${UPLOADS_PUBLIC_PATH}/${base}-small.webp`, large: `${UPLOADS_PUBLIC_PATH}/${base}-large.webp` };
}

const logoKeys = (base: string | null | undefined) => (base ? LOGO_VARIANTS.map((v) => `${base}-${v.name}.webp`) : []);

async function deleteFiles(storage: MediaStorage, keys: string[]) {
  // Leftover files are harmless (random keys, no longer linked); a failure must not undo the change.
  await Promise.allSettled(keys.map((key) => storage.delete(key)));
}

// Staff: the list --------------------------------------------------------------------------------

export interface CompanyRow {
  id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  verified: boolean;
  logo: LogoUrls | null;
  members: number;
  city: { name_ar: string; name_en: string } | null;
  created_at: string;
}

const SORT_COLUMN: Record<CompanySort, string> = { created: 'c.created_at', name: 'c.name_en' };

/** The company whose address name (slug) this is, or null. */
export async function findCompanyId(db: DB, slug: string): Promise<number | null> {
  const row = await db.selectFrom('companies').select('id').where('slug', '=', slug.toLowerCase()).executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** One page of companies: search by either name or the address name, filter by verification. */
export async function listCompanies(
  db: DB,
  query: ListQuery<CompanySort>,
  limit = 25,
): Promise<KeysetPage<CompanyRow>> {
  let q = db
    .selectFrom('companies as c')
    .leftJoin('cities as ci', 'ci.id', 'c.city_id')
    .select([
      'c.id',
      'c.slug',
      'c.name_ar',
      'c.name_en',
      'c.verified',
      'c.logo',
      'c.created_at',
      'ci.name_ar as city_ar',
      'ci.name_en as city_en',
      (eb) =>
        eb
          .selectFrom('company_members as m')
          .select((e) => e.fn.countAll().as('n'))
          .whereRef('m.company_id', '=', 'c.id')
          .as('members'),
    ]);
  if (query.q) q = q.where(containsAny(['c.name_ar', 'c.name_en', 'c.slug'], query.q));
  if (query.filters.verified) q = q.where('c.verified', '=', query.filters.verified === 'yes');
  const column = SORT_COLUMN[query.sort];
  const page = await keysetPage(q, {
    column,
    id: 'c.id',
    direction: query.dir,
    cursor: decodeCursor(query.after),
    limit,
    keyOf: (r) => ({ value: query.sort === 'name' ? r.name_en : toIso(r.created_at), id: r.id }),
  });
  return {
    next: page.next,
    rows: page.rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      name_ar: r.name_ar,
      name_en: r.name_en,
      verified: toBool(r.verified),
      logo: logoUrls(r.logo),
      members: toNumber(r.members),
      city: r.city_ar ? { name_ar: r.city_ar, name_en: r.city_en as string } : null,
      created_at: toIso(r.created_at),
    })),
  };
}

// Staff: one company -----------------------------------------------------------------------------

export interface Company {
  id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  description: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  city_id: number | null;
  logo: LogoUrls | null;
  verified: boolean;
  created_at: string;
  updated_at: string;
}

type CompanyRecord = Awaited<ReturnType<typeof readCompany>>;

function readCompany(db: DB, where: { id: number } | { slug: string }) {
  const q = db.selectFrom('companies').selectAll();
  return ('id' in where ? q.where('id', '=', where.id) : q.where('slug', '=', where.slug)).executeTakeFirst();
}

function companyOf(r: NonNullable<CompanyRecord>): Company {
  return {
    id: r.id,
    slug: r.slug,
    name_ar: r.name_ar,
    name_en: r.name_en,
    description: r.description,
    phone: r.phone,
    email: r.email,
    website: r.website,
    city_id: r.city_id,
    logo: logoUrls(r.logo),
    verified: toBool(r.verified),
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
  };
}

export async function getCompany(db: DB, id: number): Promise<Company> {
  const r = await readCompany(db, { id });
  if (!r) throw new NotFound('errors.not-found');
  return companyOf(r);
}

/** The columns a form writes, checked: the address name free, the city known. */
async function companyValues(tx: DB, input: CompanyInput, id: number | null) {
  const taken = await tx
    .selectFrom('companies')
    .select('id')
    .where('slug', '=', input.slug)
    .$if(id !== null, (q) => q.where('id', '<>', id as number))
    .executeTakeFirst();
  if (taken) throw new Invalid({ slug: ['slug-taken'] });
  let cityId: number | null = null;
  if (input.city) {
    const city = await tx.selectFrom('cities').select('id').where('id', '=', Number(input.city)).executeTakeFirst();
    if (!city) throw new Invalid({ city: ['in'] });
    cityId = city.id;
  }
  return {
    slug: input.slug,
    name_ar: input.name_ar,
    name_en: input.name_en,
    description: input.description ?? null,
    phone: input.phone ?? null,
    email: input.email?.toLowerCase() ?? null,
    website: input.website ?? null,
    city_id: cityId,
    verified: input.verified,
  };
}

export async function createCompany(db: DB, actor: Actor, input: CompanyInput, now = new Date()): Promise<number> {
  return withTransaction(db, async (tx) => {
    const values = await companyValues(tx, input, null);
    const row = await tx
      .insertInto('companies')
      .values({ ...values, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await recordRevision(tx, actor, { type: 'company', id }, 'create', changedFields(null, values));
    return id;
  });
}

/** Saves the form; a form with nothing changed writes nothing. */
export async function updateCompany(
  db: DB,
  actor: Actor,
  id: number,
  input: CompanyInput,
  now = new Date(),
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const before = await readCompany(tx, { id });
    if (!before) throw new NotFound('errors.not-found');
    const values = await companyValues(tx, input, id);
    const changes = changedFields({ ...before, verified: toBool(before.verified) }, values);
    if (Object.keys(changes).length === 0) return;
    await tx
      .updateTable('companies')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .execute();
    await recordRevision(tx, actor, { type: 'company', id }, 'update', changes);
    await companyShown(tx, id);
  });
}

/**
 * The pages showing the company are stale once committed: its page, its members' pages, and the
 * pages listing its ads (cards show its name and logo; every listing carries the `ads` tag).
 */
async function companyShown(tx: DB, id: number) {
  const members = await tx.selectFrom('company_members').select('user_id').where('company_id', '=', id).execute();
  await afterCommitOf(tx, () => pagesChanged([`company:${id}`, 'ads', ...members.map((m) => `user:${m.user_id}`)]));
}

/**
 * Deletes the company: its members' ads are theirs again, its badges, logo and packages (its
 * subscriptions: they counted only for its members) go with it; the payments stay, without it.
 */
export async function deleteCompany(
  db: DB,
  storage: MediaStorage,
  actor: Actor,
  id: number,
  now = new Date(),
): Promise<void> {
  await withTransaction(db, async (tx, { afterCommit }) => {
    const before = await readCompany(tx, { id });
    if (!before) throw new NotFound('errors.not-found');
    const members = await tx.selectFrom('company_members').select('user_id').where('company_id', '=', id).execute();
    await companyShown(tx, id);
    await moveMemberAds(
      tx,
      members.map((m) => m.user_id),
      null,
      now,
    );
    // Ads of former members that still name it (none when the members' ads were kept in step).
    await tx.updateTable('ads').set({ company_id: null, updated_at: now }).where('company_id', '=', id).execute();
    await tx.deleteFrom('subscriptions').where('company_id', '=', id).execute();
    await tx.deleteFrom('companies').where('id', '=', id).execute();
    await recordRevision(tx, actor, { type: 'company', id }, 'delete', {
      slug: [before.slug, null],
      name_ar: [before.name_ar, null],
      name_en: [before.name_en, null],
      members: [members.map((m) => m.user_id), null],
    });
    afterCommit(() => deleteFiles(storage, logoKeys(before.logo)));
  });
}

/**
 * Checks the upload by its bytes (server/media/images.ts: type sniffed, EXIF stripped, WebP
 * variants), stores it under a fresh key, points the company at it and deletes the previous one.
 * Bad files throw Invalid({ image: [code] }).
 */
export async function setCompanyLogo(
  db: DB,
  storage: MediaStorage,
  actor: Actor,
  id: number,
  bytes: Buffer,
  now = new Date(),
): Promise<LogoUrls> {
  const exists = await db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw new NotFound('errors.not-found');
  const processed = await processImage(bytes, { variants: LOGO_VARIANTS, maxBytes: 5 * 1024 * 1024 });
  const base = `companies/${id}/${randomBytes(8).toString('hex')}`;
  const keys = processed.variants.map((v) => `${base}-${v.name}.webp`);
  try {
    await Promise.all(processed.variants.map((v, i) => storage.put(keys[i] as string, v.bytes, v.contentType)));
    await withTransaction(db, async (tx, { afterCommit }) => {
      const row = await readCompany(tx, { id });
      if (!row) throw new NotFound('errors.not-found');
      await tx.updateTable('companies').set({ logo: base, updated_at: now }).where('id', '=', id).execute();
      await recordRevision(tx, actor, { type: 'company', id }, 'logo', { logo: [row.logo, base] });
      await companyShown(tx, id);
      afterCommit(() => deleteFiles(storage, logoKeys(row.logo)));
    });
  } catch (error) {
    await deleteFiles(storage, keys);
    throw error;
  }
  return logoUrls(base) as LogoUrls;
}

export async function removeCompanyLogo(
  db: DB,
  storage: MediaStorage,
  actor: Actor,
  id: number,
  now = new Date(),
): Promise<void> {
  await withTransaction(db, async (tx, { afterCommit }) => {
    const row = await readCompany(tx, { id });
    if (!row) throw new NotFound('errors.not-found');
    if (!row.logo) return;
    await tx.updateTable('companies').set({ logo: null, updated_at: now }).where('id', '=', id).execute();
    await recordRevision(tx, actor, { type: 'company', id }, 'logo', { logo: [row.logo, null] });
    await companyShown(tx, id);
    afterCommit(() => deleteFiles(storage, logoKeys(row.logo)));
  });
}

// Everyone: what pages show ---------------------------------------------------------------------

/** What an ad card, the ad page and a member's page show of a company. */
export interface CompanyMark {
  id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  logo: LogoUrls | null;
  verified: boolean;
}

/** The marks of these companies, by id. */
export async function companyMarks(db: DB, ids: readonly number[]): Promise<Map<number, CompanyMark>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('companies')
    .select(['id', 'slug', 'name_ar', 'name_en', 'logo', 'verified'])
    .where('id', 'in', unique)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        slug: r.slug,
        name_ar: r.name_ar,
        name_en: r.name_en,
        logo: logoUrls(r.logo),
        verified: toBool(r.verified),
      },
    ]),
  );
}

/** The company a member belongs to, or null. */
export async function companyOfMember(db: DB, userId: string): Promise<CompanyMark | null> {
  const row = await db
    .selectFrom('company_members')
    .select('company_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return (await companyMarks(db, [row.company_id])).get(row.company_id) ?? null;
}

export interface PublicCompany extends Company {
  city: { name_ar: string; name_en: string } | null;
  /** Member ids: the page's cache tags. */
  members: string[];
}

/** A company's public page by its address name; NotFound for an unknown one. */
export async function loadPublicCompany(db: DB, slug: string): Promise<PublicCompany> {
  const r = await readCompany(db, { slug });
  if (!r) throw new NotFound('errors.not-found');
  const [city, members] = await Promise.all([
    r.city_id === null
      ? Promise.resolve(undefined)
      : db.selectFrom('cities').select(['name_ar', 'name_en']).where('id', '=', r.city_id).executeTakeFirst(),
    db.selectFrom('company_members').select('user_id').where('company_id', '=', r.id).execute(),
  ]);
  return { ...companyOf(r), city: city ?? null, members: members.map((m) => m.user_id) };
}

/** Every company's address name and last change, for the sitemap. */
export async function listCompanySlugs(db: DB): Promise<{ slug: string; updated_at: string }[]> {
  const rows = await db.selectFrom('companies').select(['slug', 'updated_at']).orderBy('id').execute();
  return rows.map((r) => ({ slug: r.slug, updated_at: toIso(r.updated_at) }));
}

/** How many published ads the company has (the delete's statement). */
export async function countCompanyAds(db: DB, id: number): Promise<number> {
  const r = await db
    .selectFrom('ads')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('company_id', '=', id)
    .where('status', '=', 'published')
    .executeTakeFirstOrThrow();
  return toNumber(r.n);
}
