import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adFormSchema } from '~/lib/validation/ads.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson, toNumber } from '../../server/db/values.ts';
import { recountTaxonomy } from '../../server/domain/ads/bookkeeping.ts';
import { type AdInput, createAd, resolveCategoryPath, slugify, updateAd } from '../../server/domain/ads/placing.ts';
import { AD_RULES } from '../../server/domain/ads/rules.ts';
import { expireAds, moveAd, remindExpiringAds, repostAd } from '../../server/domain/ads/status.ts';
import { type Attribute, listCategoryAttributes } from '../../server/domain/catalog.ts';
import { Invalid, NotFound } from '../../server/domain/errors.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const DAY = 86_400_000;

describe('the ad form schema', () => {
  let attributes: Attribute[];
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    await seedCatalogue(t.db);
    attributes = await listCategoryAttributes(t.db, 'toyota');
  });
  afterAll(() => t.drop());
  const valid = {
    title: 'Toyota Corolla 2015',
    description: 'Clean car, one owner, full service history in Tripoli.',
    price_type: 'fixed',
    price: '٤٥٠٠٠',
    currency: 'LYD',
    city: '1',
    contact_phone: 'on',
    submission_key: 'k1',
    attrs: { year: '2015', model: 'corolla', mileage: '120,000' },
  };
  const errors = (input: Record<string, unknown>) => {
    const r = adFormSchema(attributes).safeParse(input);
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('accepts a complete ad and normalises digits', () => {
    const r = adFormSchema(attributes).safeParse(valid);
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ price: 45000, city: 1, attrs: { year: 2015, model: 'corolla', mileage: 120000 } });
  });
  it('refuses missing required attributes, out-of-range numbers and unknown options', () => {
    expect(errors({ ...valid, attrs: { model: 'corolla' } })).toEqual({ 'attrs.year': 'required' });
    expect(errors({ ...valid, attrs: { year: '1900' } })).toEqual({ 'attrs.year': 'min_value:1960' });
    expect(errors({ ...valid, attrs: { year: '2015', mileage: '-5' } })).toEqual({ 'attrs.mileage': 'min_value:0' });
    expect(errors({ ...valid, attrs: { year: '2015', model: 'ferrari-f40' } })).toEqual({ 'attrs.model': 'in' });
  });
  it('refuses attributes the category does not have', () => {
    expect(errors({ ...valid, attrs: { year: '2015', bedrooms: '3' } })).toEqual({
      'attrs.bedrooms': 'unknown-attribute',
    });
  });
  it('needs a price for fixed and negotiable prices only', () => {
    expect(errors({ ...valid, price: '' })).toEqual({ price: 'required' });
    expect(errors({ ...valid, price: '', price_type: 'on-request' })).toEqual({});
  });
  it('takes at most ten photos', () => {
    const photos = Array.from({ length: 11 }, (_, i) => String(i + 1));
    expect(errors({ ...valid, photos })).toEqual({ photos: 'max_photos:10' });
  });
});

it('slugs keep Arabic letters and drop harakat', () => {
  expect(slugify('تُويُوتا كورولا ٢٠١٥ — نظيفة!')).toBe('تويوتا-كورولا-٢٠١٥-نظيفة');
  expect(slugify('Toyota Corolla, 2015')).toBe('toyota-corolla-2015');
  expect(slugify('!!!')).toBe('ad');
});

