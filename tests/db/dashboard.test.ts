// The back-office dashboard's figures (server/domain/dashboard.ts) on every dialect, on known data:
// members and ads per UTC day over 30 days (zero-filled), the moderation queue with its longest
// wait, open reports, failed jobs, the categories and cities with the most live ads, and contact
// messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { recountTaxonomy } from '../../server/domain/ads/bookkeeping.ts';
import { createAd, resolveCategoryPath, updateAd } from '../../server/domain/ads/placing.ts';
import { moveAd } from '../../server/domain/ads/status.ts';
import { listCategoryAttributes } from '../../server/domain/catalog.ts';
import { lastDays, loadDashboard, oldestWaiting } from '../../server/domain/dashboard.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('dashboard figures on %s', (dialect) => {
  let t: TestDatabase;
  const now = new Date('2026-11-21T12:00:00Z');
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    const at = (iso: string) => (dialect === 'postgres' ? new Date(iso) : iso);
    const users = [
      ['u1', '2026-11-21T08:00:00.000Z'],
      ['u2', '2026-11-21T09:00:00.000Z'],
      ['u3', '2026-11-18T23:59:00.000Z'],
      ['u4', '2026-11-01T10:00:00.000Z'],
      // Outside the 30 days.
      ['u5', '2026-10-22T23:59:59.000Z'],
    ];
    for (const [id, created] of users) {
      await t.db
        .insertInto('users')
        .values({
          id,
          name: id,
          email: `${id}@example.ly`,
          phone_number: `+2189100000${id.slice(1)}`,
          phone_number_verified: true,
          locale: 'ar',
          created_at: at(created),
          updated_at: at(created),
        } as never)
        .execute();
    }
    const tripoli = await t.db
      .selectFrom('cities')
      .select('id')
      .where('slug', '=', 'tripoli')
      .executeTakeFirstOrThrow();
    const misrata = await t.db
      .selectFrom('cities')
      .select('id')
      .where('slug', '=', 'misrata')
      .executeTakeFirstOrThrow();
    const toyota = await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']);
    const attributes = await listCategoryAttributes(t.db, 'toyota');
    const staff = await insertMember(t.db, { name: 'Staff' });
    const place = async (title: string, iso: string, city = tripoli.id) =>
      (
        await createAd(
          t.db,
          { moderation: 'pre', now: new Date(iso) },
          { id: 'u1', ip: '10.0.0.1', userAgent: 'test' },
          toyota,
          attributes,
          toyotaAdInput(city, { title, submission_key: title }),
        )
      ).id;
    // Three ads on 20 November, one on 21 (today); two of them approved (live), one in Misrata.
    const a = await place('Live in Tripoli', '2026-11-20T08:00:00.000Z');
    const b = await place('Live in Misrata', '2026-11-20T09:00:00.000Z', misrata.id);
    await place('Waiting longest', '2026-11-20T10:00:00.000Z');
    await place('Waiting since today', '2026-11-21T07:00:00.000Z');
    await moveAd(t.db, staff, a, 'approve');
    await moveAd(t.db, staff, b, 'approve');
    // What the `recount-taxonomy` job does after an ad goes live.
    await recountTaxonomy(t.db, toyota.taxonomy.id);
    await t.db
      .insertInto('reports')
      .values([
        { reporter_id: 'u2', ad_id: a, reason: 'scam', status: 'open' },
        { reporter_id: 'u3', ad_id: a, reason: 'sold', status: 'open' },
        { reporter_id: 'u3', ad_id: b, reason: 'other', status: 'resolved' },
      ])
      .execute();
    await t.db
      .insertInto('jobs')
      .values([
        { name: 'notification-mail', payload: '{}', run_at: 0, status: 'dead', last_error: 'smtp down' },
        { name: 'notification-mail', payload: '{}', run_at: 0, status: 'pending', last_error: null },
      ] as never)
      .execute();
    await t.db
      .insertInto('contact_messages')
      .values([
        {
          name: 'A',
          email: 'a@x.ly',
          phone: null,
          subject: 'general',
          body: 'one two three four',
          status: 'new',
          locale: 'ar',
          ip: null,
          user_agent: null,
        },
        {
          name: 'B',
          email: 'b@x.ly',
          phone: null,
          subject: 'ad',
          body: 'one two three four',
          status: 'read',
          locale: 'en',
          ip: null,
          user_agent: null,
        },
      ])
      .execute();
  });
  afterAll(() => t.drop());

  it('counts members per UTC day over the last 30 days, zero-filled', async () => {
    const d = await loadDashboard(t, now);
    expect(d.members.total).toBe(6);
    expect(d.members.perDay).toHaveLength(30);
    expect(d.members.perDay[0].day).toBe('2026-10-23');
    expect(d.members.perDay.reduce((a, x) => a + x.count, 0)).toBe(4);
    expect(d.members.perDay.find((x) => x.day === '2026-11-18')?.count).toBe(1);
    expect(d.members.perDay.find((x) => x.day === '2026-11-01')?.count).toBe(1);
    expect(d.members.last7Days).toBe(3);
  });

  it('counts new ads per day, the queue and its longest wait, open reports and failed jobs', async () => {
    const d = await loadDashboard(t, now);
    expect(d.ads.perDay).toHaveLength(30);
    expect(d.ads.perDay.find((x) => x.day === '2026-11-20')?.count).toBe(3);
    expect(d.ads.perDay.at(-1)).toEqual({ day: '2026-11-21', count: 1 });
    expect(d.ads.last30Days).toBe(4);
    expect(d.pending).toEqual({ count: 2, oldestSince: '2026-11-20T10:00:00.000Z' });
    expect(d.reports.open).toBe(2);
    expect(d.jobs.failed).toBe(1);
  });

  it('ranks leaf categories and cities by live ads', async () => {
    const d = await loadDashboard(t, now);
    expect(d.top.categories).toEqual([{ slug: 'toyota', name_ar: expect.any(String), name_en: 'Toyota', count: 2 }]);
    expect(d.top.cities.map((c) => [c.slug, c.count]).sort()).toEqual([
      ['misrata', 1],
      ['tripoli', 1],
    ]);
  });

  it('counts the packages running now and the members holding them', async () => {
    const [a, b] = await t.db.selectFrom('users').select('id').orderBy('id').limit(2).execute();
    const { id: packageId } = await t.db
      .insertInto('packages')
      .values({
        name_ar: 'باقة',
        name_en: 'Package',
        price: 100,
        currency: 'LYD',
        duration_days: 30,
        max_active_ads: 5,
        featured_ads: 0,
        reposts: 0,
        audience: 'individual',
        active: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000);
    const grant = (userId: string, starts: number, ends: number) => ({
      package_id: Number(packageId),
      user_id: userId,
      starts_at: day(starts),
      ends_at: day(ends),
      max_active_ads: 5,
      featured_ads: 0,
      reposts: 0,
      featured_remaining: 0,
      reposts_remaining: 0,
    });
    await t.db
      .insertInto('subscriptions')
      .values([
        grant(a?.id as string, -3, 27),
        grant(a?.id as string, 27, 57), // starts later
        grant(b?.id as string, -10, 20),
        grant(b?.id as string, -40, -10), // ended
      ])
      .execute();
    expect((await loadDashboard(t, now)).packages).toEqual({ active: 2, members: 2 });
  });

  it('counts unread contact messages and lists the latest', async () => {
    const d = await loadDashboard(t, now);
    expect(d.contact.unread).toBe(1);
    expect(d.contact.latest.map((m) => m.name).sort()).toEqual(['A', 'B']);
  });

  it('counts a member on the day they joined as soon as they join, and no more once deleted', async () => {
    await loadDashboard(t, now);
    const join = async (id: string, iso: string) =>
      t.db
        .insertInto('users')
        .values({
          id,
          name: id,
          email: `${id}@example.ly`,
          created_at: dialect === 'postgres' ? new Date(iso) : iso,
          updated_at: dialect === 'postgres' ? new Date(iso) : iso,
        } as never)
        .execute();
    await join('late-today', '2026-11-21T11:00:00.000Z');
    await join('late-yesterday', '2026-11-20T11:00:00.000Z');
    const soon = await loadDashboard(t, new Date(now.getTime() + 60_000));
    expect(soon.members.perDay.at(-1)).toEqual({ day: '2026-11-21', count: 3 });
    expect(soon.members.perDay.find((x) => x.day === '2026-11-20')?.count).toBe(1);
    await t.db.deleteFrom('users').where('id', '=', 'late-yesterday').execute();
    const later = await loadDashboard(t, new Date(now.getTime() + 60_000));
    expect(later.members.perDay.find((x) => x.day === '2026-11-20')?.count).toBe(0);
  });

  it('finds the longest wait by when each ad last entered review', async () => {
    // The oldest pending ad is rejected and resubmitted by its owner today at 08:00: the one placed
    // at 07:00 now waits longest.
    const oldest = await t.db
      .selectFrom('ads')
      .select('id')
      .where('title', '=', 'Waiting longest')
      .executeTakeFirstOrThrow();
    const staff = await insertMember(t.db, { name: 'Staff 2' });
    await moveAd(t.db, staff, oldest.id, 'reject', { reason: 'duplicate' });
    const tripoli = await t.db
      .selectFrom('cities')
      .select('id')
      .where('slug', '=', 'tripoli')
      .executeTakeFirstOrThrow();
    await updateAd(
      t.db,
      { moderation: 'pre', now: new Date('2026-11-21T08:00:00.000Z') },
      { id: 'u1', ip: '10.0.0.1', userAgent: 'test' },
      oldest.id,
      await listCategoryAttributes(t.db, 'toyota'),
      toyotaAdInput(tripoli.id, {
        title: 'Waiting longest',
        description: 'Clean car, one owner, edited after review.',
      }),
    );
    expect(await oldestWaiting(t)).toBe('2026-11-21T07:00:00.000Z');
    expect((await loadDashboard(t, now)).pending).toEqual({ count: 2, oldestSince: '2026-11-21T07:00:00.000Z' });
  });

  it('builds the day list across a month boundary', () => {
    expect(lastDays(3, new Date('2026-12-01T05:00:00Z'))).toEqual(['2026-11-29', '2026-11-30', '2026-12-01']);
  });
});
