import type { ListQuery } from '../../app/lib/admin-list.ts';
import type { BadgeChipData, BadgeTargetKind } from '../../app/lib/badges.ts';
import type { BadgeInput, BadgeSort } from '../../app/lib/validation/companies.ts';
import type { DB } from '../db/index.ts';
import { afterCommitOf, withTransaction } from '../db/transaction.ts';
import { toIso, toNumber } from '../db/values.ts';
import { pagesChanged } from './ad-changes.ts';
import { containsAny, decodeCursor, type KeysetPage, keysetPage } from './admin/keyset.ts';
import type { Actor } from './ads/rules.ts';
import { changedFields, recordRevision } from './audit.ts';
import { findCompanyId } from './companies/companies.ts';
import { Invalid, NotFound } from './errors.ts';

/** A badge's fields as its form gives them (the descriptions may be left out). */
type BadgeFields = Omit<BadgeInput, 'description_ar' | 'description_en'> &
  Partial<Pick<BadgeInput, 'description_ar' | 'description_en'>>;

export interface Badge extends BadgeChipData {
  description_ar: string | null;
  description_en: string | null;
  target: BadgeTargetKind;
  created_at: string;
  updated_at: string;
}

export interface BadgeRow extends BadgeChipData {
  target: BadgeTargetKind;
  holders: number;
  created_at: string;
}

export async function listBadges(db: DB, query: ListQuery<BadgeSort>, limit = 25): Promise<KeysetPage<BadgeRow>> {
  let q = db.selectFrom('badges as b').select([
    'b.id',
    'b.slug',
    'b.name_ar',
    'b.name_en',
    'b.icon',
    'b.colour',
    'b.target',
    'b.created_at',
    (eb) =>
      eb
        .selectFrom('badge_grants as g')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('g.badge_id', '=', 'b.id')
        .as('holders'),
  ]);
  if (query.q) q = q.where(containsAny(['b.name_ar', 'b.name_en', 'b.slug'], query.q));
  if (query.filters.target) q = q.where('b.target', '=', query.filters.target as BadgeTargetKind);
  const page = await keysetPage(q, {
    column: query.sort === 'name' ? 'b.name_en' : 'b.created_at',
    id: 'b.id',
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
      icon: r.icon,
      colour: r.colour,
      target: r.target,
      holders: toNumber(r.holders),
      created_at: toIso(r.created_at),
    })),
  };
}