describe.each(dialects)('placing and moving ads on %s', (dialect) => {
  let t: TestDatabase;
  let attributes: Attribute[];
  let cityId: number;
  let otherCityArea: number;
  const _n = 0;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    attributes = await listCategoryAttributes(t.db, 'toyota');
    const tripoli = await t.db
      .selectFrom('cities')
      .select('id')
      .where('slug', '=', 'tripoli')
      .executeTakeFirstOrThrow();
    cityId = tripoli.id;
    const benghazi = await t.db
      .selectFrom('cities')
      .select('id')
      .where('slug', '=', 'benghazi')
      .executeTakeFirstOrThrow();
    const area = await t.db
      .selectFrom('areas')
      .select('id')
      .where('city_id', '=', benghazi.id)
      .executeTakeFirstOrThrow();
    otherCityArea = area.id;
  });
  afterAll(() => t.drop());

  const member = (name?: string) => insertMember(t.db, { name });
  const input = (over: Partial<AdInput> = {}): AdInput =>
    toyotaAdInput(cityId, { attrs: { year: 2015, model: 'corolla', extras: undefined }, ...over });
  const place = async (actor: { id: string }, over: Partial<AdInput> = {}, moderation: 'pre' | 'post' = 'pre') =>
    createAd(
      t.db,
      { moderation },
      actor,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      attributes,
      input(over),
    );

  /** An ad placed under post-moderation (published at once) at a given time. */
  const publishedAt = async (actor: { id: string }, now: Date) =>
    createAd(
      t.db,
      { moderation: 'post', now },
      actor,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      attributes,
      input(),
    );

  it('resolves only the real path of a leaf in its taxonomy', async () => {
    await expect(resolveCategoryPath(t.db, 'property', ['cars', 'toyota'])).rejects.toThrow(NotFound);
    await expect(resolveCategoryPath(t.db, 'motors', ['toyota'])).rejects.toThrow(NotFound);
    const cars = await resolveCategoryPath(t.db, 'motors', ['cars']);
    await expect(
      createAd(t.db, { moderation: 'pre' }, await member(), cars, attributes, input()),
    ).rejects.toMatchObject({
      errors: { form: ['category-not-leaf'] },
    });
  });

  it('places a pending ad with typed values, history, revision and counters in one go', async () => {
    const owner = await member();
    const ad = await place(owner);
    expect(ad).toMatchObject({ status: 'pending', created: true, slug: 'toyota-corolla-2015' });
    const values = await t.db
      .selectFrom('ad_attribute_values as v')
      .innerJoin('attributes as a', 'a.id', 'v.attribute_id')
      .select(['a.key', 'v.value_number', 'v.value_option'])
      .where('v.ad_id', '=', ad.id)
      .orderBy('a.key')
      .execute();
    expect(values).toEqual([
      { key: 'model', value_number: null, value_option: 'corolla' },
      { key: 'year', value_number: 2015, value_option: null },
    ]);
    const history = await t.db
      .selectFrom('ad_status_history')
      .select(['from_status', 'to_status'])
      .where('ad_id', '=', ad.id)
      .execute();
    expect(history).toEqual([{ from_status: null, to_status: 'pending' }]);
    const revision = await t.db
      .selectFrom('revisions')
      .selectAll()
      .where('subject_id', '=', String(ad.id))
      .executeTakeFirstOrThrow();
    expect(revision).toMatchObject({ actor_id: owner.id, subject_type: 'ad', action: 'create', ip: '10.0.0.1' });
    const user = await t.db
      .selectFrom('users')
      .select('active_ads_count')
      .where('id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(toNumber(user.active_ads_count)).toBe(1);
    const job = await t.db.selectFrom('jobs').select('name').where('name', '=', 'recount-taxonomy').executeTakeFirst();
    expect(job).toBeDefined();
  });

  it('gives one ad for a double submit of the same form', async () => {
    const owner = await member();
    const first = await place(owner, { submission_key: 'same-form' });
    const second = await place(owner, { submission_key: 'same-form' });
    expect(second).toEqual({ ...first, created: false });
    const count = await t.db
      .selectFrom('ads')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(toNumber(count.n)).toBe(1);
  });

  it('refuses beyond the free allowance, with the number in the message', async () => {
    const owner = await member();
    for (let i = 0; i < AD_RULES.freeActiveAds; i++) await place(owner);
    await expect(place(owner)).rejects.toMatchObject({
      errors: { form: [`allowance-exceeded:${AD_RULES.freeActiveAds}`] },
    });
  });

  it("refuses an area of another city and someone else's photos", async () => {
    const owner = await member();
    await expect(place(owner, { area: otherCityArea })).rejects.toMatchObject({ errors: { area: ['in'] } });
    const stranger = await member();
    const photo = await t.db
      .insertInto('ad_images')
      .values({ user_id: stranger.id, key: 'ads/x/1', width: 10, height: 10, variants: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(place(owner, { photos: [photo.id] })).rejects.toMatchObject({ errors: { photos: ['invalid'] } });
    expect(await t.db.selectFrom('ads').select('id').where('user_id', '=', owner.id).execute()).toEqual([]);
  });

  it('attaches the member’s photos in the order given', async () => {
    const owner = await member();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const row = await t.db
        .insertInto('ad_images')
        .values({ user_id: owner.id, key: `ads/x/${owner.id}-${i}`, width: 10, height: 10, variants: '[]' })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const ad = await place(owner, { photos: [ids[2], ids[0]] as number[] });
    const attached = await t.db
      .selectFrom('ad_images')
      .select(['id', 'position'])
      .where('ad_id', '=', ad.id)
      .orderBy('position')
      .execute();
    expect(attached.map((p) => p.id)).toEqual([ids[2], ids[0]]);
  });

  it('approves (notifying the owner), counts the category and its parent, and lets only the owner mark it sold', async () => {
    const owner = await member();
    const staff = await member('moderator');
    const ad = await place(owner);
    expect(await moveAd(t.db, staff, ad.id, 'approve')).toBe('published');
    const note = await t.db
      .selectFrom('notifications')
      .select(['type', 'data'])
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(note.type).toBe('ad-approved');
    const taxonomy = await t.db
      .selectFrom('taxonomies')
      .select('id')
      .where('slug', '=', 'motors')
      .executeTakeFirstOrThrow();
    await recountTaxonomy(t.db, taxonomy.id);
    const counts = await t.db
      .selectFrom('categories')
      .select(['slug', 'ads_count'])
      .where('slug', 'in', ['cars', 'toyota'])
      .execute();
    expect(Object.fromEntries(counts.map((c) => [c.slug, toNumber(c.ads_count)]))).toMatchObject({
      cars: 1,
      toyota: 1,
    });

    const stranger = await member();
    await expect(moveAd(t.db, stranger, ad.id, 'mark-sold', { owner: stranger.id })).rejects.toThrow(NotFound);
    await expect(repostAd(t.db, stranger, ad.id)).rejects.toThrow(NotFound);
    expect(await moveAd(t.db, owner, ad.id, 'mark-sold', { owner: owner.id })).toBe('sold');
    await expect(moveAd(t.db, owner, ad.id, 'mark-sold', { owner: owner.id })).rejects.toThrow(Invalid);
  });

  it('rejects only with a reason, and tells the owner why', async () => {
    const owner = await member();
    const staff = await member('moderator');
    const ad = await place(owner);
    await expect(moveAd(t.db, staff, ad.id, 'reject')).rejects.toMatchObject({ errors: { reason: ['required'] } });
    await moveAd(t.db, staff, ad.id, 'reject', { reason: 'wrong-category' });
    const row = await t.db
      .selectFrom('ads')
      .select(['status', 'rejection_reason'])
      .where('id', '=', ad.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'rejected', rejection_reason: 'wrong-category' });
    const note = await t.db
      .selectFrom('notifications')
      .select('type')
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(note.type).toBe('ad-rejected');
  });

  it('bumps at most once per cool-down, renews expired ads, and expires and reminds on schedule', async () => {
    const owner = await member();
    const start = new Date('2026-12-01T10:00:00Z');
    const ad = await publishedAt(owner, start);
    expect(ad.status).toBe('published');
    await expect(repostAd(t.db, owner, ad.id, new Date(start.getTime() + DAY))).rejects.toMatchObject({
      errors: { form: ['repost-cooldown:6'] },
    });
    expect(await repostAd(t.db, owner, ad.id, new Date(start.getTime() + 7 * DAY))).toBe('bumped');

    // Expires 30 days after publishing; reminded 3 days before, once.
    expect(await remindExpiringAds(t.db, new Date(start.getTime() + 26 * DAY))).toBe(0);
    expect(await remindExpiringAds(t.db, new Date(start.getTime() + 28 * DAY))).toBeGreaterThanOrEqual(1);
    expect(await remindExpiringAds(t.db, new Date(start.getTime() + 29 * DAY))).toBe(0);
    await expireAds(t.db, new Date(start.getTime() + 31 * DAY));
    const expired = await t.db.selectFrom('ads').select('status').where('id', '=', ad.id).executeTakeFirstOrThrow();
    expect(expired.status).toBe('expired');
    const types = (await t.db.selectFrom('notifications').select('type').where('user_id', '=', owner.id).execute()).map(
      (x) => x.type,
    );
    expect(types.sort()).toEqual(['ad-expired', 'ad-expiring']);
    expect(await repostAd(t.db, owner, ad.id, new Date(start.getTime() + 32 * DAY))).toBe('renewed');
  });

  describe('editing', () => {
    const photo = async (owner: { id: string }, i: number) =>
      (
        await t.db
          .insertInto('ad_images')
          .values({ user_id: owner.id, key: `ads/e/${owner.id}-${i}`, width: 10, height: 10, variants: '[]' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const edit = (
      owner: { id: string },
      id: number,
      over: Partial<AdInput> = {},
      moderation: 'pre' | 'post' = 'pre',
    ) => {
      const { submission_key: _, ...rest } = input(over);
      return updateAd(t.db, { moderation }, owner, id, attributes, rest);
    };
    const revisionsOf = async (id: number) =>
      (
        await t.db
          .selectFrom('revisions')
          .select(['action', 'changes'])
          .where('subject_type', '=', 'ad')
          .where('subject_id', '=', String(id))
          .orderBy('id')
          .execute()
      ).map((r) => ({ action: r.action, changes: toJson<Record<string, unknown>>(r.changes, {}) }));

    it('keeps a published ad live for a change of details, recording only what changed', async () => {
      const owner = await member();
      const ad = await place(owner, {}, 'post');
      const same = await edit(owner, ad.id);
      expect(same).toMatchObject({ status: 'published', changed: [] });
      const result = await edit(owner, ad.id, { contact_whatsapp: true, attrs: { year: 2016, model: 'corolla' } });
      expect(result).toMatchObject({ status: 'published' });
      expect(result.changed.sort()).toEqual(['attrs', 'contact_whatsapp']);
      const revisions = await revisionsOf(ad.id);
      expect(revisions.map((r) => r.action)).toEqual(['create', 'edit']);
      expect(revisions[1]?.changes).toEqual({
        contact_whatsapp: [false, true],
        attrs: [
          { model: 'corolla', year: 2015 },
          { model: 'corolla', year: 2016 },
        ],
      });
      const year = await t.db
        .selectFrom('ad_attribute_values as v')
        .innerJoin('attributes as a', 'a.id', 'v.attribute_id')
        .select('v.value_number')
        .where('v.ad_id', '=', ad.id)
        .where('a.key', '=', 'year')
        .executeTakeFirstOrThrow();
      expect(toNumber(year.value_number)).toBe(2016);
    });

    it('resubmits a rejected ad for review, clearing the reason, within the allowance', async () => {
      const owner = await member();
      const staff = await member('moderator');
      const ad = await place(owner);
      await moveAd(t.db, staff, ad.id, 'reject', { reason: 'Photos missing' });
      for (let i = 1; i < AD_RULES.freeActiveAds; i++) await place(owner);
      await place(owner, { submission_key: 'last' });
      await expect(
        edit(owner, ad.id, { description: 'Now with a full description of the car.' }),
      ).rejects.toMatchObject({
        errors: { form: [`allowance-exceeded:${AD_RULES.freeActiveAds}`] },
      });
      const last = await t.db
        .selectFrom('ads')
        .select('id')
        .where('user_id', '=', owner.id)
        .where('submission_key', '=', 'last')
        .executeTakeFirstOrThrow();
      await moveAd(t.db, owner, last.id, 'delete', { owner: owner.id });
      const resubmitted = await edit(owner, ad.id, { description: 'Now with a full description of the car.' }, 'post');
      expect(resubmitted.status).toBe('pending');
      const row = await t.db
        .selectFrom('ads')
        .select(['status', 'rejection_reason'])
        .where('id', '=', ad.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'pending', rejection_reason: null });
    });

    it("reorders and drops photos, and refuses someone else's ad as if it did not exist", async () => {
      const owner = await member();
      const [a, b, c] = [await photo(owner, 1), await photo(owner, 2), await photo(owner, 3)] as [
        number,
        number,
        number,
      ];
      const ad = await place(owner, { photos: [a, b, c] }, 'post');
      await edit(owner, ad.id, { photos: [c, a] }, 'post');
      const rows = await t.db
        .selectFrom('ad_images')
        .select(['id', 'ad_id', 'position'])
        .where('id', 'in', [a, b, c])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: a, ad_id: ad.id, position: 1 },
        { id: b, ad_id: null, position: expect.any(Number) },
        { id: c, ad_id: ad.id, position: 0 },
      ]);
      const stranger = await member();
      await expect(edit(stranger, ad.id, { title: 'Mine now, thank you' })).rejects.toThrow(NotFound);
      const title = await t.db.selectFrom('ads').select('title').where('id', '=', ad.id).executeTakeFirstOrThrow();
      expect(title.title).toBe('Toyota Corolla 2015');
    });

    it('renews an expired ad only with room in the allowance', async () => {
      const owner = await member();
      const start = new Date('2026-12-01T10:00:00Z');
      const ad = await publishedAt(owner, start);
      await expireAds(t.db, new Date(start.getTime() + 31 * DAY));
      for (let i = 0; i < AD_RULES.freeActiveAds; i++) await place(owner);
      await expect(repostAd(t.db, owner, ad.id, new Date(start.getTime() + 32 * DAY))).rejects.toMatchObject({
        errors: { form: [`allowance-exceeded:${AD_RULES.freeActiveAds}`] },
      });
    });
  });
});
