import type { PackageSort, PackageValues } from '../../../app/lib/validation/packages.ts';
import type { DB } from '../../db/index.ts';
import type { PackageAudience } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toBool, toIso, toNumber } from '../../db/values.ts';
import { containsAny, decodeCursor, keysetPage, type SortDirection } from '../admin/keyset.ts';
import type { Actor } from '../ads/rules.ts';
import { changedFields, recordRevision } from '../audit.ts';
import { Invalid, NotFound } from '../errors.ts';

export const PACKAGES_PAGE_SIZE = 25;

export interface Package {
  id: number;
  name_ar: string;
  name_en: string;
  description_ar: string | null;
  description_en: string | null;
  price: number;
  currency: string;
  duration_days: number;
  max_active_ads: number;
  featured_ads: number;
  reposts: number;
  audience: PackageAudience;
  active: boolean;
  created_at: string;
  updated_at: string;
}

export interface PackageRow extends Package {
  /** Subscriptions counting now. */
  current_subscriptions: number;
  /** Every subscription ever granted. */
  subscriptions: number;
}

const COLUMNS = [
  'p.id',
  'p.name_ar',
  'p.name_en',
  'p.description_ar',
  'p.description_en',
  'p.price',
  'p.currency',
  'p.duration_days',
  'p.max_active_ads',
  'p.featured_ads',
  'p.reposts',
  'p.audience',
  'p.active',
  'p.created_at',
  'p.updated_at',
] as const;

type Raw = {
  id: number;
  price: number | string;
  active: boolean | number;
  created_at: Date | string;
  updated_at: Date | string;
} & Omit<Package, 'id' | 'price' | 'active' | 'created_at' | 'updated_at'>;

const toPackage = (r: Raw): Package => ({
  id: Number(r.id),
  name_ar: r.name_ar,
  name_en: r.name_en,
  description_ar: r.description_ar,
  description_en: r.description_en,
  price: toNumber(r.price),
  currency: r.currency,
  duration_days: toNumber(r.duration_days),
  max_active_ads: toNumber(r.max_active_ads),
  featured_ads: toNumber(r.featured_ads),
  reposts: toNumber(r.reposts),
  audience: r.audience,
  active: toBool(r.active),
  created_at: toIso(r.created_at),
  updated_at: toIso(r.updated_at),
});

const SORT_COLUMN: Record<PackageSort, string> = {
  created: 'p.created_at',
  price: 'p.price',
  duration: 'p.duration_days',
};

export interface PackageListQuery {
  q: string;
  sort: PackageSort;
  dir: SortDirection;
  /** `active`: on | off; `audience`: individual | company. */
  filters: Record<string, string>;
  after: string | null;
}

/** One page of packages: searched by name (either language), filtered, sorted, paged by key. */
export async function listPackages(db: DB, query: PackageListQuery, now = new Date()) {
  const { q, sort, dir, filters } = query;
  const base = db
    .selectFrom('packages as p')
    .select(COLUMNS)
    .select((eb) => [
      eb
        .selectFrom('subscriptions as s')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('s.package_id', '=', 'p.id')
        .where('s.starts_at', '<=', now)
        .where('s.ends_at', '>', now)
        .as('current_subscriptions'),
      eb
        .selectFrom('subscriptions as s')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('s.package_id', '=', 'p.id')
        .as('subscriptions'),
    ])
    .$if(q !== '', (qb) => qb.where(containsAny(['p.name_ar', 'p.name_en'], q)))
    .$if(filters.active === 'on', (qb) => qb.where('p.active', '=', true))
    .$if(filters.active === 'off', (qb) => qb.where('p.active', '=', false))
    .$if(filters.audience !== undefined, (qb) => qb.where('p.audience', '=', filters.audience as PackageAudience));
  const page = await keysetPage(base, {
    column: SORT_COLUMN[sort],
    id: 'p.id',
    direction: dir,
    cursor: decodeCursor(query.after),
    limit: PACKAGES_PAGE_SIZE,
    keyOf: (r) => ({
      value:
        sort === 'created' ? toIso(r.created_at) : sort === 'price' ? toNumber(r.price) : toNumber(r.duration_days),
      id: Number(r.id),
    }),
  });
  return {
    rows: page.rows.map(
      (r): PackageRow => ({
        ...toPackage(r as Raw),
        current_subscriptions: toNumber(r.current_subscriptions),
        subscriptions: toNumber(r.subscriptions),
      }),
    ),
    next: page.next,
  };
}

