// The back office's members and roles (docs/product/back-office.md, "Members", "Roles and
// permissions") on every dialect: a ban hides the member's ads from every public read and ends their
// sessions and sign-in, an unban restores both as they were; roles and direct permissions; the
// matrix; nobody removes their own last way into the back office; every change writes a revision.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../app/lib/search-query.ts';
import { createAuth } from '../../server/auth/index.ts';
import { loadConfig } from '../../server/config.ts';
import { TRIGRAM_SET_MAX } from '../../server/db/member-search.ts';
import { seedDemoAccounts } from '../../server/db/seed/demo.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson, toNumber } from '../../server/db/values.ts';
import { type AuthMeta, signIn } from '../../server/domain/accounts.ts';
import { createRole, deleteRole, renameRole, rolesMatrix, saveMatrix } from '../../server/domain/admin/roles.ts';
import {
  banUser,
  confirmEmail,
  confirmPhone,
  listUsers,
  memberDetail,
  phoneDigits,
  setSuperAdmin,
  setUserAccess,
  unbanUser,
} from '../../server/domain/admin/users.ts';
import { recountTaxonomy } from '../../server/domain/ads/bookkeeping.ts';
import { publishedCards } from '../../server/domain/ads/cards.ts';
import { adAudience, loadAdView } from '../../server/domain/ads/view.ts';
import { Forbidden, Invalid, NotFound } from '../../server/domain/errors.ts';
import { loadPublicProfile } from '../../server/domain/member-page.ts';
import { accessOf, assignRole, grantPermission, seedPermissions } from '../../server/domain/permissions.ts';
import { search } from '../../server/domain/search/service.ts';
import { adEntries } from '../../server/domain/sitemap.ts';
import { insertMember } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { placeSearchAd } from '../support/search-ads.ts';

let ip = 0;
const meta = (): AuthMeta => {
  const address = `10.61.0.${++ip}`;
  return { ip: address, headers: new Headers({ 'x-locale': 'en', 'x-souq-client-ip': address }) };
};
const errorsOf = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    if (error instanceof Invalid) return error.errors;
    throw error;
  }
  return undefined;
};

