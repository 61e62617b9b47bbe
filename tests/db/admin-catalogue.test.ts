// The catalogue editor's rules (docs/product/back-office.md, "Catalogue") on both dialects: create,
// rename (old slugs kept), move (ads' taxonomy follows, the figure confirmed), reorder, switch off
// (the ads leave search), attributes of every type, refusals, and what follows an edit (search by
// the new words at once with no text row written, saved searches' keys, sitemap paths).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../app/lib/search-query.ts';
import { attributeSchema } from '../../app/lib/validation/catalogue.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson } from '../../server/db/values.ts';
import * as admin from '../../server/domain/admin/catalogue.ts';
import { refreshSavedSearches, rewriteAdTermsJob } from '../../server/domain/admin/catalogue-effects.ts';
import { Invalid } from '../../server/domain/errors.ts';
import { saveSearch } from '../../server/domain/search/saved.ts';
import { resolveQuery, search, searchEngine } from '../../server/domain/search/service.ts';
import { categoryKey } from '../../server/domain/search/text-index.ts';
import { adPathPrefixes } from '../../server/domain/sitemap.ts';
import { insertMember } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { placeSearchAd } from '../support/search-ads.ts';

const q = (params: string) => parseSearchQuery(new URLSearchParams(params));

describe.each(dialects)('catalogue editor on %s', (dialect) => {
  let t: TestDatabase;
  let actor: { id: string };
  const categoryId = async (slug: string) =>
    (await t.db.selectFrom('categories').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
  const taxonomyId = async (slug: string) =>
    (await t.db.selectFrom('taxonomies').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
  const revisions = async (type: string, id: number) =>
    t.db
      .selectFrom('revisions')
      .select(['action', 'changes', 'actor_id'])
      .where('subject_type', '=', type)
      .where('subject_id', '=', String(id))
      .orderBy('id')
      .execute();
  const total = async (params: string) => {
    const engine = searchEngine(t);
    await engine.index();
    return (await search(t, resolveQuery(await engine.catalogue(), q(params)).query, { facets: false })).total;
  };

  /** Runs the `rewrite-ad-terms` jobs waiting (as the queue's worker would), oldest first. */
  const runTermJobs = async (budgetMs?: number) => {
    let runs = 0;
    for (; ; runs++) {
      const job = await t.db
        .selectFrom('jobs')
        .select(['id', 'payload'])
        .where('name', '=', 'rewrite-ad-terms')
        .where('status', '=', 'pending')
        .orderBy('id')
        .executeTakeFirst();
      if (!job) return runs;
      await t.db.updateTable('jobs').set({ status: 'done' }).where('id', '=', job.id).execute();
      await rewriteAdTermsJob(t.db, toJson(job.payload, {}) as never, budgetMs);
    }
  };

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    actor = await insertMember(t.db, { name: 'editor' });
  });
  afterAll(() => t.drop());

  it('creates a child at the top of a taxonomy and under a category, last among its siblings; a taken slug is refused', async () => {
    const motors = await taxonomyId('motors');
    const top = await admin.createCategory(
      t,
      actor,
      { taxonomyId: motors, parentId: null },
      { slug: 'boats-test', name_ar: 'قوارب', name_en: 'Boats', icon: 'sailboat' },
    );
    const siblings = await admin.listAdminChildren(t.db, motors, null);
    expect(siblings.at(-1)?.id).toBe(top.id);
    const child = await admin.createCategory(
      t,
      actor,
      { taxonomyId: motors, parentId: top.id },
      { slug: 'jet-skis-test', name_ar: 'دراجات مائية', name_en: 'Jet skis' },
    );
    const row = await t.db.selectFrom('categories').selectAll().where('id', '=', child.id).executeTakeFirstOrThrow();
    expect(row.depth).toBe(1);
    expect(row.parent_id).toBe(top.id);
    expect((await revisions('category', child.id)).map((r) => r.action)).toEqual(['create']);
    expect((await revisions('category', child.id))[0]?.actor_id).toBe(actor.id);

    const taken = await admin
      .createCategory(t, actor, { taxonomyId: motors, parentId: null }, { slug: 'cars', name_ar: 'س', name_en: 'C' })
      .catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(Invalid);
    expect((taken as Invalid).errors).toEqual({ slug: ['slug-taken'] });
  });

  it('renames: new names become the ads’ search words, a new slug keeps the old one as a redirect', async () => {
    const id = await categoryId('boats-test');
    const ad = await placeSearchAd(t, { title: 'Yamaha 250', category: 'jet-skis-test', city: 'tripoli' });
    expect(await total('q=vessels')).toBe(0);
    await admin.updateCategory(t, actor, id, {
      slug: 'vessels-test',
      name_ar: 'مراكب',
      name_en: 'Vessels',
      icon: 'sailboat',
    });
    // No ad's text row is written (it names the category by its id) and no job is left.
    const row = await t.db.selectFrom('ad_search').select('terms').where('ad_id', '=', ad).executeTakeFirstOrThrow();
    expect(row.terms).toContain(categoryKey(await categoryId('jet-skis-test')));
    expect(row.terms).not.toMatch(/boats|vessels/);
    expect(await runTermJobs()).toBe(0);
    // The search follows at once (the engine made its snapshot and text candidates again).
    expect(await total('q=vessels')).toBe(1);
    expect(await total('q=boats')).toBe(0);
    // The old slug leads to the category (the page answers 301 with it).
    expect(await admin.categoryForOldSlug(t.db, 'boats-test')).toEqual({ slug: 'vessels-test', taxonomy: 'motors' });
    const place = await admin.findAdminCategoryPlace(t.db, ['motors', 'boats-test', 'jet-skis-test']);
    expect(place.canonical).toEqual(['motors', 'vessels-test', 'jet-skis-test']);
    const old = await admin.findAdminCategoryPlace(t.db, ['motors', 'boats-test']);
    expect(old.canonical).toEqual(['motors', 'vessels-test']);
    const [rev] = (await revisions('category', id)).filter((r) => r.action === 'update');
    expect(toJson<Record<string, unknown>>(rev?.changes, {})).toEqual({
      slug: ['boats-test', 'vessels-test'],
      name_ar: ['قوارب', 'مراكب'],
      name_en: ['Boats', 'Vessels'],
    });
    // A new category may take the old slug: it is then no longer a redirect.
    const again = await admin.createCategory(
      t,
      actor,
      { taxonomyId: await taxonomyId('motors'), parentId: null },
      { slug: 'boats-test', name_ar: 'قوارب', name_en: 'Boats' },
    );
    expect(await admin.categoryForOldSlug(t.db, 'boats-test')).toBeNull();
    await admin.setCategoryActive(t, actor, again.id, false, null);
  });

  it('moves within a taxonomy: the figure is confirmed (and asked again when it changed), depths and words follow', async () => {
    const vessels = await categoryId('vessels-test');
    const cars = await categoryId('cars');
    const motors = await taxonomyId('motors');
    const first = await admin.moveCategory(t, actor, vessels, { taxonomyId: null, parentId: cars }, null);
    expect(first).toEqual({ done: false, impact: { ads: 1 } });
    // Nothing moved.
    expect(
      (await t.db.selectFrom('categories').select('parent_id').where('id', '=', vessels).executeTakeFirstOrThrow())
        .parent_id,
    ).toBeNull();
    // Another ad arrived meanwhile: the old figure is not enough.
    await placeSearchAd(t, { title: 'Sea-Doo', category: 'jet-skis-test', city: 'tripoli' });
    const stale = await admin.moveCategory(t, actor, vessels, { taxonomyId: null, parentId: cars }, 1);
    expect(stale).toEqual({ done: false, impact: { ads: 2 } });
    const done = await admin.moveCategory(t, actor, vessels, { taxonomyId: null, parentId: cars }, 2);
    expect(done.done).toBe(true);
    const rows = await t.db
      .selectFrom('categories')
      .select(['slug', 'parent_id', 'depth', 'taxonomy_id'])
      .where('slug', 'in', ['vessels-test', 'jet-skis-test'])
      .orderBy('depth')
      .execute();
    expect(rows).toEqual([
      { slug: 'vessels-test', parent_id: cars, depth: 1, taxonomy_id: motors },
      { slug: 'jet-skis-test', parent_id: vessels, depth: 2, taxonomy_id: motors },
    ]);
    // A search in cars finds them, and so does its name (their new ancestor's) with no job.
    expect(await runTermJobs()).toBe(0);
    expect(await total('category=cars&q=yamaha')).toBe(1);
    expect(await total('q=cars yamaha')).toBe(1);
    expect(await total('q=سيارات')).toBeGreaterThanOrEqual(2);
    // Into its own subtree: refused.
    const loop = await admin
      .moveCategory(t, actor, vessels, { taxonomyId: null, parentId: await categoryId('jet-skis-test') }, 2)
      .catch((e: unknown) => e);
    expect((loop as Invalid).errors).toEqual({ target: ['move-into-itself'] });
  });

  it('refuses a move that would give an ad the same attribute key twice', async () => {
    // Toyota has `model`; a category defining `model` above it would clash.
    const holder = await admin.createCategory(
      t,
      actor,
      { taxonomyId: await taxonomyId('motors'), parentId: null },
      { slug: 'model-holder', name_ar: 'حامل', name_en: 'Holder' },
    );
    await admin.createAttribute(
      t,
      actor,
      { kind: 'category', id: holder.id },
      attribute({ key: 'model', type: 'text' }),
    );
    const error = await admin
      .moveCategory(t, actor, await categoryId('toyota'), { taxonomyId: null, parentId: holder.id }, 0)
      .catch((e: unknown) => e);
    expect((error as Invalid).errors).toEqual({ target: ['key-clash:model'] });
  });

  it('moves to another taxonomy: ads take its taxonomy and URL prefix, counts are made again, saved searches follow', async () => {
    const member = await insertMember(t.db);
    const vessels = await categoryId('vessels-test');
    const property = await taxonomyId('property');
    const saved = await saveSearch(
      t.db,
      member.id,
      resolveQuery(await searchEngine(t).catalogue(), q('category=jet-skis-test')),
      'jet skis',
    );
    const before = await t.db
      .selectFrom('ads')
      .select(['id', 'updated_at'])
      .where('category_id', '=', await categoryId('jet-skis-test'))
      .execute();
    await new Promise((r) => setTimeout(r, 5));
    const out = await admin.moveCategory(t, actor, vessels, { taxonomyId: property, parentId: null }, 2);
    expect(out.done).toBe(true);
    // Found by the words of their new taxonomy at once ("property", no longer "motors"), no job.
    expect(await runTermJobs(0)).toBe(0);
    expect(await total('q=property yamaha')).toBe(1);
    expect(await total('q=عقارات')).toBeGreaterThanOrEqual(2);
    expect(await total('q=motors yamaha')).toBe(0);
    const after = await t.db
      .selectFrom('ads')
      .select(['id', 'taxonomy_id', 'updated_at'])
      .where('category_id', '=', await categoryId('jet-skis-test'))
      .execute();
    expect(after.map((a) => a.taxonomy_id)).toEqual(before.map(() => property));
    for (const a of after) {
      const was = before.find((b) => b.id === a.id)?.updated_at;
      expect(new Date(a.updated_at as string).getTime()).toBeGreaterThan(new Date(was as string).getTime());
    }
    const paths = await adPathPrefixes(t.db);
    expect(paths.categories.get(await categoryId('jet-skis-test'))).toBe('/property/jet-skis-test');
    const counted = await t.db
      .selectFrom('categories')
      .select('ads_count')
      .where('id', '=', vessels)
      .executeTakeFirstOrThrow();
    expect(Number(counted.ads_count)).toBe(2);
    expect(await total('taxonomy=property&q=yamaha')).toBe(1);
    expect(await total('taxonomy=motors&q=yamaha')).toBe(0);
    // The saved search's scope is still the category (ids do not move); its keys are derived again.
    await refreshSavedSearches(t.db);
    const key = await t.db
      .selectFrom('saved_search_index')
      .select('scope_id')
      .where('saved_search_id', '=', saved.id)
      .executeTakeFirstOrThrow();
    expect(key.scope_id).toBe(await categoryId('jet-skis-test'));
  });

  it('rewrites a saved search that names a category by its old slug', async () => {
    const member = await insertMember(t.db);
    const jet = await categoryId('jet-skis-test');
    const saved = await saveSearch(
      t.db,
      member.id,
      resolveQuery(await searchEngine(t).catalogue(), q('category=jet-skis-test')),
      'jets',
    );
    await admin.updateCategory(t, actor, jet, { slug: 'water-scooters', name_ar: 'دراجات مائية', name_en: 'Jet skis' });
    // Before the job: the index still has the category (by id); the query has the old slug.
    expect(
      (await t.db.selectFrom('saved_searches').select('query').where('id', '=', saved.id).executeTakeFirstOrThrow())
        .query,
    ).toBe('category=jet-skis-test');
    expect(await refreshSavedSearches(t.db)).toBeGreaterThanOrEqual(1);
    expect(
      (await t.db.selectFrom('saved_searches').select('query').where('id', '=', saved.id).executeTakeFirstOrThrow())
        .query,
    ).toBe('category=water-scooters');
    const jobs = await t.db.selectFrom('jobs').select('name').where('name', '=', 'refresh-saved-searches').execute();
    expect(jobs.length).toBeGreaterThan(0);
  });

  it('reorders by one step and by a whole list; a list that is not the current children is refused', async () => {
    const property = await taxonomyId('property');
    const before = (await admin.listAdminChildren(t.db, property, null)).map((c) => c.id);
    expect(before.length).toBeGreaterThan(2);
    const second = before[1] as number;
    await admin.stepCategory(t, actor, second, 'up');
    const stepped = (await admin.listAdminChildren(t.db, property, null)).map((c) => c.id);
    expect(stepped.slice(0, 2)).toEqual([second, before[0]]);
    // Down from the last place: nothing.
    await admin.stepCategory(t, actor, stepped.at(-1) as number, 'down');
    expect((await admin.listAdminChildren(t.db, property, null)).map((c) => c.id)).toEqual(stepped);

    const reversed = [...stepped].reverse();
    await admin.orderChildren(t, actor, { taxonomyId: property, parentId: null }, reversed);
    expect((await admin.listAdminChildren(t.db, property, null)).map((c) => c.id)).toEqual(reversed);
    const stale = await admin
      .orderChildren(t, actor, { taxonomyId: property, parentId: null }, reversed.slice(1))
      .catch((e: unknown) => e);
    expect((stale as Invalid).errors).toEqual({ form: ['order-stale'] });
    expect((await revisions('taxonomy', property)).map((r) => r.action)).toContain('reorder-children');
  });

  it('switches a category off only with the figure of its published ads confirmed: they leave search, and come back', async () => {
    const apartments = await categoryId('apartments-for-sale');
    await placeSearchAd(t, { title: 'شقة للبيع في حي الأندلس', category: 'apartments-for-sale', city: 'tripoli' });
    await placeSearchAd(t, {
      title: 'شقة مسودة',
      category: 'apartments-for-sale',
      city: 'tripoli',
      status: 'pending',
    });
    expect(await total('q=الأندلس')).toBe(1);
    const impact = await admin.deactivationImpact(t.db, apartments);
    expect(impact).toEqual({ ads: 1 });
    expect(await admin.setCategoryActive(t, actor, apartments, false, null)).toEqual({
      done: false,
      impact: { ads: 1 },
    });
    expect(await admin.setCategoryActive(t, actor, apartments, false, 1)).toEqual({ done: true, value: undefined });
    expect(await total('q=الأندلس')).toBe(0);
    expect((await adPathPrefixes(t.db)).categories.has(apartments)).toBe(false);
    await admin.setCategoryActive(t, actor, apartments, true, null);
    expect(await total('q=الأندلس')).toBe(1);
    expect((await revisions('category', apartments)).map((r) => r.action)).toEqual(['deactivate', 'activate']);
  });

  it('an edit made by another process reaches this one’s search once its catalogue snapshot is read again', async () => {
    await placeSearchAd(t, { title: 'فيلا بمسبح في قرقارش', category: 'villas-for-sale', city: 'tripoli' });
    expect(await total('q=قرقارش')).toBe(1);
    // Written behind this process's back, as another process's editor would.
    await t.db.updateTable('categories').set({ active: false }).where('slug', '=', 'villas-for-sale').execute();
    const engine = searchEngine(t);
    // What the snapshot's time to live does: the next read is a fresh one.
    engine.forgetCatalogue();
    await engine.catalogue();
    await expect.poll(() => total('q=قرقارش'), { timeout: 10_000 }).toBe(0);
    await t.db.updateTable('categories').set({ active: true }).where('slug', '=', 'villas-for-sale').execute();
    engine.forgetCatalogue();
    await engine.catalogue();
    await expect.poll(() => total('q=قرقارش'), { timeout: 10_000 }).toBe(1);
  });

  it('saves an attribute of every type with only the fields its type has', async () => {
    const holder = await categoryId('model-holder');
    const owner = { kind: 'category', id: holder } as const;
    const cases = {
      text: { key: 'colour_text', type: 'text' },
      number: { key: 'engine_cc', type: 'number', unit_ar: 'سم³', unit_en: 'cc', min: 50, max: 8000 },
      select: { key: 'hull', type: 'select', options: [opt('wood'), opt('fibre')] },
      multiselect: { key: 'extras', type: 'multiselect', options: [opt('gps'), opt('radar'), opt('sonar')] },
      boolean: { key: 'licensed', type: 'boolean', unit_ar: 'x', unit_en: 'x', min: 1 },
      year: { key: 'built', type: 'year', min: 1950, max: 2030, unit_ar: 'x', unit_en: 'x' },
      date: { key: 'inspected', type: 'date', options: [opt('ignored')] },
    } as const;
    for (const [type, fields] of Object.entries(cases)) {
      const id = await admin.createAttribute(t, actor, owner, attribute(fields as Partial<admin.AttributeFields>));
      const row = await t.db.selectFrom('attributes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.type, type).toBe(type);
      expect(toJson(row.options, null), type).toEqual(
        type === 'select' || type === 'multiselect' ? (fields as { options: unknown }).options : null,
      );
      expect(row.unit_en, type).toBe(type === 'number' ? 'cc' : null);
      expect(row.min === null ? null : Number(row.min), type).toBe(
        type === 'number' ? 50 : type === 'year' ? 1950 : null,
      );
    }
    const list = await admin.listOwnAttributes(t.db, owner);
    expect(list.map((a) => a.key)).toEqual(['model', ...Object.values(cases).map((c) => c.key)]);
    // A key any ad of the chain already carries is refused: `year` comes from Cars, a child of Motors.
    const taken = await admin
      .createAttribute(t, actor, { kind: 'taxonomy', id: await taxonomyId('motors') }, attribute({ key: 'year' }))
      .catch((e: unknown) => e);
    expect((taken as Invalid).errors).toEqual({ key: ['key-taken'] });
    // And one step of the form order.
    const hull = list.find((a) => a.key === 'hull') as admin.AdminAttribute;
    await admin.stepAttribute(t, actor, owner, hull.id, 'up');
    expect((await admin.listOwnAttributes(t.db, owner)).map((a) => a.key).indexOf('hull')).toBe(2);
  });

  it('removing an option in use or making an attribute required states the figure and needs it confirmed', async () => {
    const holder = await categoryId('model-holder');
    const owner = { kind: 'category', id: holder } as const;
    const hull = (await admin.listOwnAttributes(t.db, owner)).find((a) => a.key === 'hull') as admin.AdminAttribute;
    const child = await admin.createCategory(
      t,
      actor,
      { taxonomyId: await taxonomyId('motors'), parentId: holder },
      { slug: 'dinghies', name_ar: 'زوارق', name_en: 'Dinghies' },
    );
    expect(child.parent_id).toBe(holder);
    const withWood = await placeSearchAd(t, { title: 'Wooden dinghy', category: 'dinghies', city: 'tripoli' });
    const noHull = await placeSearchAd(t, { title: 'Rubber dinghy', category: 'dinghies', city: 'tripoli' });
    await t.db
      .insertInto('ad_attribute_values')
      .values({ ad_id: withWood, attribute_id: hull.id, value_option: 'wood' })
      .execute();
    expect((await admin.listOwnAttributes(t.db, owner)).find((a) => a.id === hull.id)?.option_ads).toEqual({ wood: 1 });

    const fields = { ...attribute({ key: 'hull', type: 'select', options: [opt('fibre'), opt('steel')] }) };
    const asked = await admin.updateAttribute(t, actor, owner, hull.id, { ...fields, required: true }, null);
    expect(asked).toEqual({
      done: false,
      impact: { ads: 2, options: [{ value: 'wood', ar: 'wood ع', en: 'wood', ads: 1 }], missing: 1 },
    });
    expect(
      toJson(
        (await t.db.selectFrom('attributes').select('options').where('id', '=', hull.id).executeTakeFirstOrThrow())
          .options,
        [],
      ),
    ).toHaveLength(2);
    const wrong = await admin.updateAttribute(t, actor, owner, hull.id, { ...fields, required: true }, 1);
    expect(wrong.done).toBe(false);
    const done = await admin.updateAttribute(t, actor, owner, hull.id, { ...fields, required: true }, 2);
    expect(done.done).toBe(true);
    const row = await t.db.selectFrom('attributes').selectAll().where('id', '=', hull.id).executeTakeFirstOrThrow();
    expect(toJson<{ value: string }[]>(row.options, []).map((o) => o.value)).toEqual(['fibre', 'steel']);
    expect(Boolean(row.required)).toBe(true);
    // The removed option's value left the ad.
    const values = await t.db
      .selectFrom('ad_attribute_values')
      .select('ad_id')
      .where('attribute_id', '=', hull.id)
      .execute();
    expect(values).toEqual([]);
    expect(noHull).toBeGreaterThan(withWood);
    // Without anything hurt, no question.
    expect(
      (await admin.updateAttribute(t, actor, owner, hull.id, { ...fields, name_en: 'Hull type', required: true }, null))
        .done,
    ).toBe(true);
  });

  it('deleting an attribute with values asks with their figure', async () => {
    const holder = await categoryId('model-holder');
    const owner = { kind: 'category', id: holder } as const;
    const cc = (await admin.listOwnAttributes(t.db, owner)).find((a) => a.key === 'engine_cc') as admin.AdminAttribute;
    const ad = await placeSearchAd(t, { title: 'Outboard', category: 'dinghies', city: 'tripoli' });
    await t.db.insertInto('ad_attribute_values').values({ ad_id: ad, attribute_id: cc.id, value_number: 40 }).execute();
    expect(await admin.deleteAttribute(t, actor, owner, cc.id, null)).toEqual({ done: false, impact: { ads: 1 } });
    expect(await admin.deleteAttribute(t, actor, owner, cc.id, 1)).toEqual({ done: true, value: undefined });
    expect(await t.db.selectFrom('attributes').select('id').where('id', '=', cc.id).executeTakeFirst()).toBeUndefined();
    expect((await revisions('attribute', cc.id)).map((r) => r.action)).toContain('delete');
  });

  it('the form schema refuses bad input and keeps only what a type has', () => {
    const bad = attributeSchema.safeParse({ key: 'Bad Key', type: 'select', name_ar: 'x', name_en: 'x' });
    expect(bad.success).toBe(false);
    const issues = bad.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toContainEqual(['key', 'attribute-key']);
    const none = attributeSchema.safeParse({ key: 'k', type: 'multiselect', name_ar: 'x', name_en: 'x' });
    expect(none.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['options', 'option-needed']]);
    const twice = attributeSchema.safeParse({
      key: 'k',
      type: 'select',
      name_ar: 'x',
      name_en: 'x',
      options: [
        { value: 'a', ar: 'أ', en: 'A' },
        { value: 'a', ar: 'ب', en: 'B' },
        { value: '', ar: '', en: '' },
      ],
    });
    expect(twice.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['options.1.value', 'option-twice'],
    ]);
    const number = attributeSchema.parse({
      key: 'k',
      type: 'number',
      name_ar: 'x',
      name_en: 'x',
      unit_en: 'km',
      min: '٥',
      max: '10',
      required: 'on',
      options: [{ value: 'a', ar: 'أ', en: 'A' }],
    });
    expect(number).toMatchObject({ options: [], unit_en: 'km', min: 5, max: 10, required: true, filterable: false });
    expect(
      attributeSchema.safeParse({ key: 'k', type: 'year', name_ar: 'x', name_en: 'x', min: '9', max: '1' }).success,
    ).toBe(false);
  });
});

function opt(value: string) {
  return { value, ar: `${value} ع`, en: value };
}

function attribute(over: Partial<admin.AttributeFields>): admin.AttributeFields {
  return {
    key: 'k',
    type: 'text',
    name_ar: 'اسم',
    name_en: 'Name',
    options: [],
    unit_ar: null,
    unit_en: null,
    required: false,
    filterable: false,
    shown_on_card: false,
    min: null,
    max: null,
    ...over,
  };
}