/** One package, with how many subscriptions it has (ever, and counting now). */
export async function getPackage(db: DB, id: number, now = new Date()): Promise<PackageRow> {
  const row = await db.selectFrom('packages as p').select(COLUMNS).where('p.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('errors.not-found');
  return { ...toPackage(row as Raw), ...(await subscriptionCounts(db, id, now)) };
}

async function subscriptionCounts(db: DB, packageId: number, now: Date) {
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => [
      eb.fn.countAll().as('all'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('starts_at', '<=', now), eb('ends_at', '>', now)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('current'),
    ])
    .where('package_id', '=', packageId)
    .executeTakeFirst();
  return { subscriptions: toNumber(row?.all), current_subscriptions: toNumber(row?.current ?? 0) };
}

/** The stored columns of a package form (blank descriptions stored as null). */
const columnsOf = (v: PackageValues) => ({
  name_ar: v.name_ar,
  name_en: v.name_en,
  description_ar: v.description_ar ?? null,
  description_en: v.description_en ?? null,
  price: v.price,
  currency: v.currency,
  duration_days: v.duration_days,
  max_active_ads: v.max_active_ads,
  featured_ads: v.featured_ads,
  reposts: v.reposts,
  audience: v.audience,
  active: v.active,
});

export async function createPackage(db: DB, actor: Actor, values: PackageValues, now = new Date()): Promise<number> {
  return withTransaction(db, async (trx) => {
    const columns = columnsOf(values);
    const row = await trx
      .insertInto('packages')
      .values({ ...columns, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await recordRevision(trx, actor, { type: 'package', id }, 'create', changedFields(null, columns));
    return id;
  });
}

/**
 * Saves a package's form. What was already granted keeps the limits it was sold with (each
 * subscription holds its own copy). Returns the changed fields (none: nothing written).
 */
export async function updatePackage(
  db: DB,
  actor: Actor,
  id: number,
  values: PackageValues,
  now = new Date(),
): Promise<string[]> {
  return withTransaction(db, async (trx) => {
    const before = await trx.selectFrom('packages as p').select(COLUMNS).where('p.id', '=', id).executeTakeFirst();
    if (!before) throw new NotFound('errors.not-found');
    const old = toPackage(before as Raw);
    const changes = changedFields<Record<string, unknown>>({ ...old }, columnsOf(values));
    if (Object.keys(changes).length === 0) return [];
    await trx
      .updateTable('packages')
      .set({ ...columnsOf(values), updated_at: now })
      .where('id', '=', id)
      .execute();
    await recordRevision(trx, actor, { type: 'package', id }, 'edit', changes);
    return Object.keys(changes);
  });
}

/** Switches a package on (offered for grants) or off. Returns whether it changed. */
export async function setPackageActive(
  db: DB,
  actor: Actor,
  id: number,
  active: boolean,
  now = new Date(),
): Promise<boolean> {
  return withTransaction(db, async (trx) => {
    const row = await trx.selectFrom('packages').select('active').where('id', '=', id).executeTakeFirst();
    if (!row) throw new NotFound('errors.not-found');
    if (toBool(row.active) === active) return false;
    await trx.updateTable('packages').set({ active, updated_at: now }).where('id', '=', id).execute();
    await recordRevision(trx, actor, { type: 'package', id }, active ? 'activate' : 'deactivate', {
      active: [!active, active],
    });
    return true;
  });
}

/**
 * Deletes a package nobody was ever granted. One with subscriptions is refused with their number
 * (`package-has-subscriptions:<n>`), counted in the transaction of the delete.
 */
export async function deletePackage(db: DB, actor: Actor, id: number): Promise<void> {
  await withTransaction(db, async (trx) => {
    const before = await trx.selectFrom('packages as p').select(COLUMNS).where('p.id', '=', id).executeTakeFirst();
    if (!before) throw new NotFound('errors.not-found');
    const used = await trx
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('package_id', '=', id)
      .executeTakeFirstOrThrow();
    if (toNumber(used.n) > 0) throw new Invalid({ form: [`package-has-subscriptions:${toNumber(used.n)}`] });
    await trx.deleteFrom('packages').where('id', '=', id).execute();
    const old = toPackage(before as Raw);
    await recordRevision(
      trx,
      actor,
      { type: 'package', id },
      'delete',
      Object.fromEntries(
        Object.entries(columnsOf({ ...old, active: old.active } as never)).map(([k, v]) => [k, [v, null]]),
      ),
    );
  });
}

/** Packages staff may grant now to the audience (members or companies): switched on, by name. */
export async function grantablePackages(db: DB, audience: PackageAudience = 'individual'): Promise<Package[]> {
  const rows = await db
    .selectFrom('packages as p')
    .select(COLUMNS)
    .where('p.active', '=', true)
    .where('p.audience', '=', audience)
    .orderBy('p.name_en')
    .orderBy('p.id')
    .execute();
  return rows.map((r) => toPackage(r as Raw));
}

/** Every package's id and names (the subscriptions list's filter). */
export async function packageNames(db: DB) {
  const rows = await db
    .selectFrom('packages')
    .select(['id', 'name_ar', 'name_en'])
    .orderBy('name_en')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), name_ar: r.name_ar, name_en: r.name_en }));
}
