// The back office's members (docs/product/back-office.md, "Members"): the searchable list, one
// member's page, and the changes staff make to a member — ban and unban, confirming an email or a
// phone number by hand, roles and direct permissions, the super-admin flag. Every change writes a
// revision in its own transaction; nobody can take away their own last way into the back office.
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import { isPlaceholderEmail, PLACEHOLDER_EMAIL_DOMAIN } from '../../auth/placeholder-email.ts';
import type { DB, DialectName } from '../../db/index.ts';
import { memberSearch } from '../../db/member-search.ts';
import type { AdStatus } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toBool, toIso, toNumber } from '../../db/values.ts';
import { isStaff } from '../access.ts';
import { announceAdChanges, recountTaxonomiesLater } from '../ads/bookkeeping.ts';
import type { Actor } from '../ads/rules.ts';
import { changedFields, recordRevision } from '../audit.ts';
import { Forbidden, Invalid, NotFound } from '../errors.ts';
import { accessOf } from '../permissions.ts';
import { type Cursor, type KeysetPage, keysetPage, type SortDirection } from './keyset.ts';

export const USER_SORTS = ['created', 'name'] as const;
export type UserSort = (typeof USER_SORTS)[number];
export const USER_PAGE_SIZE = 25;

/** Phone sign-ups' placeholder addresses, which are no email (server/auth/placeholder-email.ts). */
const PLACEHOLDER = `%@${PLACEHOLDER_EMAIL_DOMAIN}`;

export interface UserFilters {
  /** A role's name, or `super-admin` for the flag. */
  role?: string;
  banned?: 'yes' | 'no';
  /** `email`: a confirmed email; `phone`: a confirmed phone number; `none`: neither. */
  verified?: 'email' | 'phone' | 'none';
  /** `yes`: a member of a company (owner or agent); `no`: of none. */
  company?: 'yes' | 'no';
}

export interface UserRow {
  id: string;
  name: string;
  /** Null for a phone sign-up's placeholder address. */
  email: string | null;
  email_verified: boolean;
  phone: string | null;
  is_super_admin: boolean;
  banned: boolean;
  roles: string[];
  created_at: string;
}

/**
 * The digits of a search that looks like a phone number (at least 3 of them, nothing but digits,
 * spaces, `+`, `-`, parentheses), without the leading zeros or Libya's 00218 / 218 so "0912…",
 * "+218 91…" and "91…" all find +21891…; null otherwise.
 */
export function phoneDigits(q: string): string | null {
  if (!/^[\d\s+\-()]+$/.test(q)) return null;
  const digits = q.replace(/\D/g, '').replace(/^00/, '').replace(/^218/, '').replace(/^0+/, '');
  return digits.length >= 3 ? digits : null;
}

/**
 * One page of members: the search `q` is a case-insensitive substring of the name or the email, or
 * (when it looks like one) of the phone number; filters narrow; keyset order by sign-up time or name.
 */
