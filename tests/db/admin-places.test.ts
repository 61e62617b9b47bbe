// The back office's cities and areas, jobs and settings (docs/product/back-office.md) on both
// dialects: a city or area with ads is never deleted, a merge moves its ads (and what names the
// place) in one transaction and search follows it without a restart; a dead job goes back to the
// queue; the settings take effect without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../app/lib/search-query.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson } from '../../server/db/values.ts';
import { listJobs, retryJob } from '../../server/domain/admin/jobs.ts';
import {
  createArea,
  createCity,
  deleteArea,
  deleteCity,
  listAdminAreas,
  listAdminCities,
  mergeArea,
  mergeCity,
  moveCity,
  updateCity,
} from '../../server/domain/admin/places.ts';
import { checkAllowance } from '../../server/domain/ads/rules.ts';
import { onCatalogueChange } from '../../server/domain/catalogue-changes.ts';
import { search, searchEngine } from '../../server/domain/search/service.ts';
import { readSettings, SETTINGS_TTL_MS, saveSettings, settingDefaults } from '../../server/domain/settings.ts';
import { enqueueJob } from '../../server/jobs/queue.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { placeSearchAd } from '../support/search-ads.ts';

const actor = { id: 'staff-1', ip: '10.0.0.1', userAgent: 'vitest' };
const q = (params: string) => parseSearchQuery(new URLSearchParams(params));

