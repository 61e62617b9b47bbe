// A category moved or renamed, and a city or area renamed or merged, on both dialects, with hundreds
// of ads below it (docs/product/back-office.md, "Catalogue" and "Cities"): right after the edit,
// text search by the new names finds every published ad it moved and the old names find none,
// while no row of the text index is written (it names an ad's category and place by id:
// server/domain/search/text-index.ts; a query reads the names from the catalogue:
// server/domain/search/catalogue-keys.ts). Merges chain: a city merged into one that is merged in
// turn is found by the last one's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../app/lib/search-query.ts';
import { seedBulkAds } from '../../server/db/seed/ads.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import * as catalogue from '../../server/domain/admin/catalogue.ts';
import { rewriteAdTerms } from '../../server/domain/admin/catalogue-effects.ts';
import {
  createArea,
  createCity,
  mergeArea,
  mergeCity,
  updateArea,
  updateCity,
} from '../../server/domain/admin/places.ts';
import { search } from '../../server/domain/search/service.ts';
import { areaKey, cityKey, indexAdText } from '../../server/domain/search/text-index.ts';
import { insertMember } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const q = (params: string) => parseSearchQuery(new URLSearchParams(params));
/** Ads filed in the category or place under test (the search's page is large enough for them all). */
const FILED = 400;