export async function listUsers(
  handle: { db: DB; dialect: DialectName },
  input: {
    q: string;
    filters: UserFilters;
    sort: UserSort;
    dir: SortDirection;
    after: Cursor | null;
    limit?: number;
  },
): Promise<KeysetPage<UserRow>> {
  const { db } = handle;
  let query = db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.name',
      'u.email',
      'u.email_verified',
      'u.phone_number',
      'u.phone_number_verified',
      'u.is_super_admin',
      'u.banned_at',
      'u.created_at',
    ]);
  if (input.q) query = query.where(await memberSearch(db, handle.dialect, input.q, phoneDigits(input.q)));
  const { role, banned, verified, company } = input.filters;
  if (company) {
    query = query.where((eb) => {
      const inCompany = eb.exists(
        eb.selectFrom('company_members as cm').select(sql.lit(1).as('one')).whereRef('cm.user_id', '=', 'u.id'),
      );
      return company === 'yes' ? inCompany : eb.not(inCompany);
    });
  }
  if (role === 'super-admin') query = query.where('u.is_super_admin', '=', true);
  else if (role) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_roles as ur')
          .innerJoin('roles as r', 'r.id', 'ur.role_id')
          .select(sql.lit(1).as('one'))
          .whereRef('ur.user_id', '=', 'u.id')
          .where('r.name', '=', role),
      ),
    );
  }
  if (banned === 'yes') query = query.where('u.banned_at', 'is not', null);
  if (banned === 'no') query = query.where('u.banned_at', 'is', null);
  if (verified === 'email') {
    query = query.where('u.email_verified', '=', true).where('u.email', 'not like', PLACEHOLDER);
  }
  if (verified === 'phone')
    query = query.where('u.phone_number', 'is not', null).where('u.phone_number_verified', '=', true);
  if (verified === 'none') {
    query = query
      .where((eb) => eb.or([eb('u.email_verified', '=', false), eb('u.email', 'like', PLACEHOLDER)]))
      .where((eb) => eb.or([eb('u.phone_number', 'is', null), eb('u.phone_number_verified', '=', false)]));
  }
  const byName = input.sort === 'name';
  const page = await keysetPage(query, {
    column: byName ? 'u.name' : 'u.created_at',
    id: 'u.id',
    direction: input.dir,
    cursor: input.after,
    limit: input.limit ?? USER_PAGE_SIZE,
    keyOf: (r) => ({ value: byName ? r.name : toIso(r.created_at), id: r.id }),
  });
  const roles = await rolesOf(
    db,
    page.rows.map((r) => r.id),
  );
  return {
    next: page.next,
    rows: page.rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: isPlaceholderEmail(r.email) ? null : r.email,
      email_verified: !isPlaceholderEmail(r.email) && toBool(r.email_verified),
      phone: r.phone_number,
      is_super_admin: toBool(r.is_super_admin),
      banned: r.banned_at !== null,
      roles: roles.get(r.id) ?? [],
      created_at: toIso(r.created_at),
    })),
  };
}

async function rolesOf(db: DB, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('user_roles as ur')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select(['ur.user_id', 'r.name'])
    .where('ur.user_id', 'in', ids)
    .orderBy('r.name')
    .execute();
  for (const r of rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), r.name]);
  return out;
}

export interface MemberReport {
  id: number;
  reason: string;
  note: string | null;
  status: string;
  created_at: string;
  /** The reported ad (a report about one of the member's ads), or null for one about the member. */
  ad: { id: number; title: string } | null;
}

export interface MemberDetail {
  id: string;
  name: string;
  email: string | null;
  email_verified: boolean;
  phone: string | null;
  phone_verified: boolean;
  image: string | null;
  locale: string;
  city: { name_ar: string; name_en: string } | null;
  bio: string | null;
  is_super_admin: boolean;
  banned_at: string | null;
  ban_reason: string | null;
  created_at: string;
  last_seen_at: string | null;
  /** Ads by status (deleted ones included), only statuses the member has. */
  ads: Partial<Record<AdStatus, number>>;
  reports: { open: number; total: number; latest: MemberReport[] };
  chats: number;
  sessions: number;
  /** Role ids and names the member holds, and the permissions held directly. */
  roles: { id: number; name: string }[];
  direct: string[];
  /** Everything the member may do (roles and direct). */
  permissions: string[];
}

/** Reports listed on a member's page (the newest). */
export const MEMBER_REPORTS_SHOWN = 10;

