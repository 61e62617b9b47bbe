// Packages on every dialect (docs/product/back-office.md, "Packages"): the back office's changes with
// their revisions, grants and their payments, the allowance they add (active ads on top of the free
// allowance, featured ads and reposts spent as counters in the transaction of the use, nothing once
// ended), uses at the same moment that never overspend, and the package-expiring reminder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageValues } from '~/lib/validation/packages.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson, toNumber } from '../../server/db/values.ts';
import { type AdInput, createAd, resolveCategoryPath } from '../../server/domain/ads/placing.ts';
import { AD_RULES, activeAdLimit } from '../../server/domain/ads/rules.ts';
import { featureOwnAd, repostAd } from '../../server/domain/ads/status.ts';
import { type Attribute, listCategoryAttributes } from '../../server/domain/catalog.ts';
import { repostQuote } from '../../server/domain/owner-ads.ts';
import { creditsLeft, memberPackages, spendCredit } from '../../server/domain/packages/allowance.ts';
import {
  createPackage,
  deletePackage,
  getPackage,
  listPackages,
  setPackageActive,
  updatePackage,
} from '../../server/domain/packages/packages.ts';
import {
  findMemberId,
  grantPackage,
  listSubscriptions,
  PACKAGE_REMINDER_DAYS,
  remindExpiringSubscriptions,
} from '../../server/domain/packages/subscriptions.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const DAY = 86_400_000;

const SILVER: PackageValues = {
  name_ar: 'الفضية',
  name_en: 'Silver',
  description_ar: undefined,
  description_en: undefined,
  price: 150,
  currency: 'LYD',
  duration_days: 30,
  max_active_ads: 3,
  featured_ads: 2,
  reposts: 2,
  audience: 'individual',
  active: true,
};