function readBadge(db: DB, id: number) {
  return db.selectFrom('badges').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getBadge(db: DB, id: number): Promise<Badge> {
  const r = await readBadge(db, id);
  if (!r) throw new NotFound('errors.not-found');
  return { ...r, created_at: toIso(r.created_at), updated_at: toIso(r.updated_at) };
}

async function badgeValues(tx: DB, input: BadgeFields, id: number | null) {
  const taken = await tx
    .selectFrom('badges')
    .select('id')
    .where('slug', '=', input.slug)
    .$if(id !== null, (q) => q.where('id', '<>', id as number))
    .executeTakeFirst();
  if (taken) throw new Invalid({ slug: ['slug-taken'] });
  return {
    slug: input.slug,
    name_ar: input.name_ar,
    name_en: input.name_en,
    description_ar: input.description_ar ?? null,
    description_en: input.description_en ?? null,
    icon: input.icon,
    colour: input.colour,
    target: input.target,
  };
}

export async function createBadge(db: DB, actor: Actor, input: BadgeFields, now = new Date()): Promise<number> {
  return withTransaction(db, async (tx) => {
    const values = await badgeValues(tx, input, null);
    const row = await tx
      .insertInto('badges')
      .values({ ...values, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await recordRevision(tx, actor, { type: 'badge', id }, 'create', changedFields(null, values));
    return id;
  });
}

/**
 * Saves the form. The target (members or companies) cannot change once the badge is held: the
 * holders would no longer fit it (`target-in-use`).
 */
export async function updateBadge(db: DB, actor: Actor, id: number, input: BadgeFields, now = new Date()) {
  await withTransaction(db, async (tx) => {
    const before = await readBadge(tx, id);
    if (!before) throw new NotFound('errors.not-found');
    const values = await badgeValues(tx, input, id);
    if (values.target !== before.target) {
      const held = await tx.selectFrom('badge_grants').select('id').where('badge_id', '=', id).executeTakeFirst();
      if (held) throw new Invalid({ target: ['target-in-use'] });
    }
    const changes = changedFields(before, values);
    if (Object.keys(changes).length === 0) return;
    await tx
      .updateTable('badges')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .execute();
    await recordRevision(tx, actor, { type: 'badge', id }, 'update', changes);
    await holdersShown(tx, id);
  });
}

/** How many hold the badge (the delete's confirmation states it). */
export async function countHolders(db: DB, id: number): Promise<number> {
  const r = await db
    .selectFrom('badge_grants')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('badge_id', '=', id)
    .executeTakeFirstOrThrow();
  return toNumber(r.n);
}

/** Deletes the badge; every holder loses it. */
export async function deleteBadge(db: DB, actor: Actor, id: number): Promise<void> {
  await withTransaction(db, async (tx) => {
    const before = await readBadge(tx, id);
    if (!before) throw new NotFound('errors.not-found');
    const holders = await countHolders(tx, id);
    await holdersShown(tx, id);
    await tx.deleteFrom('badges').where('id', '=', id).execute();
    await recordRevision(tx, actor, { type: 'badge', id }, 'delete', {
      slug: [before.slug, null],
      name_ar: [before.name_ar, null],
      name_en: [before.name_en, null],
      holders: [holders, 0],
    });
  });
}

/** The pages showing the badge's holders are stale once committed (their pages and their ads' lists). */
async function holdersShown(tx: DB, badgeId: number) {
  const rows = await tx
    .selectFrom('badge_grants')
    .select(['user_id', 'company_id'])
    .where('badge_id', '=', badgeId)
    .execute();
  await afterCommitOf(tx, () => pagesChanged(['ads', ...rows.map(holderTag)]));
}

const holderTag = (h: { user_id: string | null; company_id: number | null }) =>
  h.user_id !== null ? `user:${h.user_id}` : `company:${h.company_id}`;

// Granting ----------------------------------------------------------------------------------------

/** A badge's holder: a member or a company, as the badge's target says. */
export type BadgeHolder = { userId: string; companyId?: undefined } | { companyId: number; userId?: undefined };

async function checkHolder(tx: DB, badge: { target: string }, holder: BadgeHolder) {
  if (holder.userId !== undefined) {
    if (badge.target !== 'user') throw new Invalid({ holder: ['badge-for-companies'] });
    const u = await tx.selectFrom('users').select('id').where('id', '=', holder.userId).executeTakeFirst();
    if (!u) throw new NotFound('errors.not-found');
  } else {
    if (badge.target !== 'company') throw new Invalid({ holder: ['badge-for-members'] });
    const c = await tx.selectFrom('companies').select('id').where('id', '=', holder.companyId).executeTakeFirst();
    if (!c) throw new NotFound('errors.not-found');
  }
}

const holderSubject = (holder: BadgeHolder) =>
  holder.userId !== undefined ? { type: 'user', id: holder.userId } : { type: 'company', id: holder.companyId };

/**
 * Grants the badge to a member (`userId`) or a company (`companyId`), as its target allows.
 * Refused: an unknown badge or holder (NotFound), the wrong kind of holder (Invalid on `holder`:
 * `badge-for-members` / `badge-for-companies`), a holder who has it already (`badge-held`).
 * The revision is the holder's (subject `user` or `company`, action `grant-badge`).
 */
export async function grantBadge(
  db: DB,
  actor: Actor,
  input: { badgeId: number } & BadgeHolder,
  now = new Date(),
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const badge = await readBadge(tx, input.badgeId);
    if (!badge) throw new NotFound('errors.not-found');
    await checkHolder(tx, badge, input);
    const held = await tx
      .selectFrom('badge_grants')
      .select('id')
      .where('badge_id', '=', input.badgeId)
      .$if(input.userId !== undefined, (q) => q.where('user_id', '=', input.userId as string))
      .$if(input.companyId !== undefined, (q) => q.where('company_id', '=', input.companyId as number))
      .executeTakeFirst();
    if (held) throw new Invalid({ holder: ['badge-held'] });
    await tx
      .insertInto('badge_grants')
      .values({
        badge_id: input.badgeId,
        user_id: input.userId ?? null,
        company_id: input.companyId ?? null,
        granted_by: actor.id,
        created_at: now,
      })
      .execute();
    await recordRevision(tx, actor, holderSubject(input), 'grant-badge', { badge: [null, badge.slug] });
    const tag = holderTag({ user_id: input.userId ?? null, company_id: input.companyId ?? null });
    await afterCommitOf(tx, () => pagesChanged(['ads', tag]));
  });
}

/** Takes the badge back; NotFound when the holder does not have it. */
export async function revokeBadge(db: DB, actor: Actor, input: { badgeId: number } & BadgeHolder): Promise<void> {
  await withTransaction(db, async (tx) => {
    const badge = await readBadge(tx, input.badgeId);
    if (!badge) throw new NotFound('errors.not-found');
    const removed = await tx
      .deleteFrom('badge_grants')
      .where('badge_id', '=', input.badgeId)
      .$if(input.userId !== undefined, (q) => q.where('user_id', '=', input.userId as string))
      .$if(input.companyId !== undefined, (q) => q.where('company_id', '=', input.companyId as number))
      .executeTakeFirst();
    if (toNumber(removed.numDeletedRows) === 0) throw new NotFound('errors.not-found');
    await recordRevision(tx, actor, holderSubject(input), 'revoke-badge', { badge: [badge.slug, null] });
    const tag = holderTag({ user_id: input.userId ?? null, company_id: input.companyId ?? null });
    await afterCommitOf(tx, () => pagesChanged(['ads', tag]));
  });
}

export interface BadgeGrant {
  id: number;
  holder:
    | { kind: 'user'; id: string; name: string }
    | { kind: 'company'; id: number; name_ar: string; name_en: string; slug: string };
  created_at: string;
}

/** One page of a badge's holders, newest grant first. */
export async function listGrants(
  db: DB,
  badgeId: number,
  after: string | null,
  limit = 25,
): Promise<KeysetPage<BadgeGrant>> {
  const q = db
    .selectFrom('badge_grants as g')
    .leftJoin('users as u', 'u.id', 'g.user_id')
    .leftJoin('companies as c', 'c.id', 'g.company_id')
    .select([
      'g.id',
      'g.user_id',
      'g.company_id',
      'g.created_at',
      'u.name as user_name',
      'c.name_ar',
      'c.name_en',
      'c.slug',
    ])
    .where('g.badge_id', '=', badgeId);
  const page = await keysetPage(q, {
    column: 'g.id',
    id: 'g.id',
    direction: 'desc',
    cursor: decodeCursor(after),
    limit,
    keyOf: (r) => ({ value: r.id, id: r.id }),
  });
  return {
    next: page.next,
    rows: page.rows.map((r) => ({
      id: r.id,
      holder:
        r.user_id !== null
          ? { kind: 'user' as const, id: r.user_id, name: r.user_name ?? '' }
          : {
              kind: 'company' as const,
              id: r.company_id as number,
              name_ar: r.name_ar ?? '',
              name_en: r.name_en ?? '',
              slug: r.slug ?? '',
            },
      created_at: toIso(r.created_at),
    })),
  };
}

/** A grant of this badge by its id (the revoke button's), or NotFound. */
export async function grantById(db: DB, badgeId: number, grantId: number): Promise<BadgeHolder> {
  const g = await db
    .selectFrom('badge_grants')
    .select(['user_id', 'company_id'])
    .where('id', '=', grantId)
    .where('badge_id', '=', badgeId)
    .executeTakeFirst();
  if (!g) throw new NotFound('errors.not-found');
  return g.user_id !== null ? { userId: g.user_id } : { companyId: g.company_id as number };
}

/**
 * The holder a staff member names on the badge's page: a member by the email address or phone
 * number of their account, a company by its address name. Invalid on `holder` when none has it.
 */
export async function findHolder(db: DB, target: BadgeTargetKind, text: string): Promise<BadgeHolder> {
  const value = text.trim();
  if (target === 'company') {
    const companyId = await findCompanyId(db, value);
    if (companyId === null) throw new Invalid({ holder: ['company-not-found'] });
    return { companyId };
  }
  const q = db.selectFrom('users').select('id');
  const u = value.includes('@')
    ? await q.where((eb) => eb(eb.fn('lower', ['email']), '=', value.toLowerCase())).executeTakeFirst()
    : await q.where('phone_number', '=', value).executeTakeFirst();
  if (!u) throw new Invalid({ holder: ['member-not-found'] });
  return { userId: u.id };
}

// What pages show ---------------------------------------------------------------------------------

const CHIP_COLUMNS = ['b.id', 'b.slug', 'b.name_ar', 'b.name_en', 'b.icon', 'b.colour'] as const;

/** The badges of these members, by member (oldest grant first). */
/** The badges meant for members, to grant from a member's page (by name in its language order). */
export async function memberBadgeChoices(db: DB): Promise<{ id: number; name_ar: string; name_en: string }[]> {
  const rows = await db
    .selectFrom('badges')
    .select(['id', 'name_ar', 'name_en'])
    .where('target', '=', 'user')
    .orderBy('name_en')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function badgesOfUsers(db: DB, userIds: readonly string[]): Promise<Map<string, BadgeChipData[]>> {
  const byUser = new Map<string, BadgeChipData[]>();
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return byUser;
  const rows = await db
    .selectFrom('badge_grants as g')
    .innerJoin('badges as b', 'b.id', 'g.badge_id')
    .select(['g.user_id', ...CHIP_COLUMNS])
    .where('g.user_id', 'in', unique)
    .orderBy('g.id')
    .execute();
  for (const { user_id, ...chip } of rows) {
    const list = byUser.get(user_id as string) ?? [];
    list.push(chip);
    byUser.set(user_id as string, list);
  }
  return byUser;
}

/** The badges of these companies, by company (oldest grant first). */
export async function badgesOfCompanies(db: DB, ids: readonly number[]): Promise<Map<number, BadgeChipData[]>> {
  const byCompany = new Map<number, BadgeChipData[]>();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return byCompany;
  const rows = await db
    .selectFrom('badge_grants as g')
    .innerJoin('badges as b', 'b.id', 'g.badge_id')
    .select(['g.company_id', ...CHIP_COLUMNS])
    .where('g.company_id', 'in', unique)
    .orderBy('g.id')
    .execute();
  for (const { company_id, ...chip } of rows) {
    const list = byCompany.get(company_id as number) ?? [];
    list.push(chip);
    byCompany.set(company_id as number, list);
  }
  return byCompany;
}
