// Packages granted to companies on every dialect (docs/product/back-office.md, "Packages"): the
// grant (a package for companies only, the payment and the revisions), the active ads a company's
// package adds as a pool its members share on top of their own allowance, the featured ads and
// reposts its members spend after their own, placements at the same moment by two members that
// never pass the pool, a member who leaves, and the company's deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyInput } from '~/lib/validation/companies.ts';
import type { PackageValues } from '~/lib/validation/packages.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson, toNumber } from '../../server/db/values.ts';
import { createAd, resolveCategoryPath } from '../../server/domain/ads/placing.ts';
import { AD_RULES, activeAdLimit } from '../../server/domain/ads/rules.ts';
import { featureOwnAd, repostAd } from '../../server/domain/ads/status.ts';
import { type Attribute, listCategoryAttributes } from '../../server/domain/catalog.ts';
import { createCompany, deleteCompany, findCompanyId } from '../../server/domain/companies/companies.ts';
import { addCompanyMember, removeCompanyMember } from '../../server/domain/companies/members.ts';
import { creditsLeft, heldPackages, memberPackages } from '../../server/domain/packages/allowance.ts';
import { createPackage } from '../../server/domain/packages/packages.ts';
import {
  grantPackage,
  listSubscriptions,
  PACKAGE_REMINDER_DAYS,
  remindExpiringSubscriptions,
} from '../../server/domain/packages/subscriptions.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const DAY = 86_400_000;
const FREE = AD_RULES.freeActiveAds;

const DEALER: PackageValues = {
  name_ar: 'باقة المعارض',
  name_en: 'Dealer',
  description_ar: undefined,
  description_en: undefined,
  price: 900,
  currency: 'LYD',
  duration_days: 30,
  max_active_ads: 2,
  featured_ads: 1,
  reposts: 1,
  audience: 'company',
  active: true,
};

