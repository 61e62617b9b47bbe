// The moderation queue's queries and featuring (server/domain/moderation.ts) on every dialect:
// fair order of the pending tab, filters and counts, the review page's data, featuring with its
// revision.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { decodeCursor } from '../../server/domain/admin/keyset.ts';
import { type AdInput, createAd, resolveCategoryPath, updateAd } from '../../server/domain/ads/placing.ts';
import { moveAd } from '../../server/domain/ads/status.ts';
import { listCategoryAttributes } from '../../server/domain/catalog.ts';
import { Invalid, NotFound } from '../../server/domain/errors.ts';
import { featureAd, getModerationAd, listModerationQueue } from '../../server/domain/moderation.ts';
import { insertMember } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const DAY = 86_400_000;

describe.each(dialects)('the moderation queue on %s', (dialect) => {
  let t: TestDatabase;
  let tripoli: number;
  let benghazi: number;
  let motors: number;
  let staff: { id: string };
  const ids: Record<string, number> = {};

  const member = (name: string) => insertMember(t.db, { name });

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    const city = async (slug: string) =>
      (await t.db.selectFrom('cities').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
    tripoli = await city('tripoli');
    benghazi = await city('benghazi');
    motors = (await t.db.selectFrom('taxonomies').select('id').where('slug', '=', 'motors').executeTakeFirstOrThrow())
      .id;
    staff = await member('Moderator');
    const owner = await member('Owner');
    const buyer = await member('Buyer');
    const toyota = await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']);
    const iphone = await resolveCategoryPath(t.db, 'electronics', ['mobile-phones', 'iphone']);
    const place = async (name: string, who: { id: string }, over: Partial<AdInput>, at: number) => {
      const path = over.attrs && 'condition' in over.attrs ? iphone : toyota;
      const ad = await createAd(
        t.db,
        { moderation: 'pre', now: new Date(Date.UTC(2026, 0, 1) + at * 60_000) },
        who,
        path,
        await listCategoryAttributes(t.db, path.category.slug),
        {
          title: name,
          description: 'A description long enough for the form.',
          price_type: 'fixed',
          price: 1000,
          currency: 'LYD',
          city: tripoli,
          contact_phone: true,
          contact_whatsapp: false,
          photos: [],
          submission_key: name,
          attrs: { year: 2015, model: 'corolla' },
          ...over,
        },
      );
      ids[name] = ad.id;
    };
    // Placed in this order, a minute apart.
    await place('first', owner, {}, 0);
    await place('second', owner, { city: benghazi }, 1);
    await place('phone', buyer, { attrs: { model: 'iphone-15-pro-max', condition: 'used' } }, 2);
    await place('published', buyer, {}, 3);
    await moveAd(t.db, staff, ids.published, 'approve');
    await t.db
      .insertInto('reports')
      .values({ reporter_id: owner.id, ad_id: ids.phone, reason: 'scam', note: 'Deposit first' })
      .execute();
    await t.db
      .insertInto('reports')
      .values({ reporter_id: owner.id, ad_id: ids.phone, reason: 'other', status: 'dismissed' })
      .execute();
  });
  afterAll(() => t.drop());

  it('serves the pending tab oldest first with per-status counts', async () => {
    const page = await listModerationQueue(t.db, { status: 'pending' });
    expect(page.items.map((i) => i.title)).toEqual(['first', 'second', 'phone']);
    expect(page.counts).toMatchObject({ pending: 3, published: 1, rejected: 0 });
    expect(page).toMatchObject({ total: 3, next: null });
    const first = page.items[0];
    expect(first.categories.map((c) => c.slug)).toEqual(['cars', 'toyota']);
    expect(first).toMatchObject({ taxonomy: { slug: 'motors' }, city: { name_en: 'Tripoli' }, price: 1000 });
    expect(first.owner?.name).toBe('Owner');
    expect(first.photo).toBeNull();
    expect(page.items.find((i) => i.title === 'phone')?.open_reports).toBe(1);
  });

  it('keeps a resubmitted ad at the time it entered review again', async () => {
    // `first` entered review before anything else; rejected, then edited by its owner a day later,
    // it enters review again and moves behind the others.
    await moveAd(t.db, staff, ids.first, 'reject', { reason: 'duplicate' });
    expect((await listModerationQueue(t.db, { status: 'pending' })).items.map((i) => i.title)).toEqual([
      'second',
      'phone',
    ]);
    const owner = await t.db.selectFrom('ads').select('user_id').where('id', '=', ids.first).executeTakeFirstOrThrow();
    const path = await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']);
    const later = new Date(Date.UTC(2026, 0, 2));
    await updateAd(
      t.db,
      { moderation: 'pre', now: later },
      { id: owner.user_id as string, ip: '10.0.0.1', userAgent: 'test' },
      ids.first,
      await listCategoryAttributes(t.db, path.category.slug),
      {
        title: 'first',
        description: 'A description long enough for the form, edited.',
        price_type: 'fixed',
        price: 1000,
        currency: 'LYD',
        city: tripoli,
        contact_phone: true,
        contact_whatsapp: false,
        photos: [],
        attrs: { year: 2015, model: 'corolla' },
      },
    );
    const page = await listModerationQueue(t.db, { status: 'pending' });
    expect(page.items.map((i) => i.title)).toEqual(['second', 'phone', 'first']);
    expect(page.items[2].queued_at).toBe(later.toISOString());
  });

  it('narrows by taxonomy, city and open reports; other tabs show the newest first', async () => {
    const titles = async (f: Parameters<typeof listModerationQueue>[1]) =>
      (await listModerationQueue(t.db, f)).items.map((i) => i.title);
    expect(await titles({ status: 'pending', taxonomyId: motors })).toEqual(['second', 'first']);
    expect(await titles({ status: 'pending', cityId: benghazi })).toEqual(['second']);
    expect(await titles({ status: 'pending', reported: true })).toEqual(['phone']);
    expect((await listModerationQueue(t.db, { status: 'pending', reported: true })).counts.pending).toBe(1);
    // Keyset pages: the first ends with a cursor, the second starts after it and is the last.
    const one = await listModerationQueue(t.db, { status: 'pending', perPage: 2 });
    expect(one.items.map((i) => i.title)).toEqual(['second', 'phone']);
    const two = await listModerationQueue(t.db, { status: 'pending', perPage: 2, after: decodeCursor(one.next) });
    expect(two.items.map((i) => i.title)).toEqual(['first']);
    expect(two.next).toBeNull();
    expect(two.total).toBe(3);
    // The other tabs page newest first the same way.
    await moveAd(t.db, staff, ids.second, 'approve');
    const newest = await listModerationQueue(t.db, { status: 'published', perPage: 1 });
    expect(newest.items.map((i) => i.title)).toEqual(['published']);
    const older = await listModerationQueue(t.db, {
      status: 'published',
      perPage: 1,
      after: decodeCursor(newest.next),
    });
    expect(older.items.map((i) => i.title)).toEqual(['second']);
    expect(older.next).toBeNull();
    expect(newest.counts).toMatchObject({ pending: 2, published: 2 });
    // A filter the counters know matches nothing reads no rows.
    expect(await titles({ status: 'published', cityId: benghazi, taxonomyId: motors })).toEqual(['second']);
    expect(await titles({ status: 'rejected', cityId: benghazi })).toEqual([]);
  });

  it('gives the review page localised details, history and open reports', async () => {
    const ad = await getModerationAd(t.db, ids.phone);
    expect(ad.attributes.map((a) => [a.key, a.values])).toEqual([
      ['condition', [{ option: { value: 'used', ar: 'مستعمل', en: 'Used' } }]],
      ['model', [{ option: expect.objectContaining({ value: 'iphone-15-pro-max', en: 'iPhone 15 Pro Max' }) }]],
    ]);
    expect(ad.history).toEqual([expect.objectContaining({ from: null, to: 'pending', actor: 'Buyer' })]);
    expect(ad.reports).toEqual([expect.objectContaining({ reason: 'scam', note: 'Deposit first', reporter: 'Owner' })]);
    expect(ad.owner).toMatchObject({ name: 'Buyer', active_ads: 2, banned: false });
    const car = await getModerationAd(t.db, ids.first);
    expect(car.attributes.find((a) => a.key === 'year')?.values).toEqual([{ number: 2015 }]);
    await expect(getModerationAd(t.db, 987654)).rejects.toBeInstanceOf(NotFound);
  });

  it('features an ad until a moment ahead, with a revision, and takes it back', async () => {
    const now = new Date();
    const until = new Date(now.getTime() + 7 * DAY);
    await featureAd(t.db, staff, ids.published, until, now);
    const row = await t.db
      .selectFrom('ads')
      .select('featured_until')
      .where('id', '=', ids.published)
      .executeTakeFirstOrThrow();
    expect(new Date(row.featured_until as string).toISOString()).toBe(until.toISOString());
    await featureAd(t.db, staff, ids.published, null, now);
    const revisions = await t.db
      .selectFrom('revisions')
      .select(['action', 'actor_id', 'changes'])
      .where('subject_type', '=', 'ad')
      .where('subject_id', '=', String(ids.published))
      .where('action', 'in', ['feature', 'unfeature'])
      .orderBy('id')
      .execute();
    const changes = revisions.map((r) => (typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes));
    expect(revisions.map((r) => [r.action, r.actor_id])).toEqual([
      ['feature', staff.id],
      ['unfeature', staff.id],
    ]);
    expect(changes).toEqual([
      { featured_until: [null, until.toISOString()] },
      { featured_until: [until.toISOString(), null] },
    ]);
    await expect(featureAd(t.db, staff, ids.published, new Date(now.getTime() - DAY), now)).rejects.toBeInstanceOf(
      Invalid,
    );
    await moveAd(t.db, staff, ids.second, 'reject', { reason: 'duplicate' });
    await expect(featureAd(t.db, staff, ids.second, until, now)).rejects.toBeInstanceOf(Invalid);
    await moveAd(t.db, staff, ids.second, 'delete');
    await expect(featureAd(t.db, staff, ids.second, until, now)).rejects.toBeInstanceOf(NotFound);
  });
});