describe.each(dialects)('back office places, jobs and settings on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    await t.db
      .insertInto('users')
      .values({ id: 'staff-1', name: 'Staff', email: 'staff@example.ly', email_verified: true } as never)
      .execute();
  });
  afterAll(() => t.drop());

  const place = (slug: string, name: string, lat = 31, lng = 12) => ({
    slug,
    name_ar: `${name} عربي`,
    name_en: name,
    lat,
    lng,
  });
  const cityId = async (slug: string) =>
    (await t.db.selectFrom('cities').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
  const revisions = (type: string, id: number) =>
    t.db
      .selectFrom('revisions')
      .select(['action', 'changes'])
      .where('subject_type', '=', type)
      .where('subject_id', '=', String(id))
      .orderBy('id')
      .execute();

  it('adds, edits and orders cities, each with a revision', async () => {
    const a = await createCity(t.db, actor, place('zzz-one', 'Zedone'));
    const b = await createCity(t.db, actor, place('zzz-two', 'Zedtwo'));
    const page = await listAdminCities(t.db, { q: 'zed', sort: 'position', dir: 'asc', after: null, locale: 'en' });
    expect(page.rows.map((r) => r.slug)).toEqual(['zzz-one', 'zzz-two']);
    expect(await moveCity(t.db, actor, b, 'up')).toBe(true);
    const again = await listAdminCities(t.db, { q: 'zed', sort: 'position', dir: 'asc', after: null, locale: 'en' });
    expect(again.rows.map((r) => r.slug)).toEqual(['zzz-two', 'zzz-one']);
    await expect(createCity(t.db, actor, place('zzz-one', 'Again'))).rejects.toMatchObject({
      errors: { slug: ['slug-taken'] },
    });
    expect(await updateCity(t.db, actor, a, { ...place('zzz-one', 'Zedone'), lat: 30.5 })).toBe(true);
    expect(await updateCity(t.db, actor, a, { ...place('zzz-one', 'Zedone'), lat: 30.5 })).toBe(false);
    expect((await revisions('city', a)).map((r) => r.action)).toEqual(['create', 'update']);
    expect((await revisions('city', b)).map((r) => r.action)).toEqual(['create', 'move']);
    await deleteCity(t.db, actor, a);
    await deleteCity(t.db, actor, b);
    expect(await t.db.selectFrom('cities').select('id').where('slug', 'like', 'zzz-%').execute()).toEqual([]);
  });

  it('refuses to delete a city or an area that has ads, in any status', async () => {
    const city = await createCity(t.db, actor, place('kept-city', 'Keptville'));
    const area = await createArea(t.db, actor, city, place('kept-area', 'Keptarea'));
    await placeSearchAd(t, {
      title: 'دراجة للبيع',
      category: 'toyota',
      city: 'kept-city',
      area: 'kept-area',
      status: 'deleted',
    });
    await expect(deleteCity(t.db, actor, city)).rejects.toMatchObject({
      errors: { form: ['admin:places.errors.has-ads'] },
    });
    await expect(deleteArea(t.db, actor, city, area)).rejects.toMatchObject({
      errors: { form: ['admin:places.errors.has-ads'] },
    });
    expect(await t.db.selectFrom('cities').select('id').where('id', '=', city).executeTakeFirst()).toBeTruthy();
    expect((await listAdminAreas(t.db, city))[0]).toMatchObject({ slug: 'kept-area', ads: 1 });
  });

  it('merges a city into another: its ads, areas and saved searches move and search follows at once', async () => {
    const from = await createCity(t.db, actor, place('ghadamesia', 'Ghadamesia', 30.13, 9.5));
    const area = await createArea(t.db, actor, from, place('ghadamesia-centre', 'Oasiscentre', 30.13, 9.5));
    const into = await cityId('misrata');
    const ads = [
      await placeSearchAd(t, { title: 'سيارة تويوتا', category: 'toyota', city: 'ghadamesia' }),
      await placeSearchAd(t, {
        title: 'تويوتا ثانية',
        category: 'toyota',
        city: 'ghadamesia',
        area: 'ghadamesia-centre',
      }),
      await placeSearchAd(t, { title: 'تويوتا مسودة', category: 'toyota', city: 'ghadamesia', status: 'draft' }),
    ];
    const misrataBefore = (await search(t, q('city=misrata'))).total;
    // The engine is built before the merge: it must follow without a restart.
    expect((await search(t, q('city=ghadamesia'))).ids.sort()).toEqual(ads.slice(0, 2).sort());
    expect((await search(t, q('q=ghadamesia'))).total).toBe(2);
    await t.db
      .insertInto('saved_searches')
      .values({ user_id: 'staff-1', name: 'Oasis', query: 'city=ghadamesia&area=ghadamesia-centre&q=x' })
      .execute();
    const saved = await t.db
      .selectFrom('saved_searches')
      .select('id')
      .where('name', '=', 'Oasis')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('saved_search_index')
      .values({
        saved_search_id: saved.id,
        user_id: 'staff-1',
        scope_id: 0,
        city_id: from,
        area_id: area,
        price_min: null,
        price_max: null,
        currency: 'LYD',
        frequency: 'daily',
      })
      .execute();
    const heard: string[] = [];
    const stop = onCatalogueChange((c) => heard.push(c.kind));

    expect(await mergeCity(t.db, dialect, actor, from, into)).toBe(3);
    stop();
    expect(heard).toEqual(['places']);

    const rows = await t.db.selectFrom('ads').select(['id', 'city_id', 'area_id']).where('id', 'in', ads).execute();
    expect(rows.every((r) => r.city_id === into)).toBe(true);
    expect(await t.db.selectFrom('cities').select('id').where('id', '=', from).executeTakeFirst()).toBeUndefined();
    expect(await t.db.selectFrom('areas').select('city_id').where('id', '=', area).executeTakeFirstOrThrow()).toEqual({
      city_id: into,
    });
    // Search: the ads are Misrata's now, found by its name and no longer by the old one.
    const after = await search(t, q('city=misrata'));
    expect(after.total).toBe(misrataBefore + 2);
    expect(after.ids).toEqual(expect.arrayContaining(ads.slice(0, 2)));
    expect((await search(t, q('q=ghadamesia'))).total).toBe(0);
    expect((await search(t, q('q=misrata'))).ids).toEqual(expect.arrayContaining(ads.slice(0, 2)));
    expect((await search(t, q('city=misrata&area=ghadamesia-centre'))).ids).toEqual([ads[1]]);
    const facet = after.facets.cities.find((c) => c.slug === 'misrata');
    expect(facet?.count).toBe(misrataBefore + 2);
    // The saved search names the merged city, and its alert keys follow.
    expect(
      await t.db.selectFrom('saved_searches').select('query').where('id', '=', saved.id).executeTakeFirstOrThrow(),
    ).toEqual({ query: 'city=misrata&area=ghadamesia-centre&q=x' });
    expect(
      await t.db
        .selectFrom('saved_search_index')
        .select('city_id')
        .where('saved_search_id', '=', saved.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ city_id: into });
    expect((await revisions('city', from)).map((r) => r.action)).toEqual(['create', 'merge']);
    // And the moved area can now be deleted once it is empty, after its ads are merged away.
    const other = await createArea(t.db, actor, into, place('misrata-spare', 'Sparearea'));
    expect(await mergeArea(t.db, dialect, actor, into, area, other)).toBe(1);
    expect((await search(t, q('city=misrata&area=misrata-spare'))).ids).toEqual([ads[1]]);
    expect((await search(t, q('q=oasiscentre'))).total).toBe(0);
    await deleteArea(t.db, actor, into, other).catch((e) =>
      expect(e.errors.form).toEqual(['admin:places.errors.has-ads']),
    );
  });

  it('refuses a merge into itself or into a city that does not exist', async () => {
    const from = await createCity(t.db, actor, place('selfish', 'Selfish'));
    await expect(mergeCity(t.db, dialect, actor, from, from)).rejects.toMatchObject({
      errors: { into: ['merge-self'] },
    });
    await expect(mergeCity(t.db, dialect, actor, from, 999_999)).rejects.toMatchObject({ errors: { into: ['in'] } });
    expect(await t.db.selectFrom('cities').select('id').where('id', '=', from).executeTakeFirst()).toBeTruthy();
  });

  it('moves a city on the map without a restart (the index is built again with the new place)', async () => {
    const engine = searchEngine(t);
    const city = await createCity(t.db, actor, place('moved-city', 'Movedcity', 25, 15));
    const ad = await placeSearchAd(t, { title: 'شيء', category: 'toyota', city: 'moved-city' });
    await search(t, q(''));
    engine.forgetCatalogue();
    await updateCity(t.db, actor, city, { ...place('moved-city', 'Movedcity'), lat: 29, lng: 17 });
    // The first search after the change reads the catalogue, sees the city moved and rebuilds.
    let lat = 0;
    for (let i = 0; i < 50 && Math.abs(lat - 29) > 0.5; i++) {
      await search(t, q(''));
      const index = await engine.index();
      lat = index.lat[index.slot(ad)] ?? 0;
      if (Math.abs(lat - 29) > 0.5) await new Promise((r) => setTimeout(r, 100));
    }
    expect(Math.abs(lat - 29)).toBeLessThan(0.5);
  });

  it('retries a dead job: pending again, attempts from zero, with a revision', async () => {
    const id = (await enqueueJob(t.db, 'send-mail', { broken: true }, { uniqueKey: 'k-1' })) as number;
    await t.db
      .updateTable('jobs')
      .set({ status: 'dead', attempts: 5, last_error: 'Error: SMTP down', finished_at: Date.now() })
      .where('id', '=', id)
      .execute();
    const dead = await listJobs(t.db, { status: 'dead', q: 'smtp', after: null });
    expect(dead.rows.map((r) => r.id)).toContain(id);
    // Meanwhile another job took the unique key: the retry runs without it.
    await enqueueJob(t.db, 'send-mail', {}, { uniqueKey: 'k-1' });
    await retryJob(t.db, actor, id, 1_900_000_000_000);
    const row = await t.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 0, unique_key: null, last_error: 'Error: SMTP down' });
    expect(Number(row.run_at)).toBe(1_900_000_000_000);
    expect((await revisions('job', id)).map((r) => r.action)).toEqual(['retry']);
    await expect(retryJob(t.db, actor, id)).rejects.toMatchObject({ errors: { form: ['admin:jobs.errors.not-dead'] } });
    await expect(retryJob(t.db, actor, 999_999)).rejects.toThrow();
  });

  it('takes saved settings into account without a restart, and records a revision', async () => {
    expect(await readSettings(t.db)).toEqual(settingDefaults());
    await t.db
      .insertInto('users')
      .values({ id: 'seller-1', name: 'Seller', email: 'seller@example.ly', email_verified: true } as never)
      .execute();
    await checkAllowance(t.db, 'seller-1');
    const changed = await saveSettings(t.db, actor, {
      ...settingDefaults(),
      moderation: 'post',
      freeActiveAds: 0,
      lifetimeDays: 60,
    });
    expect(changed.sort()).toEqual(['freeActiveAds', 'lifetimeDays', 'moderation']);
    // This process sees it at once; a process that kept its copy sees it within SETTINGS_TTL_MS.
    expect(await readSettings(t.db)).toMatchObject({ moderation: 'post', freeActiveAds: 0, lifetimeDays: 60 });
    await expect(checkAllowance(t.db, 'seller-1')).rejects.toMatchObject({
      errors: { form: ['allowance-exceeded:0'] },
    });
    await t.db
      .updateTable('settings')
      .set({ value: JSON.stringify({ value: 9 }) })
      .where('key', '=', 'ad_lifetime_days')
      .execute();
    expect((await readSettings(t.db)).lifetimeDays).toBe(60);
    expect((await readSettings(t.db, Date.now() + SETTINGS_TTL_MS + 1)).lifetimeDays).toBe(9);
    const [revision] = await t.db
      .selectFrom('revisions')
      .select('changes')
      .where('subject_type', '=', 'settings')
      .execute();
    expect(toJson(revision?.changes, {})).toMatchObject({ lifetimeDays: [30, 60], moderation: ['pre', 'post'] });
    expect(await saveSettings(t.db, actor, await readSettings(t.db))).toEqual([]);
    await saveSettings(t.db, actor, settingDefaults());
  });
});