export async function memberDetail(db: DB, id: string): Promise<MemberDetail> {
  const u = await db
    .selectFrom('users as u')
    .leftJoin('cities as c', 'c.id', 'u.city_id')
    .select([
      'u.id',
      'u.name',
      'u.email',
      'u.email_verified',
      'u.phone_number',
      'u.phone_number_verified',
      'u.image',
      'u.locale',
      'u.bio',
      'u.is_super_admin',
      'u.banned_at',
      'u.ban_reason',
      'u.created_at',
      'u.last_seen_at',
      'c.name_ar as city_ar',
      'c.name_en as city_en',
    ])
    .where('u.id', '=', id)
    .executeTakeFirst();
  if (!u) throw new NotFound('errors.not-found');
  // Reports about the member, and about any ad of theirs.
  const aboutMember = sql<boolean>`(rp.user_id = ${id} or rp.ad_id in (select ma.id from ads ma where ma.user_id = ${id}))`;
  const [ads, reportCounts, latest, chats, sessions, roles, direct, access] = await Promise.all([
    db
      .selectFrom('ads')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .where('user_id', '=', id)
      .groupBy('status')
      .execute(),
    db
      .selectFrom('reports as rp')
      .select(['rp.status', (eb) => eb.fn.countAll().as('n')])
      .where(aboutMember)
      .groupBy('rp.status')
      .execute(),
    db
      .selectFrom('reports as rp')
      .leftJoin('ads as a', 'a.id', 'rp.ad_id')
      .select(['rp.id', 'rp.reason', 'rp.note', 'rp.status', 'rp.created_at', 'a.id as ad_id', 'a.title as ad_title'])
      .where(aboutMember)
      .orderBy('rp.id', 'desc')
      .limit(MEMBER_REPORTS_SHOWN)
      .execute(),
    db
      .selectFrom('chat_members')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', id)
      .executeTakeFirst(),
    db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', id)
      .where('expires_at', '>', new Date())
      .executeTakeFirst(),
    db
      .selectFrom('user_roles as ur')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select(['r.id', 'r.name'])
      .where('ur.user_id', '=', id)
      .orderBy('r.name')
      .execute(),
    db
      .selectFrom('user_permissions as up')
      .innerJoin('permissions as p', 'p.id', 'up.permission_id')
      .select('p.name')
      .where('up.user_id', '=', id)
      .orderBy('p.name')
      .execute(),
    accessOf(db, id),
  ]);
  const placeholder = isPlaceholderEmail(u.email);
  const counts = Object.fromEntries(ads.map((r) => [r.status, toNumber(r.n)])) as Partial<Record<AdStatus, number>>;
  const byStatus = new Map(reportCounts.map((r) => [r.status, toNumber(r.n)]));
  return {
    id: u.id,
    name: u.name,
    email: placeholder ? null : u.email,
    email_verified: !placeholder && toBool(u.email_verified),
    phone: u.phone_number,
    phone_verified: u.phone_number !== null && toBool(u.phone_number_verified),
    image: u.image,
    locale: u.locale,
    city: u.city_ar !== null ? { name_ar: u.city_ar, name_en: u.city_en as string } : null,
    bio: u.bio,
    is_super_admin: toBool(u.is_super_admin),
    banned_at: u.banned_at === null ? null : toIso(u.banned_at),
    ban_reason: u.ban_reason,
    created_at: toIso(u.created_at),
    last_seen_at: u.last_seen_at === null ? null : toIso(u.last_seen_at),
    ads: counts,
    reports: {
      open: byStatus.get('open') ?? 0,
      total: [...byStatus.values()].reduce((a, b) => a + b, 0),
      latest: latest.map((r) => ({
        id: r.id,
        reason: r.reason,
        note: r.note,
        status: r.status,
        created_at: toIso(r.created_at),
        ad: r.ad_id !== null ? { id: r.ad_id, title: r.ad_title as string } : null,
      })),
    },
    chats: toNumber(chats?.n ?? 0),
    sessions: toNumber(sessions?.n ?? 0),
    roles,
    direct: direct.map((d) => d.name),
    permissions: access.permissions,
  };
}

/** The acting staff member must still be staff after a change of access (in the change's transaction). */
export async function keepsOwnWayIn(tx: DB, actor: Actor) {
  if (!isStaff(await accessOf(tx, actor.id))) throw new Invalid({ form: ['admin:users.errors.last-path'] });
}

/**
 * The member's published ads as the index must see them again (their `updated_at`, which every
 * process's search index follows: ADR 0008), the pages that show any of their ads dropped from the
 * page cache, and the category counts recounted — what a ban or an unban changes for the public.
 */
async function republishState(tx: DB, userId: string, now: Date) {
  const ads = await tx
    .selectFrom('ads')
    .select(['id', 'status', 'taxonomy_id'])
    .where('user_id', '=', userId)
    .where('status', '!=', 'deleted')
    .execute();
  const published = ads.filter((a) => a.status === 'published');
  for (let i = 0; i < published.length; i += 500) {
    await tx
      .updateTable('ads')
      .set({ updated_at: now })
      .where(
        'id',
        'in',
        published.slice(i, i + 500).map((a) => a.id),
      )
      .execute();
  }
  await recountTaxonomiesLater(
    tx,
    published.map((a) => a.taxonomy_id),
  );
  await announceAdChanges(
    tx,
    ads.map((a) => a.id),
  );
}

