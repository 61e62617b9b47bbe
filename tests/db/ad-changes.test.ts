// Editing a live ad (docs/product/ads.md, "Editing a live ad") on every dialect: what waits for
// review as a pending change while the approved version stays published, what applies at once,
// and the moderator's approval or rejection and the owner's withdrawal of the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson, toNumber } from '../../server/db/values.ts';
import { pruneOrphanAdImages } from '../../server/domain/ad-images.ts';
import {
  approveAdChange,
  findPendingChange,
  rejectAdChange,
  withdrawAdChange,
} from '../../server/domain/ads/changes.ts';
import { type AdInput, createAd, resolveCategoryPath, updateAd } from '../../server/domain/ads/placing.ts';
import { moveAd } from '../../server/domain/ads/status.ts';
import { type Attribute, listCategoryAttributes } from '../../server/domain/catalog.ts';
import { Invalid, NotFound } from '../../server/domain/errors.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const DAY = 86_400_000;

describe.each(dialects)('editing a live ad on %s', (dialect) => {
  let t: TestDatabase;
  let attributes: Attribute[];
  let cityId: number;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    attributes = await listCategoryAttributes(t.db, 'toyota');
    cityId = (await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.drop());

  const member = (name?: string) => insertMember(t.db, { name });
  const input = (over: Partial<AdInput> = {}): AdInput =>
    toyotaAdInput(cityId, { attrs: { year: 2015, model: 'corolla' }, ...over });
  const start = new Date('2026-12-01T10:00:00Z');
  const publish = async (owner: { id: string }, over: Partial<AdInput> = {}) =>
    createAd(
      t.db,
      { moderation: 'post', now: start },
      owner,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      attributes,
      input(over),
    );
  const edit = (owner: { id: string }, id: number, over: Partial<AdInput> = {}, moderation: 'pre' | 'post' = 'pre') => {
    const { submission_key: _, ...rest } = input(over);
    return updateAd(t.db, { moderation, now: new Date(start.getTime() + DAY) }, owner, id, attributes, rest);
  };
  const live = (id: number) =>
    t.db
      .selectFrom('ads')
      .select(['status', 'title', 'price', 'contact_whatsapp', 'bumped_at', 'expires_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const indexed = async (id: number) =>
    (await t.db.selectFrom('ad_search').select('title').where('ad_id', '=', id).executeTakeFirstOrThrow()).title;
  const photo = async (owner: { id: string }, i: number) =>
    (
      await t.db
        .insertInto('ad_images')
        .values({
          user_id: owner.id,
          key: `ads/c/${owner.id}-${i}`,
          width: 10,
          height: 10,
          variants: '[]',
          created_at: new Date(start.getTime() - 10 * DAY),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const notifications = async (userId: string) =>
    (await t.db.selectFrom('notifications').select(['type', 'data']).where('user_id', '=', userId).execute()).map(
      (n) => ({ type: n.type, data: toJson<Record<string, unknown>>(n.data, {}) }),
    );

  it('keeps the approved version published and searchable while a title change and a price rise wait', async () => {
    const owner = await member();
    const ad = await publish(owner);
    const edited = await edit(owner, ad.id, {
      title: 'Toyota Corolla 2015 mint',
      price: 47000,
      contact_whatsapp: true,
    });
    expect(edited.status).toBe('published');
    expect(edited.reviewed.sort()).toEqual(['price', 'title']);
    // What needs no review (the contact options) is applied at once; the rest stays as approved.
    expect(await live(ad.id)).toMatchObject({ status: 'published', title: 'Toyota Corolla 2015' });
    expect(toNumber((await live(ad.id)).price)).toBe(45000);
    expect(Boolean((await live(ad.id)).contact_whatsapp)).toBe(true);
    expect(await indexed(ad.id)).not.toContain('mint');
    const change = await findPendingChange(t.db, ad.id);
    expect(change?.changes).toEqual({
      title: ['Toyota Corolla 2015', 'Toyota Corolla 2015 mint'],
      price: [45000, 47000],
    });
    const history = await t.db.selectFrom('ad_status_history').select('to_status').where('ad_id', '=', ad.id).execute();
    expect(history.map((h) => h.to_status)).toEqual(['published']);
  });

  it('applies a price drop at once, and a switch between fixed and negotiable', async () => {
    const owner = await member();
    const ad = await publish(owner);
    expect((await edit(owner, ad.id, { price: 42000 })).reviewed).toEqual([]);
    expect(toNumber((await live(ad.id)).price)).toBe(42000);
    expect(await findPendingChange(t.db, ad.id)).toBeNull();
    expect((await edit(owner, ad.id, { price: 42000, price_type: 'negotiable' })).reviewed).toEqual([]);
    // Another currency, a price on request or a higher amount is a change to review.
    expect((await edit(owner, ad.id, { price: 40000, price_type: 'negotiable', currency: 'USD' })).reviewed).toEqual([
      'price',
      'currency',
    ]);
    expect((await edit(owner, ad.id, { price_type: 'on-request', price: undefined })).reviewed).toEqual([
      'price',
      'price_type',
    ]);
  });

  it('holds new photos for the change (not pruned) and applies dropping a photo at once', async () => {
    const owner = await member();
    const [a, b, c] = [await photo(owner, 1), await photo(owner, 2), await photo(owner, 3)] as [number, number, number];
    const ad = await publish(owner, { photos: [a, b] });
    expect((await edit(owner, ad.id, { photos: [a] })).reviewed).toEqual([]);
    expect((await edit(owner, ad.id, { photos: [a, c] })).reviewed).toEqual(['photos']);
    const onAd = await t.db.selectFrom('ad_images').select('id').where('ad_id', '=', ad.id).execute();
    expect(onAd.map((p) => p.id)).toEqual([a]);
    await pruneOrphanAdImages(t.db, { delete: async () => {} } as never, 24, start.getTime() + 2 * DAY);
    const kept = await t.db
      .selectFrom('ad_images')
      .select(['id', 'held_for_ad_id'])
      .where('id', 'in', [b, c])
      .orderBy('id')
      .execute();
    // b (dropped) is an orphan again and pruned; c waits with the change.
    expect(kept).toEqual([{ id: c, held_for_ad_id: ad.id }]);
    const staff = await member('moderator');
    await approveAdChange(t.db, staff, ad.id);
    const after = await t.db
      .selectFrom('ad_images')
      .select('id')
      .where('ad_id', '=', ad.id)
      .orderBy('position')
      .execute();
    expect(after.map((p) => p.id)).toEqual([a, c]);
    expect(
      (await t.db.selectFrom('ad_images').select('held_for_ad_id').where('id', '=', c).executeTakeFirstOrThrow())
        .held_for_ad_id,
    ).toBeNull();
  });

  it('applies an approved change in place (same listing position and expiry), telling the owner', async () => {
    const owner = await member();
    const staff = await member('moderator');
    const ad = await publish(owner);
    const before = await live(ad.id);
    await edit(owner, ad.id, { title: 'Toyota Corolla 2015 low mileage', description: 'Only 60,000 km, garage kept.' });
    await approveAdChange(t.db, staff, ad.id, new Date(start.getTime() + 2 * DAY));
    const after = await live(ad.id);
    expect(after.title).toBe('Toyota Corolla 2015 low mileage');
    expect(new Date(after.bumped_at as string).toISOString()).toBe(new Date(before.bumped_at as string).toISOString());
    expect(new Date(after.expires_at as string).toISOString()).toBe(
      new Date(before.expires_at as string).toISOString(),
    );
    expect(await indexed(ad.id)).toContain('mileage');
    expect(await findPendingChange(t.db, ad.id)).toBeNull();
    expect(await notifications(owner.id)).toEqual([
      { type: 'ad-approved', data: { ad_id: ad.id, title: 'Toyota Corolla 2015 low mileage', change: true } },
    ]);
    const actions = await t.db
      .selectFrom('revisions')
      .select('action')
      .where('subject_id', '=', String(ad.id))
      .orderBy('id')
      .execute();
    expect(actions.map((r) => r.action)).toEqual(['create', 'propose-change', 'approve-change']);
    await expect(approveAdChange(t.db, staff, ad.id)).rejects.toThrow(NotFound);
  });

  it('rejects a change only with a reason; the live version stays and the owner is told why', async () => {
    const owner = await member();
    const staff = await member('moderator');
    const ad = await publish(owner);
    await edit(owner, ad.id, { title: 'Call 0912345678 now' });
    await expect(rejectAdChange(t.db, staff, ad.id, '')).rejects.toThrow(Invalid);
    await rejectAdChange(t.db, staff, ad.id, 'contact-in-text');
    expect(await live(ad.id)).toMatchObject({ status: 'published', title: 'Toyota Corolla 2015' });
    expect(await findPendingChange(t.db, ad.id)).toBeNull();
    expect(await notifications(owner.id)).toEqual([
      {
        type: 'ad-rejected',
        data: { ad_id: ad.id, title: 'Toyota Corolla 2015', reason: 'contact-in-text', change: true },
      },
    ]);
  });

  it('replaces the change on a new edit, drops it when the live version is saved, and lets only the owner withdraw', async () => {
    const owner = await member();
    const ad = await publish(owner);
    await edit(owner, ad.id, { title: 'Toyota Corolla 2015 first try' });
    await edit(owner, ad.id, { description: 'A better description of this clean car.' });
    expect((await findPendingChange(t.db, ad.id))?.changes).toEqual({
      description: [
        'Clean car, one owner, full service history in Tripoli.',
        'A better description of this clean car.',
      ],
    });
    // Saving the form as the ad is live withdraws the change.
    expect((await edit(owner, ad.id)).changed).toEqual([]);
    expect(await findPendingChange(t.db, ad.id)).toBeNull();
    await edit(owner, ad.id, { title: 'Toyota Corolla 2015 second try' });
    const stranger = await member();
    await expect(withdrawAdChange(t.db, stranger, ad.id)).rejects.toThrow(NotFound);
    await withdrawAdChange(t.db, owner, ad.id);
    expect(await findPendingChange(t.db, ad.id)).toBeNull();
    expect((await live(ad.id)).title).toBe('Toyota Corolla 2015');
    await expect(withdrawAdChange(t.db, owner, ad.id)).rejects.toThrow(NotFound);
  });

  it('drops the change when the ad leaves published; rejected ads and post-moderation work as before', async () => {
    const owner = await member();
    const staff = await member('moderator');
    const ad = await publish(owner);
    await edit(owner, ad.id, { title: 'Toyota Corolla 2015 sold soon' });
    await moveAd(t.db, owner, ad.id, 'mark-sold', { owner: owner.id });
    expect(await findPendingChange(t.db, ad.id)).toBeNull();

    const post = await publish(owner);
    expect(await edit(owner, post.id, { title: 'Toyota Corolla 2015 at once' }, 'post')).toMatchObject({
      status: 'published',
      reviewed: [],
    });
    expect((await live(post.id)).title).toBe('Toyota Corolla 2015 at once');

    const rejected = await publish(owner);
    await moveAd(t.db, staff, rejected.id, 'reject', { reason: 'poor-photos' });
    expect(await edit(owner, rejected.id, { title: 'Toyota Corolla 2015 better photos' })).toMatchObject({
      status: 'pending',
      reviewed: [],
    });
    expect(await findPendingChange(t.db, rejected.id)).toBeNull();
  });
});