describe.each(dialects)('packages on %s', (dialect) => {
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

  const member = () => insertMember(t.db);
  const input = (over: Partial<AdInput> = {}) =>
    toyotaAdInput(cityId, { attrs: { year: 2015, model: 'corolla' }, ...over });
  const place = async (actor: { id: string }, now = new Date(), moderation: 'pre' | 'post' = 'pre') =>
    createAd(
      t.db,
      { moderation, now },
      actor,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      attributes,
      input(),
    );
  const payment = () => ({
    method: 'bank-transfer' as const,
    reference: `TR-${dialect}-${++references}`,
    amount: 150,
    currency: 'LYD',
  });
  const grant = (userId: string, packageId: number, now = new Date()) =>
    grantPackage(t.db, staff, { userId, packageId, payment: payment() }, { now });
  const revisions = (type: string, id: number | string) =>
    t.db
      .selectFrom('revisions')
      .select(['action', 'changes', 'actor_id'])
      .where('subject_type', '=', type)
      .where('subject_id', '=', String(id))
      .orderBy('id')
      .execute();

  describe('the back office', () => {
    it('creates, edits, switches and deletes a package, each with a revision', async () => {
      const id = await createPackage(t.db, staff, { ...SILVER, name_en: 'Bronze' });
      expect(await getPackage(t.db, id)).toMatchObject({
        name_en: 'Bronze',
        price: 150,
        active: true,
        subscriptions: 0,
      });
      expect(await updatePackage(t.db, staff, id, { ...SILVER, name_en: 'Bronze', price: 120 })).toEqual(['price']);
      expect(await updatePackage(t.db, staff, id, { ...SILVER, name_en: 'Bronze', price: 120 })).toEqual([]);
      expect(await setPackageActive(t.db, staff, id, false)).toBe(true);
      expect(await setPackageActive(t.db, staff, id, false)).toBe(false);
      const log = await revisions('package', id);
      expect(log.map((r) => r.action)).toEqual(['create', 'edit', 'deactivate']);
      expect(toJson(log[1]?.changes, {})).toEqual({ price: [150, 120] });
      expect(log.every((r) => r.actor_id === staff.id)).toBe(true);
      await deletePackage(t.db, staff, id);
      await expect(getPackage(t.db, id)).rejects.toThrow('errors.not-found');
      expect((await revisions('package', id)).at(-1)?.action).toBe('delete');
    });

    it('refuses to delete a package that was granted, saying how often', async () => {
      const id = await createPackage(t.db, staff, SILVER);
      await grant((await member()).id, id);
      await expect(deletePackage(t.db, staff, id)).rejects.toMatchObject({
        errors: { form: ['package-has-subscriptions:1'] },
      });
      expect((await getPackage(t.db, id)).subscriptions).toBe(1);
    });

    it('lists packages by search, state and audience', async () => {
      const on = await createPackage(t.db, staff, { ...SILVER, name_en: 'Gold 100% deal' });
      const off = await createPackage(t.db, staff, { ...SILVER, name_en: 'Gold off', active: false });
      const company = await createPackage(t.db, staff, { ...SILVER, name_en: 'Gold dealers', audience: 'company' });
      const ids = async (filters: Record<string, string>, q = 'gold') =>
        (await listPackages(t.db, { q, sort: 'created', dir: 'asc', filters, after: null })).rows.map((r) => r.id);
      expect(await ids({})).toEqual([on, off, company]);
      expect(await ids({ active: 'off' })).toEqual([off]);
      expect(await ids({ audience: 'company' })).toEqual([company]);
      expect(await ids({}, '100%')).toEqual([on]);
    });
  });

  describe('grants', () => {
    it('records the payment, copies the limits and writes a revision', async () => {
      const buyer = await member();
      const id = await createPackage(t.db, staff, SILVER);
      const now = new Date('2026-12-01T10:00:00Z');
      const done = await grant(buyer.id, id, now);
      expect(done).toMatchObject({
        starts_at: now.toISOString(),
        ends_at: new Date(now.getTime() + 30 * DAY).toISOString(),
      });
      // A later edit of the package does not change what was sold.
      await updatePackage(t.db, staff, id, { ...SILVER, max_active_ads: 50 });
      const [held] = await memberPackages(t.db, buyer.id, now);
      expect(held).toMatchObject({ max_active_ads: 3, featured_remaining: 2, reposts_remaining: 2, current: true });
      const pay = await t.db
        .selectFrom('payments')
        .selectAll()
        .where('user_id', '=', buyer.id)
        .executeTakeFirstOrThrow();
      expect(pay).toMatchObject({ provider: 'staff', method: 'bank-transfer', recorded_by: staff.id });
      expect(toNumber(pay.amount)).toBe(150);
      const [rev] = await revisions('subscription', done.id);
      expect(rev?.action).toBe('grant');
      expect(toJson<Record<string, unknown[]>>(rev?.changes, {}).payment?.[1]).toMatchObject({
        method: 'bank-transfer',
      });
    });

    it('refuses a switched-off package, a company package, an unknown member and a reference recorded before', async () => {
      const buyer = await member();
      const off = await createPackage(t.db, staff, { ...SILVER, active: false });
      const company = await createPackage(t.db, staff, { ...SILVER, audience: 'company' });
      const on = await createPackage(t.db, staff, SILVER);
      await expect(grant(buyer.id, off)).rejects.toMatchObject({ errors: { package_id: ['package-inactive'] } });
      await expect(grant(buyer.id, company)).rejects.toMatchObject({
        errors: { package_id: ['package-for-companies'] },
      });
      await expect(grant('nobody', on)).rejects.toMatchObject({ errors: { member: ['member-not-found'] } });
      await expect(grant(buyer.id, 999_999)).rejects.toMatchObject({ errors: { package_id: ['in'] } });
      const pay = payment();
      await grantPackage(t.db, staff, { userId: buyer.id, packageId: on, payment: pay });
      await expect(grantPackage(t.db, staff, { userId: buyer.id, packageId: on, payment: pay })).rejects.toMatchObject({
        errors: { reference: ['payment-reference-taken'] },
      });
      // Nothing of the refused grants was written.
      expect(await memberPackages(t.db, buyer.id)).toHaveLength(1);
    });

    it('a renewal of the same package starts when the running one ends', async () => {
      const buyer = await member();
      const id = await createPackage(t.db, staff, SILVER);
      const now = new Date('2026-12-01T10:00:00Z');
      const first = await grant(buyer.id, id, now);
      const second = await grant(buyer.id, id, new Date(now.getTime() + 27 * DAY));
      expect(second.starts_at).toBe(first.ends_at);
      const held = await memberPackages(t.db, buyer.id, new Date(now.getTime() + 28 * DAY));
      expect(held.map((p) => p.current)).toEqual([true, false]);
      // Only the running one adds to the allowance.
      expect(await activeAdLimit(t.db, buyer.id, new Date(now.getTime() + 28 * DAY))).toBe(AD_RULES.freeActiveAds + 3);
    });

    it('finds the member by email or phone number', async () => {
      const buyer = await member();
      const row = await t.db
        .selectFrom('users')
        .select(['email', 'phone_number'])
        .where('id', '=', buyer.id)
        .executeTakeFirstOrThrow();
      expect(await findMemberId(t.db, row.email.toUpperCase())).toBe(buyer.id);
      expect(await findMemberId(t.db, row.phone_number as string)).toBe(buyer.id);
      expect(await findMemberId(t.db, 'nobody@example.ly')).toBeNull();
    });
  });

  describe('the allowance', () => {
    it('raises the active-ad quota while the package lasts, and no longer once it ended', async () => {
      const seller = await member();
      const id = await createPackage(t.db, staff, { ...SILVER, max_active_ads: 2 });
      const now = new Date('2026-12-01T10:00:00Z');
      for (let i = 0; i < AD_RULES.freeActiveAds; i++) await place(seller, now);
      await expect(place(seller, now)).rejects.toMatchObject({
        errors: { form: [`allowance-exceeded:${AD_RULES.freeActiveAds}`] },
      });
      await grant(seller.id, id, now);
      await place(seller, now);
      await place(seller, now);
      await expect(place(seller, now)).rejects.toMatchObject({
        errors: { form: [`allowance-exceeded:${AD_RULES.freeActiveAds + 2}`] },
      });
      // Once it ended, the free allowance alone: still 7 active, none more.
      const later = new Date(now.getTime() + 31 * DAY);
      expect(await activeAdLimit(t.db, seller.id, later)).toBe(AD_RULES.freeActiveAds);
      await expect(place(seller, later)).rejects.toMatchObject({
        errors: { form: [`allowance-exceeded:${AD_RULES.freeActiveAds}`] },
      });
    });

    it('features an ad with a featured ad of the package, the one ending first paying first', async () => {
      const seller = await member();
      const long = await createPackage(t.db, staff, { ...SILVER, duration_days: 60, featured_ads: 1 });
      const short = await createPackage(t.db, staff, { ...SILVER, duration_days: 10, featured_ads: 1 });
      const now = new Date('2026-12-01T10:00:00Z');
      const ad = await place(seller, now, 'post');
      await expect(featureOwnAd(t.db, seller, ad.id, now)).rejects.toMatchObject({
        errors: { form: ['no-featured-left'] },
      });
      await grant(seller.id, long, now);
      await grant(seller.id, short, now);
      const until = await featureOwnAd(t.db, seller, ad.id, now);
      expect(until).toBe(new Date(now.getTime() + AD_RULES.featureDays * DAY).toISOString());
      const held = await memberPackages(t.db, seller.id, now);
      expect(held.map((p) => [p.package.id, p.featured_remaining])).toEqual(
        expect.arrayContaining([
          [short, 0],
          [long, 1],
        ]),
      );
      // Featured again: a week more from the current end.
      expect(await featureOwnAd(t.db, seller, ad.id, now)).toBe(
        new Date(now.getTime() + 2 * AD_RULES.featureDays * DAY).toISOString(),
      );
      await expect(featureOwnAd(t.db, seller, ad.id, now)).rejects.toMatchObject({
        errors: { form: ['no-featured-left'] },
      });
      const log = await revisions('ad', ad.id);
      expect(log.filter((r) => r.action === 'feature')).toHaveLength(2);
    });

    it('spends a repost for a bump within the cool-down; an ended package spends nothing', async () => {
      const seller = await member();
      const id = await createPackage(t.db, staff, { ...SILVER, reposts: 1, duration_days: 5 });
      const now = new Date('2026-12-01T10:00:00Z');
      const ad = await place(seller, now, 'post');
      const soon = new Date(now.getTime() + DAY);
      await expect(repostAd(t.db, seller, ad.id, soon)).rejects.toMatchObject({
        errors: { form: ['repost-cooldown:6'] },
      });
      await grant(seller.id, id, now);
      const own = { status: 'published', bumped_at: now.toISOString() } as Parameters<typeof repostQuote>[2];
      expect(await repostQuote(t.db, seller.id, own, soon)).toMatchObject({
        refusal: null,
        usesRepost: true,
        reposts: 1,
      });
      expect(await repostAd(t.db, seller, ad.id, soon)).toBe('bumped');
      expect(await creditsLeft(t.db, seller.id, 'reposts', soon)).toBe(0);
      await expect(repostAd(t.db, seller, ad.id, new Date(soon.getTime() + DAY))).rejects.toMatchObject({
        errors: { form: ['repost-cooldown:6'] },
      });
      // Past the cool-down the bump is free again and spends nothing.
      const free = new Date(soon.getTime() + AD_RULES.repostCooldownDays * DAY);
      expect(await repostAd(t.db, seller, ad.id, free)).toBe('bumped');

      // A new package that has ended adds no reposts.
      const other = await member();
      const ad2 = await place(other, now, 'post');
      await grant(other.id, id, now);
      const ended = new Date(now.getTime() + 6 * DAY);
      expect(await creditsLeft(t.db, other.id, 'reposts', ended)).toBe(0);
      expect(await spendCredit(t.db, other.id, 'reposts', ended)).toBeNull();
      await expect(repostAd(t.db, other, ad2.id, ended)).rejects.toMatchObject({
        errors: { form: ['repost-cooldown:1'] },
      });
    });

    it('uses at the same moment never overspend the counters', async () => {
      const seller = await member();
      const id = await createPackage(t.db, staff, { ...SILVER, featured_ads: 2 });
      const now = new Date('2026-12-01T10:00:00Z');
      await grant(seller.id, id, now);
      const ads = [];
      for (let i = 0; i < 6; i++) ads.push(await place(seller, now, 'post'));
      const results = await Promise.allSettled(ads.map((ad) => featureOwnAd(t.db, seller, ad.id, now)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect((r as PromiseRejectedResult).reason).toMatchObject({ errors: { form: ['no-featured-left'] } });
      }
      expect(await creditsLeft(t.db, seller.id, 'featured', now)).toBe(0);
      const featured = await t.db
        .selectFrom('ads')
        .select('id')
        .where('user_id', '=', seller.id)
        .where('featured_until', 'is not', null)
        .execute();
      expect(featured).toHaveLength(2);
    });

    it('placements at the same moment never pass the quota', async () => {
      const seller = await member();
      const id = await createPackage(t.db, staff, { ...SILVER, max_active_ads: 1 });
      const now = new Date('2026-12-01T10:00:00Z');
      await grant(seller.id, id, now);
      for (let i = 0; i < AD_RULES.freeActiveAds; i++) await place(seller, now);
      const results = await Promise.allSettled([1, 2, 3, 4].map(() => place(seller, now)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const active = await t.db
        .selectFrom('ads')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', seller.id)
        .where('status', 'in', ['pending', 'published'])
        .executeTakeFirstOrThrow();
      expect(toNumber(active.n)).toBe(AD_RULES.freeActiveAds + 1);
    });
  });

  describe('the subscriptions list and the package-expiring reminder', () => {
    it('lists subscriptions by member, package and state', async () => {
      const buyer = await insertMember(t.db, { name: 'Salem Listed' });
      const id = await createPackage(t.db, staff, SILVER);
      const past = new Date(Date.now() - 40 * DAY);
      const ended = await grant(buyer.id, id, past);
      const running = await grant(buyer.id, id);
      const list = async (filters: Record<string, string>) =>
        (
          await listSubscriptions(t.db, { q: 'salem listed', sort: 'granted', dir: 'desc', filters, after: null })
        ).rows.map((r) => [r.id, r.state]);
      expect(await list({})).toEqual([
        [running.id, 'current'],
        [ended.id, 'ended'],
      ]);
      expect(await list({ state: 'ended', package: String(id) })).toEqual([[ended.id, 'ended']]);
      expect(await list({ state: 'upcoming' })).toEqual([]);
    });

    it('tells the member once, a few days before a running subscription ends', async () => {
      const buyer = await member();
      const id = await createPackage(t.db, staff, { ...SILVER, duration_days: 10 });
      const now = new Date('2026-12-01T10:00:00Z');
      const sub = await grant(buyer.id, id, now);
      const notes = () =>
        t.db.selectFrom('notifications').select(['type', 'data']).where('user_id', '=', buyer.id).execute();
      // Six days before the end: not yet.
      await remindExpiringSubscriptions(t.db, new Date(now.getTime() + 4 * DAY));
      expect(await notes()).toHaveLength(0);
      const due = new Date(now.getTime() + (10 - PACKAGE_REMINDER_DAYS + 1) * DAY);
      expect(await remindExpiringSubscriptions(t.db, due)).toBeGreaterThanOrEqual(1);
      expect(await remindExpiringSubscriptions(t.db, due)).toBe(0);
      const told = await notes();
      expect(told).toHaveLength(1);
      expect(told[0]?.type).toBe('package-expiring');
      expect(toJson(told[0]?.data, {})).toMatchObject({
        subscription_id: sub.id,
        name_en: 'Silver',
        name_ar: 'الفضية',
        expires_at: sub.ends_at,
        path: '/profile#package',
      });
      // Its mail is planned with it.
      const mail = await t.db.selectFrom('jobs').select('id').where('name', '=', 'notification-mail').execute();
      expect(mail.length).toBeGreaterThan(0);
      // Once ended, nothing more.
      expect(await remindExpiringSubscriptions(t.db, new Date(now.getTime() + 11 * DAY))).toBe(0);
    });
  });
});