describe.each(dialects)('company packages on %s', (dialect) => {
  let t: TestDatabase;
  let attributes: Attribute[];
  let cityId: number;
  let staff: { id: string; ip: string; userAgent: string };
  let references = 0;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    attributes = await listCategoryAttributes(t.db, 'toyota');
    cityId = (await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow()).id;
    staff = await insertMember(t.db, { name: 'staff' });
  });
  afterAll(() => t.drop());

  const company = (over: Partial<CompanyInput> = {}) =>
    createCompany(t.db, staff, {
      slug: `dealer-${Math.random().toString(36).slice(2, 8)}`,
      name_ar: 'معرض الأمل',
      name_en: 'Al Amal Motors',
      description: undefined,
      phone: undefined,
      email: undefined,
      website: undefined,
      city: undefined,
      verified: true,
      ...over,
    });
  /** A new member of `companyId` (an agent). */
  const agent = async (companyId: number) => {
    const m = await insertMember(t.db);
    await addCompanyMember(t.db, staff, companyId, { login: `${m.id}@example.ly`, role: 'agent' });
    return m;
  };
  const place = async (actor: { id: string }, now: Date, moderation: 'pre' | 'post' = 'pre') =>
    createAd(
      t.db,
      { moderation, now },
      actor,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      attributes,
      toyotaAdInput(cityId, { attrs: { year: 2015, model: 'corolla' } }),
    );
  const placeMany = async (actor: { id: string }, n: number, now: Date) => {
    for (let i = 0; i < n; i++) await place(actor, now);
  };
  const payment = () => ({
    method: 'offline' as const,
    reference: `R-${dialect}-${++references}`,
    amount: 900,
    currency: 'LYD',
  });
  const grantTo = (companyId: number, packageId: number, now = new Date()) =>
    grantPackage(t.db, staff, { companyId, packageId, payment: payment() }, { now });
  const now = new Date('2026-12-01T10:00:00Z');

  it('grants a package for companies to a company, with its payment and revisions', async () => {
    const id = await company({ slug: 'al-amal-grants' });
    expect(await findCompanyId(t.db, 'AL-AMAL-GRANTS')).toBe(id);
    expect(await findCompanyId(t.db, 'nobody-here')).toBeNull();
    const forCompanies = await createPackage(t.db, staff, DEALER);
    const forMembers = await createPackage(t.db, staff, { ...DEALER, audience: 'individual' });
    await expect(grantTo(id, forMembers)).rejects.toMatchObject({ errors: { package_id: ['package-for-members'] } });
    await expect(grantTo(999_999, forCompanies)).rejects.toMatchObject({ errors: { company: ['company-not-found'] } });
    // A member is not offered a company's package.
    const m = await insertMember(t.db);
    await expect(
      grantPackage(t.db, staff, { userId: m.id, packageId: forCompanies, payment: payment() }),
    ).rejects.toMatchObject({ errors: { package_id: ['package-for-companies'] } });

    const done = await grantTo(id, forCompanies, now);
    const [held] = await heldPackages(t.db, { companyId: id }, now);
    expect(held).toMatchObject({ id: done.id, max_active_ads: 2, featured_remaining: 1, reposts_remaining: 1 });
    const row = await t.db.selectFrom('subscriptions').selectAll().where('id', '=', done.id).executeTakeFirstOrThrow();
    expect(row.user_id).toBeNull();
    expect(Number(row.company_id)).toBe(id);
    const pay = await t.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', Number(row.payment_id))
      .executeTakeFirstOrThrow();
    expect({ user: pay.user_id, company: Number(pay.company_id), amount: toNumber(pay.amount) }).toEqual({
      user: null,
      company: id,
      amount: 900,
    });
    const subjectLog = await t.db
      .selectFrom('revisions')
      .select(['action', 'changes'])
      .where('subject_type', '=', 'subscription')
      .where('subject_id', '=', String(done.id))
      .execute();
    expect(subjectLog.map((r) => r.action)).toEqual(['grant']);
    expect(toJson<Record<string, unknown[]>>(subjectLog[0]?.changes, {}).company_id).toEqual([null, id]);
    const companyLog = await t.db
      .selectFrom('revisions')
      .select('action')
      .where('subject_type', '=', 'company')
      .where('subject_id', '=', String(id))
      .execute();
    expect(companyLog.map((r) => r.action)).toContain('grant-package');
    // A renewal starts when the running one ends.
    const again = await grantTo(id, forCompanies, new Date(now.getTime() + DAY));
    expect(again.starts_at).toBe(done.ends_at);
    // The subscriptions list finds it by the company's name.
    const listed = await listSubscriptions(
      t.db,
      { q: 'al-amal-grants', sort: 'granted', dir: 'desc', filters: {}, after: null },
      now,
    );
    expect(listed.rows.map((r) => [r.id, r.company?.id, r.member])).toEqual([
      [again.id, id, null],
      [done.id, id, null],
    ]);
  });

  it("adds a pool of active ads its members share, on top of each member's own allowance", async () => {
    const id = await company();
    const pkg = await createPackage(t.db, staff, DEALER);
    const a = await agent(id);
    const b = await agent(id);
    const outsider = await insertMember(t.db);
    await placeMany(a, FREE, now);
    await expect(place(a, now)).rejects.toMatchObject({ errors: { form: [`allowance-exceeded:${FREE}`] } });
    await grantTo(id, pkg, now);
    expect(await activeAdLimit(t.db, a.id, now)).toBe(FREE + 2);
    expect(await activeAdLimit(t.db, outsider.id, now)).toBe(FREE);
    await place(a, now);
    // A took one place of the pool: B may go one beyond their own allowance.
    expect(await activeAdLimit(t.db, b.id, now)).toBe(FREE + 1);
    await placeMany(b, FREE + 1, now);
    await expect(place(b, now)).rejects.toMatchObject({ errors: { form: [`allowance-exceeded:${FREE + 1}`] } });
    await expect(place(a, now)).rejects.toMatchObject({ errors: { form: [`allowance-exceeded:${FREE + 1}`] } });
    // A member's own package counts first: B's own place frees the pool's for A.
    const own = await createPackage(t.db, staff, { ...DEALER, audience: 'individual', max_active_ads: 1 });
    await grantPackage(t.db, staff, { userId: b.id, packageId: own, payment: payment() }, { now });
    expect(await activeAdLimit(t.db, a.id, now)).toBe(FREE + 2);
    await place(a, now);
    // Once the company's package ended, each has their own allowance only.
    const later = new Date(now.getTime() + 31 * DAY);
    expect(await activeAdLimit(t.db, a.id, later)).toBe(FREE);
    // A member who leaves the company leaves its package.
    await removeCompanyMember(t.db, staff, id, a.id);
    expect(await activeAdLimit(t.db, a.id, now)).toBe(FREE);
  });

  it("spends the member's own featured ads and reposts first, then the company's", async () => {
    const id = await company();
    const a = await agent(id);
    const b = await agent(id);
    await grantTo(id, await createPackage(t.db, staff, DEALER), now);
    const own = await createPackage(t.db, staff, { ...DEALER, audience: 'individual', featured_ads: 1, reposts: 0 });
    await grantPackage(t.db, staff, { userId: a.id, packageId: own, payment: payment() }, { now });
    const ad = await place(a, now, 'post');
    expect(await creditsLeft(t.db, a.id, 'featured', now)).toBe(2);
    expect(await creditsLeft(t.db, b.id, 'featured', now)).toBe(1);
    await featureOwnAd(t.db, a, ad.id, now);
    expect((await memberPackages(t.db, a.id, now))[0]?.featured_remaining).toBe(0);
    expect((await heldPackages(t.db, { companyId: id }, now))[0]?.featured_remaining).toBe(1);
    await featureOwnAd(t.db, a, ad.id, now);
    expect((await heldPackages(t.db, { companyId: id }, now))[0]?.featured_remaining).toBe(0);
    // The company's were shared: B has none left.
    const adB = await place(b, now, 'post');
    await expect(featureOwnAd(t.db, b, adB.id, now)).rejects.toMatchObject({ errors: { form: ['no-featured-left'] } });
    // A bump within the cool-down spends the company's repost, once.
    const soon = new Date(now.getTime() + DAY);
    expect(await repostAd(t.db, b, adB.id, soon)).toBe('bumped');
    await expect(repostAd(t.db, a, ad.id, soon)).rejects.toMatchObject({ errors: { form: ['repost-cooldown:6'] } });
  });

  it('placements by two members at the same moment never pass the pool', async () => {
    const id = await company();
    const a = await agent(id);
    const b = await agent(id);
    await grantTo(id, await createPackage(t.db, staff, { ...DEALER, max_active_ads: 1 }), now);
    await placeMany(a, FREE, now);
    await placeMany(b, FREE, now);
    const results = await Promise.allSettled([a, b, a, b].map((m) => place(m, now)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const active = await t.db
      .selectFrom('ads')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', 'in', [a.id, b.id])
      .where('status', 'in', ['pending', 'published'])
      .executeTakeFirstOrThrow();
    expect(toNumber(active.n)).toBe(2 * FREE + 1);
  });

  it('deleting the company deletes its subscriptions and keeps the payment', async () => {
    const id = await company();
    const done = await grantTo(id, await createPackage(t.db, staff, DEALER), now);
    const { payment_id } = await t.db
      .selectFrom('subscriptions')
      .select('payment_id')
      .where('id', '=', done.id)
      .executeTakeFirstOrThrow();
    await deleteCompany(t.db, createLocalStorage('/tmp/souq-company-packages-none'), staff, id);
    expect(await t.db.selectFrom('subscriptions').select('id').where('id', '=', done.id).execute()).toEqual([]);
    const pay = await t.db
      .selectFrom('payments')
      .select('company_id')
      .where('id', '=', Number(payment_id))
      .executeTakeFirstOrThrow();
    expect(pay.company_id).toBeNull();
  });

  it("tells the company's owners, not its agents, once, a few days before its package ends", async () => {
    const id = await company({ name_en: 'Reminder Motors', name_ar: 'معرض التذكير' });
    const owner = await insertMember(t.db);
    await addCompanyMember(t.db, staff, id, { login: `${owner.id}@example.ly`, role: 'owner' });
    const helper = await agent(id);
    const start = new Date('2027-01-01T10:00:00Z');
    const sub = await grantTo(id, await createPackage(t.db, staff, { ...DEALER, duration_days: 10 }), start);
    const notes = (userId: string) =>
      t.db
        .selectFrom('notifications')
        .select(['type', 'data'])
        .where('user_id', '=', userId)
        .where('type', '=', 'package-expiring')
        .execute();
    const due = new Date(start.getTime() + (10 - PACKAGE_REMINDER_DAYS + 1) * DAY);
    expect(await remindExpiringSubscriptions(t.db, due)).toBeGreaterThanOrEqual(1);
    expect(await remindExpiringSubscriptions(t.db, due)).toBe(0);
    const told = await notes(owner.id);
    expect(told).toHaveLength(1);
    expect(toJson(told[0]?.data, {})).toMatchObject({
      subscription_id: sub.id,
      name_en: 'Dealer',
      company_en: 'Reminder Motors',
      company_ar: 'معرض التذكير',
      expires_at: sub.ends_at,
      path: '/profile#package',
    });
    expect(await notes(helper.id)).toHaveLength(0);
  });
});