const bans = new EventEmitter();
bans.setMaxListeners(20);

/**
 * Calls `listener` with the member's id once a ban of this process commits (the realtime server
 * closes their open connections: server/realtime/bans.ts); returns the unsubscribe.
 */
export function onMemberBanned(listener: (userId: string) => void): () => void {
  bans.on('banned', listener);
  return () => bans.off('banned', listener);
}

/**
 * Bans a member: the ban and its reason are stored, every session of theirs ends, sign-in is refused
 * at every way in (server/auth/index.ts), their ads are hidden from every public place
 * (server/domain/ads/visibility.ts), and once committed their open realtime connections are closed
 * (`onMemberBanned`). Nobody bans themselves; only a super admin bans a super admin.
 */
export async function banUser(
  db: DB,
  actor: Actor & { superAdmin: boolean },
  userId: string,
  reason: string,
  now = new Date(),
): Promise<void> {
  if (actor.id === userId) throw new Invalid({ form: ['admin:users.errors.ban-self'] });
  await withTransaction(db, async (tx, { afterCommit }) => {
    const u = await tx
      .selectFrom('users')
      .select(['banned_at', 'ban_reason', 'is_super_admin'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!u) throw new NotFound('errors.not-found');
    if (toBool(u.is_super_admin) && !actor.superAdmin) throw new Forbidden('admin.users.errors.ban-super-admin');
    if (u.banned_at !== null) throw new Invalid({ form: ['admin:users.errors.already-banned'] });
    await tx
      .updateTable('users')
      .set({ banned_at: now, ban_reason: reason, updated_at: now })
      .where('id', '=', userId)
      .execute();
    const ended = await tx.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    await republishState(tx, userId, now);
    await recordRevision(tx, actor, { type: 'user', id: userId }, 'ban', {
      banned_at: [null, now.toISOString()],
      ban_reason: [u.ban_reason, reason],
      sessions: [Number(ended.numDeletedRows), 0],
    });
    afterCommit(() => void bans.emit('banned', userId));
  });
}

/** Lifts a ban: the member may sign in again and their ads are shown again as they were. */
export async function unbanUser(db: DB, actor: Actor, userId: string, now = new Date()): Promise<void> {
  await withTransaction(db, async (tx) => {
    const u = await tx
      .selectFrom('users')
      .select(['banned_at', 'ban_reason'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!u) throw new NotFound('errors.not-found');
    if (u.banned_at === null) throw new Invalid({ form: ['admin:users.errors.not-banned'] });
    await tx
      .updateTable('users')
      .set({ banned_at: null, ban_reason: null, updated_at: now })
      .where('id', '=', userId)
      .execute();
    await republishState(tx, userId, now);
    await recordRevision(tx, actor, { type: 'user', id: userId }, 'unban', {
      banned_at: [toIso(u.banned_at), null],
      ban_reason: [u.ban_reason, null],
    });
  });
}

/** Marks the member's email as confirmed (staff checked it another way). Already confirmed: nothing. */
export async function confirmEmail(db: DB, actor: Actor, userId: string): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const u = await tx
      .selectFrom('users')
      .select(['email', 'email_verified'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!u) throw new NotFound('errors.not-found');
    if (isPlaceholderEmail(u.email)) throw new Invalid({ form: ['admin:users.errors.no-email'] });
    if (toBool(u.email_verified)) return false;
    await tx
      .updateTable('users')
      .set({ email_verified: true, updated_at: new Date() })
      .where('id', '=', userId)
      .execute();
    await recordRevision(tx, actor, { type: 'user', id: userId }, 'confirm-email', {
      email_verified: [false, true],
    });
    return true;
  });
}

/**
 * Sets `phone` (E.164) as the member's confirmed number (staff checked it another way, e.g. by a
 * call). A number another account holds is refused.
 */