describe.each(dialects)('bulk moves and merges on %s', (dialect) => {
  let t: TestDatabase;
  let actor: { id: string };
  /** Every ad's text row, to show an edit wrote none of them. */
  const textRows = async () =>
    (await t.db.selectFrom('ad_search').select(['ad_id', 'title', 'body', 'terms', 'stems']).orderBy('ad_id').execute())
      .map((r) => JSON.stringify(r))
      .join('\n');
  /** The published ads among these. */
  const published = async (ids: number[]) =>
    (await t.db.selectFrom('ads').select('id').where('id', 'in', ids).where('status', '=', 'published').execute())
      .map((r) => r.id)
      .sort((a, b) => a - b);
  /** Every ad a text query finds (all pages), sorted. */
  const found = async (text: string) => {
    const r = await search(t, q(`q=${encodeURIComponent(text)}`), { pageSize: 5000, facets: false });
    expect(r.exact).toBe(true);
    return [...r.ids].sort((a, b) => a - b);
  };
  /** Files these ads under a category or in a place, text rows included (as placing them there would). */
  const file = async (ids: number[], set: Record<string, number | null>) => {
    await t.db
      .updateTable('ads')
      .set({ ...set, updated_at: new Date() })
      .where('id', 'in', ids)
      .execute();
    await rewriteAdTerms(t.db, { adIds: ids });
  };

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    await seedBulkAds(t, { count: 3 * FILED + 300, chunk: 500, now: new Date(), worker: false });
    actor = await insertMember(t.db, { name: 'staff' });
  });
  afterAll(() => t.drop());

  it('finds a moved and renamed category’s ads by its new words at once, by the old ones never', async () => {
    const motors = (
      await t.db.selectFrom('taxonomies').select('id').where('slug', '=', 'motors').executeTakeFirstOrThrow()
    ).id;
    const property = (
      await t.db.selectFrom('taxonomies').select('id').where('slug', '=', 'property').executeTakeFirstOrThrow()
    ).id;
    // Words no ad's own text has: the category, its parent before the move and after it.
    const wombat = await catalogue.createCategory(
      t,
      actor,
      { taxonomyId: motors, parentId: null },
      { slug: 'wombat-parent', name_ar: 'ومبات', name_en: 'Wombatparent' },
    );
    const xylo = await catalogue.createCategory(
      t,
      actor,
      { taxonomyId: property, parentId: null },
      { slug: 'xylo-parent', name_ar: 'زايلو', name_en: 'Xyloparent' },
    );
    const zorba = await catalogue.createCategory(
      t,
      actor,
      { taxonomyId: motors, parentId: wombat.id },
      { slug: 'zorba-craft', name_ar: 'زوربا', name_en: 'Zorbacraft' },
    );
    const ids = (await t.db.selectFrom('ads').select('id').orderBy('id').limit(FILED).execute()).map((r) => r.id);
    await file(ids, { category_id: zorba.id, taxonomy_id: motors });
    const live = await published(ids);
    expect(live.length).toBeGreaterThan(100);
    expect(await found('zorbacraft')).toEqual(live);
    expect(await found('wombatparent')).toEqual(live);
    expect(await found('xyloparent')).toEqual([]);

    const before = await textRows();
    const impact = await catalogue.moveImpact(t.db, zorba.id);
    // (Deleted ads are not in the figure.)
    expect(impact.ads).toBeGreaterThan(live.length);
    const moved = await catalogue.moveCategory(t, actor, zorba.id, { taxonomyId: null, parentId: xylo.id }, impact.ads);
    expect(moved.done).toBe(true);
    expect(await textRows()).toBe(before);
    expect(await t.db.selectFrom('jobs').select('id').where('name', '=', 'rewrite-ad-terms').execute()).toEqual([]);
    // The new parent's and taxonomy's words (both languages) find every one of them; the old
    // parent's none.
    expect(await found('xyloparent')).toEqual(live);
    expect(await found('زايلو')).toEqual(live);
    expect(await found('zorbacraft property')).toEqual(live);
    expect(await found('زوربا عقارات')).toEqual(live);
    expect(await found('wombatparent')).toEqual([]);
    expect(await found('ومبات')).toEqual([]);
    expect(
      await t.db.selectFrom('ads').select('taxonomy_id').where('id', 'in', ids).groupBy('taxonomy_id').execute(),
    ).toEqual([{ taxonomy_id: property }]);

    await catalogue.updateCategory(t, actor, zorba.id, {
      slug: 'quokka-craft',
      name_ar: 'كوكا',
      name_en: 'Quokkacraft',
    });
    expect(await textRows()).toBe(before);
    expect(await found('quokkacraft')).toEqual(live);
    expect(await found('كوكا')).toEqual(live);
    expect(await found('zorbacraft')).toEqual([]);
    expect(await found('زوربا')).toEqual([]);
  });

  it('finds a merged city’s ads by the name of the city it went into, through merges in turn', async () => {
    const place = (slug: string, en: string, ar: string) => ({ slug, name_en: en, name_ar: ar, lat: 31, lng: 13 });
    const oldtown = await createCity(t.db, actor, place('bulk-oldtown', 'Oldtownia', 'مدينةقديمة'));
    const into = await createCity(t.db, actor, place('bulk-into', 'Intovillia', 'مدينةثانية'));
    const last = await createCity(t.db, actor, place('bulk-last', 'Lastburgia', 'مدينةاخيرة'));
    const area = await createArea(t.db, actor, oldtown, place('bulk-old-area', 'Quarteria', 'حيقديم'));
    const ids = (await t.db.selectFrom('ads').select('id').orderBy('id', 'desc').limit(FILED).execute()).map(
      (r) => r.id,
    );
    await file(ids, { city_id: oldtown, area_id: null });
    await file(ids.slice(0, 50), { city_id: oldtown, area_id: area });
    const live = await published(ids);
    const inArea = await published(ids.slice(0, 50));
    expect(await found('oldtownia')).toEqual(live);
    expect(await found('quarteria')).toEqual(inArea);
    expect(await found('intovillia')).toEqual([]);

    const before = await textRows();
    expect(await mergeCity(t.db, dialect, actor, oldtown, into)).toBe(FILED);
    expect(await textRows()).toBe(before);
    expect(await found('intovillia')).toEqual(live);
    expect(await found('مدينةثانية')).toEqual(live);
    expect(await found('oldtownia')).toEqual([]);
    expect(await found('مدينةقديمة')).toEqual([]);
    // Its area came along, found by its own name and by the city's.
    expect(await found('quarteria intovillia')).toEqual(inArea);
    expect((await search(t, q('city=bulk-into'), { pageSize: 5000 })).total).toBe(live.length);

    // Merged again: the keys of both cities now mean the last one.
    expect(await mergeCity(t.db, dialect, actor, into, last)).toBe(FILED);
    expect(await textRows()).toBe(before);
    expect(await found('lastburgia')).toEqual(live);
    expect(await found('intovillia')).toEqual([]);
    expect(await found('oldtownia')).toEqual([]);
    expect(
      (await t.db.selectFrom('merged_cities').select(['id', 'city_id']).orderBy('id').execute()).map((r) => [
        r.id,
        r.city_id,
      ]),
    ).toEqual([
      [oldtown, last],
      [into, last],
    ]);

    // Renamed: the new name finds them, the old none, no row written.
    await updateCity(t.db, actor, last, place('bulk-last', 'Finalopolis', 'مدينةنهائية'));
    expect(await textRows()).toBe(before);
    expect(await found('finalopolis')).toEqual(live);
    expect(await found('lastburgia')).toEqual([]);

    // An ad written again takes the keys of where it is now, and is found the same.
    const [first] = ids;
    const ad = await t.db
      .selectFrom('ads')
      .select(['id', 'title', 'description'])
      .where('id', '=', first as number)
      .executeTakeFirstOrThrow();
    await indexAdText(t.db, ad.id, ad.title, ad.description);
    const terms = (
      await t.db.selectFrom('ad_search').select('terms').where('ad_id', '=', ad.id).executeTakeFirstOrThrow()
    ).terms;
    expect(terms.split(' ')).toEqual(expect.arrayContaining([cityKey(last), areaKey(area)]));
    expect(await found('finalopolis')).toEqual(live);

    // An area merged into another of the same city, then renamed.
    const other = await createArea(t.db, actor, last, place('bulk-other-area', 'Districtia', 'حيثاني'));
    expect(await mergeArea(t.db, dialect, actor, last, area, other)).toBe(50);
    expect(await found('districtia')).toEqual(inArea);
    expect(await found('quarteria')).toEqual([]);
    await updateArea(t.db, actor, last, other, place('bulk-other-area', 'Wardia', 'حيجديد'));
    expect(await found('wardia finalopolis')).toEqual(inArea);
    expect(await found('districtia')).toEqual([]);
  });
});