describe.each(dialects)('back-office members on %s', (dialect) => {
  let t: TestDatabase;
  let auth: ReturnType<typeof createAuth>;
  const idOf = async (email: string) =>
    (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  let admin: { id: string; superAdmin: boolean };
  let moderator: { id: string; superAdmin: boolean };

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    await seedPermissions(t.db);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'souq-admin-users-')),
      AUTH_SECRET: 'admin-users-test-secret-0123456789-abcdefgh',
    });
    auth = createAuth(config, t, { quiet: true });
    await seedDemoAccounts(t.db, auth);
    admin = { id: await idOf('admin@souq.test'), superAdmin: true };
    moderator = { id: await idOf('moderator@souq.test'), superAdmin: false };
  });
  afterAll(() => t.drop());

  const revisions = (subject: string) =>
    t.db
      .selectFrom('revisions')
      .select(['actor_id', 'action', 'changes', 'ip', 'user_agent'])
      .where('subject_id', '=', subject)
      .orderBy('id')
      .execute();

  it('a ban hides every ad of the member from the public, ends their sessions and refuses sign-in; an unban restores them', async () => {
    const member = await idOf('user@souq.test');
    const other = await insertMember(t.db, { name: 'Other seller' });
    const owned = async (title: string, owner: string, status = 'published') => {
      const id = await placeSearchAd(t, { title, category: 'toyota', city: 'tripoli', status, daysAgo: 1 });
      await t.db.updateTable('ads').set({ user_id: owner, slug: 'car' }).where('id', '=', id).execute();
      return id;
    };
    const live = await owned('Banned seller corolla', member);
    const sold = await owned('Banned seller camry', member, 'sold');
    const pending = await owned('Banned seller yaris', member, 'pending');
    const others = await owned('Other seller corolla', other.id);
    const before = await t.db
      .selectFrom('ads')
      .select(['id', 'status', 'bumped_at', 'published_at', 'expires_at', 'featured_until', 'title', 'price'])
      .where('user_id', '=', member)
      .orderBy('id')
      .execute();
    const cookies = await signIn(
      auth,
      t.db,
      { login: 'user@souq.test', password: 'password123', remember: true },
      meta(),
    );
    expect(cookies).not.toEqual([]);
    const sessions = () => t.db.selectFrom('sessions').select('id').where('user_id', '=', member).execute();
    expect((await sessions()).length).toBeGreaterThan(0);

    const publicView = async () => {
      const found = (await search(t, parseSearchQuery(new URLSearchParams('')))).ids;
      const cards = (await publishedCards(t.db).execute()).map((c) => c.id);
      const sitemap: string[] = [];
      for await (const batch of adEntries(t.db, 1)) sitemap.push(...batch.map((e) => e.path));
      const audience = async (id: number) => adAudience(await loadAdView(t.db, id), null).visible;
      await recountTaxonomy(
        t.db,
        (await t.db.selectFrom('taxonomies').select('id').where('slug', '=', 'motors').executeTakeFirstOrThrow()).id,
      );
      const toyota = await t.db
        .selectFrom('categories')
        .select('ads_count')
        .where('slug', '=', 'toyota')
        .executeTakeFirstOrThrow();
      return {
        search: [live, others].map((id) => found.includes(id)),
        cards: [live, others].map((id) => cards.includes(id)),
        sitemap: [live, others].map((id) => sitemap.some((p) => p.endsWith(`-${id}`))),
        page: [await audience(live), await audience(sold), await audience(others)],
        count: toNumber(toyota.ads_count),
      };
    };
    const shown = await publicView();
    expect(shown).toEqual({
      search: [true, true],
      cards: [true, true],
      sitemap: [true, true],
      page: [true, true, true],
      count: shown.count,
    });
    await loadPublicProfile(t.db, member);

    await banUser(t.db, { ...moderator, ip: '10.9.9.9', userAgent: 'Moderator browser' }, member, 'Scam reports');
    expect(await sessions()).toEqual([]);
    expect(
      await errorsOf(signIn(auth, t.db, { login: 'user@souq.test', password: 'password123', remember: true }, meta())),
    ).toEqual({
      form: ['user-disabled'],
    });
    const hidden = await publicView();
    expect(hidden).toEqual({
      search: [false, true],
      cards: [false, true],
      sitemap: [false, true],
      page: [false, false, true],
      count: shown.count - 1,
    });
    // Staff still open the ads; the member page is gone.
    expect(adAudience(await loadAdView(t.db, live), { id: moderator.id, staff: true }).visible).toBe(true);
    await expect(loadPublicProfile(t.db, member)).rejects.toBeInstanceOf(NotFound);
    const detail = await memberDetail(t.db, member);
    expect(detail).toMatchObject({
      ban_reason: 'Scam reports',
      sessions: 0,
      ads: { published: 1, sold: 1, pending: 1 },
    });
    expect(detail.banned_at).not.toBeNull();
    // Banning twice is refused and changes nothing.
    expect(await errorsOf(banUser(t.db, moderator, member, 'again'))).toEqual({
      form: ['admin:users.errors.already-banned'],
    });

    await unbanUser(t.db, moderator, member);
    expect(await publicView()).toEqual(shown);
    await loadPublicProfile(t.db, member);
    expect(
      await t.db
        .selectFrom('ads')
        .select(['id', 'status', 'bumped_at', 'published_at', 'expires_at', 'featured_until', 'title', 'price'])
        .where('user_id', '=', member)
        .orderBy('id')
        .execute(),
    ).toEqual(before);
    expect(
      await signIn(auth, t.db, { login: 'user@souq.test', password: 'password123', remember: true }, meta()),
    ).not.toEqual([]);
    expect(pending).toBeGreaterThan(0);

    const log = await revisions(member);
    expect(log.map((r) => r.action)).toEqual(['ban', 'unban']);
    expect(log[0]).toMatchObject({ actor_id: moderator.id, ip: '10.9.9.9', user_agent: 'Moderator browser' });
    expect(toJson<Record<string, unknown[]>>(log[0]?.changes, {}).ban_reason).toEqual([null, 'Scam reports']);
    expect(toJson<Record<string, unknown[]>>(log[1]?.changes, {}).ban_reason).toEqual(['Scam reports', null]);
  });

  it('nobody bans themselves, and only a super admin bans a super admin', async () => {
    expect(await errorsOf(banUser(t.db, moderator, moderator.id, 'me'))).toEqual({
      form: ['admin:users.errors.ban-self'],
    });
    await expect(banUser(t.db, moderator, admin.id, 'coup')).rejects.toBeInstanceOf(Forbidden);
    expect((await memberDetail(t.db, admin.id)).banned_at).toBeNull();
  });

  it('confirms an email or a phone number by hand, refusing a number another account holds', async () => {
    const m = await insertMember(t.db, { name: 'Unconfirmed', phone: null });
    await t.db.updateTable('users').set({ email_verified: false }).where('id', '=', m.id).execute();
    expect(await confirmEmail(t.db, admin, m.id)).toBe(true);
    expect(await confirmEmail(t.db, admin, m.id)).toBe(false);
    const taken = await insertMember(t.db, { name: 'Holder', phone: '+218912345670' });
    expect(await errorsOf(confirmPhone(t.db, admin, m.id, '+218912345670'))).toEqual({
      phone: ['admin:users.errors.phone-taken'],
    });
    expect(await confirmPhone(t.db, admin, m.id, '+218912345671')).toBe(true);
    expect(await memberDetail(t.db, m.id)).toMatchObject({
      email_verified: true,
      phone: '+218912345671',
      phone_verified: true,
    });
    expect((await revisions(m.id)).map((r) => r.action)).toEqual(['confirm-email', 'confirm-phone']);
    expect(taken.id).not.toBe(m.id);
  });

  it('sets roles and direct permissions; nobody removes their own last way in', async () => {
    const staff = await insertMember(t.db, { name: 'Staff member' });
    const roles = await rolesMatrix(t.db);
    const support = roles.roles.find((r) => r.name === 'support')?.id as number;
    expect(await setUserAccess(t.db, admin, staff.id, { roles: [support], permissions: ['view-banners'] })).toBe(true);
    expect(await accessOf(t.db, staff.id)).toMatchObject({ roles: ['support'] });
    expect((await accessOf(t.db, staff.id)).permissions).toContain('view-banners');
    // Saving the same again records nothing.
    expect(await setUserAccess(t.db, admin, staff.id, { roles: [support], permissions: ['view-banners'] })).toBe(false);
    // Their own: dropping one of two ways in is fine; dropping the last is refused and changes nothing.
    expect(await setUserAccess(t.db, staff, staff.id, { roles: [support], permissions: [] })).toBe(true);
    expect(await errorsOf(setUserAccess(t.db, staff, staff.id, { roles: [], permissions: [] }))).toEqual({
      form: ['admin:users.errors.last-path'],
    });
    expect((await accessOf(t.db, staff.id)).roles).toEqual(['support']);
    // Someone else may remove it.
    expect(await setUserAccess(t.db, admin, staff.id, { roles: [], permissions: [] })).toBe(true);
    expect(await accessOf(t.db, staff.id)).toEqual({ is_super_admin: false, permissions: [], roles: [] });
    expect(await errorsOf(setUserAccess(t.db, admin, staff.id, { roles: [999_999], permissions: [] }))).toEqual({
      roles: ['validation.invalid'],
    });
    expect((await revisions(staff.id)).map((r) => r.action)).toEqual(['access', 'access', 'access']);
  });

  it('a super admin cannot un-flag themselves without another way in', async () => {
    const boss = await insertMember(t.db, { name: 'Second super admin' });
    expect(await setSuperAdmin(t.db, admin, boss.id, true)).toBe(true);
    expect(await errorsOf(setSuperAdmin(t.db, boss, boss.id, false))).toEqual({
      form: ['admin:users.errors.last-path'],
    });
    expect((await accessOf(t.db, boss.id)).is_super_admin).toBe(true);
    await grantPermission(t.db, boss.id, 'view-dashboard');
    expect(await setSuperAdmin(t.db, boss, boss.id, false)).toBe(true);
    expect(await accessOf(t.db, boss.id)).toMatchObject({ is_super_admin: false, permissions: ['view-dashboard'] });
  });

  it('saves the roles × permissions matrix, creates, renames and deletes roles, keeping the last way in', async () => {
    const id = await createRole(t.db, admin, 'auditor');
    expect(await errorsOf(createRole(t.db, admin, 'auditor'))).toEqual({ name: ['admin:roles.errors.name-taken'] });
    const keeper = await insertMember(t.db, { name: 'Auditor' });
    await assignRole(t.db, keeper.id, 'auditor');
    const matrix = await rolesMatrix(t.db);
    const grants = matrix.roles.flatMap((r) => r.permissions.map((p) => `${r.id}:${p}`));
    expect(
      await saveMatrix(
        t.db,
        admin,
        matrix.roles.map((r) => r.id),
        [...grants, `${id}:view-revisions`, `${id}:view-users`],
      ),
    ).toBe(1);
    expect((await rolesMatrix(t.db)).roles.find((r) => r.id === id)).toMatchObject({
      name: 'auditor',
      permissions: ['view-users', 'view-revisions'],
      holders: 1,
    });
    // The same form again changes nothing; an unknown permission is refused.
    expect(await saveMatrix(t.db, admin, [id], [`${id}:view-revisions`, `${id}:view-users`])).toBe(0);
    expect(await errorsOf(saveMatrix(t.db, admin, [id], [`${id}:launch-rockets`]))).toEqual({
      grants: ['validation.invalid'],
    });
    // The auditor unticking their only role's last permissions is refused.
    expect(await errorsOf(saveMatrix(t.db, keeper, [id], []))).toEqual({ form: ['admin:users.errors.last-path'] });
    expect(await errorsOf(deleteRole(t.db, keeper, id, 1))).toEqual({ form: ['admin:users.errors.last-path'] });
    expect(await renameRole(t.db, admin, id, 'auditors')).toBe(true);
    // The count the confirmation showed must still hold.
    expect(await errorsOf(deleteRole(t.db, admin, id, 0))).toEqual({ form: ['admin:roles.errors.holders-changed'] });
    await deleteRole(t.db, admin, id, 1);
    expect((await rolesMatrix(t.db)).roles.map((r) => r.name)).not.toContain('auditors');
    expect(await accessOf(t.db, keeper.id)).toEqual({ is_super_admin: false, permissions: [], roles: [] });
    expect(
      (
        await t.db
          .selectFrom('revisions')
          .select('action')
          .where('subject_type', '=', 'role')
          .where('subject_id', '=', String(id))
          .orderBy('id')
          .execute()
      ).map((r) => r.action),
    ).toEqual(['create', 'permissions', 'rename', 'delete']);
  });

  it('lists members by name, email or phone, with filters, page by page', async () => {
    const a = await insertMember(t.db, { name: 'Zainab Search', phone: '+218925550001' });
    await insertMember(t.db, { name: 'Zaid 100%', phone: null });
    const find = async (q: string, filters = {}) =>
      (await listUsers(t, { q, filters, sort: 'created', dir: 'desc', after: null })).rows.map((r) => r.name);
    expect(await find('zainab')).toEqual(['Zainab Search']);
    expect(await find('0925550001')).toEqual(['Zainab Search']);
    expect(await find('+218 92 555')).toEqual(['Zainab Search']);
    expect(await find('100%')).toEqual(['Zaid 100%']);
    expect((await find('ZAI')).sort()).toEqual(['Zaid 100%', 'Zainab Search']);
    expect(await find(a.id.slice(0, 12))).toContain('Zainab Search'); // the email holds the id
    expect(await find('', { role: 'super-admin' })).toEqual(['مدير سوق']);
    expect(await find('', { role: 'moderator' })).toEqual(['مشرفة المحتوى']);
    expect((await find('', { banned: 'yes' })).length).toBe(0);
    expect(await find('zai', { verified: 'phone' })).toEqual(['Zainab Search']);
    // A member of a company, and the others.
    const { id: companyId } = await t.db
      .insertInto('companies')
      .values({ slug: `zai-motors-${a.id.slice(0, 6).toLowerCase()}`, name_ar: 'زاي', name_en: 'Zai Motors' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('company_members')
      .values({ company_id: Number(companyId), user_id: a.id, role: 'owner' })
      .execute();
    expect(await find('zai', { company: 'yes' })).toEqual(['Zainab Search']);
    expect(await find('zai', { company: 'no' })).toEqual(['Zaid 100%']);
    // Every member once over all pages, by name.
    const seen: string[] = [];
    let after = null;
    for (let i = 0; i < 100; i++) {
      const page = await listUsers(t, { q: '', filters: {}, sort: 'name', dir: 'asc', after, limit: 3 });
      seen.push(...page.rows.map((r) => r.id));
      if (!page.next) break;
      after = JSON.parse(Buffer.from(page.next, 'base64url').toString()) as never;
      after = { value: (after as unknown as [string, string])[0], id: (after as unknown as [string, string])[1] };
    }
    const total = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(new Set(seen).size).toBe(toNumber(total.n));
    // A search matching more members than the trigram set takes is tested row by row, in order.
    await t.db
      .insertInto('users')
      .values(
        Array.from({ length: TRIGRAM_SET_MAX + 5 }, (_, i) => ({
          id: `common-${i}`,
          name: `Common Qwerty ${String(i).padStart(4, '0')}`,
          email: `common-${i}@example.ly`,
        })) as never,
      )
      .execute();
    const common = await listUsers(t, { q: 'QWERTY', filters: {}, sort: 'name', dir: 'asc', after: null });
    expect(common.rows.map((r) => r.name).slice(0, 2)).toEqual(['Common Qwerty 0000', 'Common Qwerty 0001']);
    expect(common.next).not.toBeNull();
    expect(phoneDigits('091 234')).toBe('91234');
    expect(phoneDigits('abc')).toBeNull();
  });
});