export async function confirmPhone(db: DB, actor: Actor, userId: string, phone: string): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const u = await tx
      .selectFrom('users')
      .select(['phone_number', 'phone_number_verified'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!u) throw new NotFound('errors.not-found');
    const other = await tx
      .selectFrom('users')
      .select('id')
      .where('phone_number', '=', phone)
      .where('id', '!=', userId)
      .executeTakeFirst();
    if (other) throw new Invalid({ phone: ['admin:users.errors.phone-taken'] });
    const before = { phone_number: u.phone_number, phone_number_verified: toBool(u.phone_number_verified) };
    const after = { phone_number: phone, phone_number_verified: true };
    const changes = changedFields(before, after);
    if (Object.keys(changes).length === 0) return false;
    await tx
      .updateTable('users')
      .set({ ...after, updated_at: new Date() })
      .where('id', '=', userId)
      .execute();
    await recordRevision(tx, actor, { type: 'user', id: userId }, 'confirm-phone', changes);
    return true;
  });
}

/**
 * Replaces the member's roles (by id) and direct permissions (by name) with these. Unknown ids or
 * names are Invalid. Refused when the acting member would take away their own last way in.
 */
export async function setUserAccess(
  db: DB,
  actor: Actor,
  userId: string,
  input: { roles: number[]; permissions: string[] },
): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const u = await tx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!u) throw new NotFound('errors.not-found');
    const roleIds = [...new Set(input.roles)];
    const names = [...new Set(input.permissions)];
    const roles = roleIds.length
      ? await tx.selectFrom('roles').select(['id', 'name']).where('id', 'in', roleIds).execute()
      : [];
    const perms = names.length
      ? await tx.selectFrom('permissions').select(['id', 'name']).where('name', 'in', names).execute()
      : [];
    if (roles.length !== roleIds.length) throw new Invalid({ roles: ['validation.invalid'] });
    if (perms.length !== names.length) throw new Invalid({ permissions: ['validation.invalid'] });
    const beforeRoles = await tx
      .selectFrom('user_roles as ur')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select('r.name')
      .where('ur.user_id', '=', userId)
      .execute();
    const beforePerms = await tx
      .selectFrom('user_permissions as up')
      .innerJoin('permissions as p', 'p.id', 'up.permission_id')
      .select('p.name')
      .where('up.user_id', '=', userId)
      .execute();
    const sorted = (xs: string[]) => [...xs].sort();
    const changes = changedFields(
      { roles: sorted(beforeRoles.map((r) => r.name)), permissions: sorted(beforePerms.map((p) => p.name)) },
      { roles: sorted(roles.map((r) => r.name)), permissions: sorted(perms.map((p) => p.name)) },
    );
    if (Object.keys(changes).length === 0) return false;
    await tx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
    await tx.deleteFrom('user_permissions').where('user_id', '=', userId).execute();
    if (roles.length) {
      await tx
        .insertInto('user_roles')
        .values(roles.map((r) => ({ user_id: userId, role_id: r.id })))
        .execute();
    }
    if (perms.length) {
      await tx
        .insertInto('user_permissions')
        .values(perms.map((p) => ({ user_id: userId, permission_id: p.id })))
        .execute();
    }
    if (userId === actor.id) await keepsOwnWayIn(tx, actor);
    await recordRevision(tx, actor, { type: 'user', id: userId }, 'access', changes);
    return true;
  });
}

/** Sets or clears the super-admin flag (the caller checks the actor is a super admin). */
export async function setSuperAdmin(db: DB, actor: Actor, userId: string, value: boolean): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const u = await tx.selectFrom('users').select('is_super_admin').where('id', '=', userId).executeTakeFirst();
    if (!u) throw new NotFound('errors.not-found');
    if (toBool(u.is_super_admin) === value) return false;
    await tx
      .updateTable('users')
      .set({ is_super_admin: value, updated_at: new Date() })
      .where('id', '=', userId)
      .execute();
    if (userId === actor.id) await keepsOwnWayIn(tx, actor);
    await recordRevision(tx, actor, { type: 'user', id: userId }, 'super-admin', {
      is_super_admin: [!value, value],
    });
    return true;
  });
}
