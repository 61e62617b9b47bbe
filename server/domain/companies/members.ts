// A company's members (docs/product/back-office.md, "Companies"): staff add an existing member by
// the email address or phone number of their account, as the company's owner or one of its agents.
// A member belongs to at most one company. Joining or leaving moves every ad of the member to the
// company or out of it (`ads.company_id`, with `updated_at`, so the search index's seller filter
// follows: ADR 0008), and the pages showing those ads are told once committed.
import type { CompanyRoleName } from '../../../app/lib/validation/companies.ts';
import type { DB } from '../../db/index.ts';
import { afterCommitOf, withTransaction } from '../../db/transaction.ts';
import { toIso } from '../../db/values.ts';
import { adChanged, pagesChanged } from '../ad-changes.ts';
import type { Actor } from '../ads/rules.ts';
import { recordRevision } from '../audit.ts';
import { Invalid, NotFound } from '../errors.ts';

export interface CompanyMember {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  role: CompanyRoleName;
  since: string;
}

export async function listMembers(db: DB, companyId: number): Promise<CompanyMember[]> {
  const rows = await db
    .selectFrom('company_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.name', 'u.email', 'u.phone_number', 'm.role', 'm.created_at'])
    .where('m.company_id', '=', companyId)
    .orderBy('m.role', 'desc')
    .orderBy('m.created_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone_number,
    role: r.role,
    since: toIso(r.created_at),
  }));
}

/** The member whose account has this email address (any case) or phone number (E.164), or null. */
async function memberByLogin(db: DB, login: string) {
  const q = db.selectFrom('users').select(['id', 'name', 'email']);
  return login.startsWith('+')
    ? q.where('phone_number', '=', login).executeTakeFirst()
    : q.where((eb) => eb(eb.fn('lower', ['email']), '=', login.toLowerCase())).executeTakeFirst();
}

/**
 * Moves every ad of these members to `companyId` (null: out of any company), marking them changed
 * for the search index, and tells the page cache once committed (the ads' pages, their lists, the
 * members' and the companies' pages).
 */
export async function moveMemberAds(tx: DB, userIds: string[], companyId: number | null, now: Date): Promise<void> {
  if (userIds.length === 0) return;
  const before = await tx
    .selectFrom('ads')
    .select(['id', 'category_id', 'taxonomy_id', 'user_id', 'company_id'])
    .where('user_id', 'in', userIds)
    .where('status', 'not in', ['deleted'])
    .execute();
  await tx.updateTable('ads').set({ company_id: companyId, updated_at: now }).where('user_id', 'in', userIds).execute();
  await afterCommitOf(tx, () => {
    for (const r of before) {
      const change = { adId: r.id, categoryId: r.category_id, taxonomyId: r.taxonomy_id, userId: r.user_id };
      adChanged({ ...change, companyId });
      if (r.company_id !== null && r.company_id !== companyId) adChanged({ ...change, companyId: r.company_id });
    }
    pagesChanged([...userIds.map((id) => `user:${id}`), ...(companyId !== null ? [`company:${companyId}`] : [])]);
  });
}

async function companyExists(tx: DB, companyId: number) {
  const row = await tx.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
  if (!row) throw new NotFound('errors.not-found');
}

/**
 * Adds the member whose account has `login` (an email address or an E.164 phone number) to the
 * company. Refused (Invalid on `login`): nobody has it (`member-not-found`), they belong to this
 * company already (`member-already-here`) or to another one (`member-has-company`).
 */
export async function addCompanyMember(
  db: DB,
  actor: Actor,
  companyId: number,
  input: { login: string; role: CompanyRoleName },
  now = new Date(),
): Promise<{ userId: string }> {
  return withTransaction(db, async (tx) => {
    await companyExists(tx, companyId);
    const user = await memberByLogin(tx, input.login);
    if (!user) throw new Invalid({ login: ['member-not-found'] });
    const current = await tx
      .selectFrom('company_members')
      .select('company_id')
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (current) {
      throw new Invalid({ login: [current.company_id === companyId ? 'member-already-here' : 'member-has-company'] });
    }
    await tx
      .insertInto('company_members')
      .values({ user_id: user.id, company_id: companyId, role: input.role, created_at: now })
      .execute();
    await moveMemberAds(tx, [user.id], companyId, now);
    await recordRevision(tx, actor, { type: 'company', id: companyId }, 'add-member', {
      member: [null, user.id],
      role: [null, input.role],
    });
    return { userId: user.id };
  });
}

/** Takes the member out of the company; their ads are their own again. NotFound when not a member of it. */
export async function removeCompanyMember(
  db: DB,
  actor: Actor,
  companyId: number,
  userId: string,
  now = new Date(),
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const row = await tx
      .selectFrom('company_members')
      .select('role')
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new NotFound('errors.not-found');
    await tx.deleteFrom('company_members').where('user_id', '=', userId).execute();
    await moveMemberAds(tx, [userId], null, now);
    await recordRevision(tx, actor, { type: 'company', id: companyId }, 'remove-member', {
      member: [userId, null],
      role: [row.role, null],
    });
  });
}

/** Makes a member the company's owner or one of its agents. NotFound when not a member of it. */
export async function setCompanyMemberRole(
  db: DB,
  actor: Actor,
  companyId: number,
  userId: string,
  role: CompanyRoleName,
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const row = await tx
      .selectFrom('company_members')
      .select('role')
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new NotFound('errors.not-found');
    if (row.role === role) return;
    await tx.updateTable('company_members').set({ role }).where('user_id', '=', userId).execute();
    await recordRevision(tx, actor, { type: 'company', id: companyId }, 'member-role', {
      [`role:${userId}`]: [row.role, role],
    });
  });
}
