// Data-layer suite: runs on SQLite always and on PostgreSQL when TEST_DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taxonomies as seedTaxonomies } from '../../server/db/seed/data/catalog.ts';
import { cities as seedCities } from '../../server/db/seed/data/cities.ts';
import { isDatabaseEmpty, seedCatalogue } from '../../server/db/seed/index.ts';
import * as catalog from '../../server/domain/catalog.ts';
import { Invalid, NotFound } from '../../server/domain/errors.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('catalogue on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    expect(await isDatabaseEmpty(t.db)).toBe(true);
    await seedCatalogue(t.db);
  });
  afterAll(() => t.drop());

  it('seeds every taxonomy in order with category counts', async () => {
    const list = await catalog.listTaxonomies(t.db);
    expect(list.map((x) => x.slug)).toEqual(seedTaxonomies.map((x) => x.slug));
    expect(list.length).toBeGreaterThanOrEqual(8);
    for (const x of list) {
      expect(x.categories_count).toBeGreaterThan(0);
      expect(x.name_ar).toMatch(/[\u0600-\u06ff]/);
      expect(typeof x.categories_count).toBe('number');
    }
  });

  it("refuses a taxonomy whose slug is one of the site's own first path segments, or malformed", async () => {
    const before = (await catalog.listTaxonomies(t.db)).length;
    const named = { name_ar: 'إدارة', name_en: 'Admin', icon: null, position: 99 };
    for (const [slug, key] of [
      ['admin', 'validation.reserved-slug'],
      ['place-your-ad', 'validation.reserved-slug'],
      ['en', 'validation.reserved-slug'],
      ['uploads', 'validation.reserved-slug'],
      ['Motors', 'validation.slug'],
      ['a--b', 'validation.slug'],
    ] as const) {
      const error = await catalog.createTaxonomy(t.db, { ...named, slug }).catch((e: unknown) => e);
      expect(error, slug).toBeInstanceOf(Invalid);
      expect((error as Invalid).errors, slug).toEqual({ slug: [key] });
    }
    expect((await catalog.listTaxonomies(t.db)).length).toBe(before);
    // The seeded catalogue went through the same rule.
    for (const x of seedTaxonomies) expect(() => catalog.assertTaxonomySlug(x.slug), x.slug).not.toThrow();

    const id = await catalog.createTaxonomy(t.db, { ...named, slug: 'gardening', name_en: 'Gardening' });
    expect((await catalog.getTaxonomy(t.db, 'gardening')).id).toBe(id);
    await t.db.deleteFrom('taxonomies').where('id', '=', id).execute();
  });

  it('lists each taxonomy with its active top-level categories, in two queries', async () => {
    let queries = 0;
    const counted = t.db.withPlugin({
      transformQuery: ({ node }) => {
        queries++;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const list = await catalog.listTaxonomiesWithCategories(counted);
    expect(queries).toBeLessThanOrEqual(2);
    const plain = await catalog.listTaxonomies(t.db);
    expect(list.map(({ categories: _, ...rest }) => rest)).toEqual(plain);
    for (const taxonomy of list) {
      expect(taxonomy.categories.length, taxonomy.slug).toBeGreaterThan(0);
      expect(taxonomy.categories).toEqual(await catalog.listChildren(t.db, taxonomy.id, null));
    }
    const motors = list.find((x) => x.slug === 'motors');
    expect(motors?.categories.find((c) => c.slug === 'cars')?.children_count).toBeGreaterThan(3);

    // An inactive category is left out; an inactive taxonomy with all its categories.
    await t.db.updateTable('categories').set({ active: false }).where('slug', '=', 'cars').execute();
    await t.db.updateTable('taxonomies').set({ active: false }).where('slug', '=', 'jobs').execute();
    try {
      const after = await catalog.listTaxonomiesWithCategories(t.db);
      expect(after.find((x) => x.slug === 'motors')?.categories.map((c) => c.slug)).not.toContain('cars');
      expect(after.map((x) => x.slug)).not.toContain('jobs');
      expect(after.length).toBe(list.length - 1);
    } finally {
      await t.db.updateTable('categories').set({ active: true }).where('slug', '=', 'cars').execute();
      await t.db.updateTable('taxonomies').set({ active: true }).where('slug', '=', 'jobs').execute();
    }
  });

  it('is idempotent: a second seed adds nothing', async () => {
    const report = await seedCatalogue(t.db);
    expect(report).toEqual({ taxonomies: 0, categories: 0, attributes: 0, cities: 0, areas: 0 });
  });

  it('walks the tree: motors › cars › toyota', async () => {
    const motors = await catalog.getTaxonomy(t.db, 'motors');
    const top = await catalog.listChildren(t.db, motors.id, null);
    const cars = top.find((c) => c.slug === 'cars');
    expect(cars).toBeDefined();
    expect(cars?.children_count).toBeGreaterThan(3);
    const makes = await catalog.listChildren(t.db, motors.id, cars?.id ?? 0);
    expect(makes.map((m) => m.slug)).toContain('toyota');
    const path = await catalog.getCategoryPath(t.db, 'toyota');
    expect(path.taxonomy.slug).toBe('motors');
    expect(path.trail.map((c) => c.slug)).toEqual(['cars', 'toyota']);
    expect(path.trail[1].depth).toBe(1);
  });

  it('lists inherited attributes: taxonomy, ancestors, then own, each in position order', async () => {
    const attrs = await catalog.listCategoryAttributes(t.db, 'toyota');
    const keys = attrs.map((a) => a.key);
    expect(keys).toEqual(expect.arrayContaining(['year', 'mileage', 'transmission', 'fuel', 'model']));
    const owners = attrs.map((a) => (a.owner.type === 'taxonomy' ? 0 : a.owner.slug === 'cars' ? 1 : 2));
    expect([...owners].sort((a, b) => a - b)).toEqual(owners);
    const model = attrs.find((a) => a.key === 'model');
    expect(model?.type).toBe('select');
    expect(model?.options.length).toBeGreaterThan(3);
    expect(model?.options[0]).toMatchObject({
      value: expect.any(String),
      ar: expect.any(String),
      en: expect.any(String),
    });
    const year = attrs.find((a) => a.key === 'year');
    expect(year?.filterable).toBe(true);
    expect(typeof year?.required).toBe('boolean');
  });

  it('answers NotFound for unknown or inactive slugs', async () => {
    await expect(catalog.getCategory(t.db, 'no-such-category')).rejects.toBeInstanceOf(NotFound);
    await expect(catalog.getTaxonomy(t.db, 'no-such-taxonomy')).rejects.toBeInstanceOf(NotFound);
    await t.db.updateTable('categories').set({ active: false }).where('slug', '=', 'toyota').execute();
    await expect(catalog.getCategory(t.db, 'toyota')).rejects.toBeInstanceOf(NotFound);
    await t.db.updateTable('categories').set({ active: true }).where('slug', '=', 'toyota').execute();
  });

  it('lists cities in order with their areas and real coordinates', async () => {
    const cities = await catalog.listCities(t.db);
    expect(cities.map((c) => c.slug)).toEqual(seedCities.map((c) => c.slug));
    const tripoli = cities[0];
    expect(tripoli.name_ar).toBe('طرابلس');
    expect(tripoli.lat).toBeCloseTo(32.89, 1);
    expect(tripoli.lng).toBeCloseTo(13.19, 1);
    expect(tripoli.areas.length).toBeGreaterThanOrEqual(15);
    const benghazi = cities.find((c) => c.name_en === 'Benghazi');
    expect(benghazi?.areas.length).toBeGreaterThanOrEqual(12);
    for (const c of cities) {
      expect(c.lat).toBeGreaterThan(19);
      expect(c.lat).toBeLessThan(34);
      expect(c.lng).toBeGreaterThan(9);
      expect(c.lng).toBeLessThan(26);
    }
  });

  it('lists city names without areas, limited', async () => {
    const names = await catalog.listCityNames(t.db, 3);
    expect(names.map((c) => c.slug)).toEqual(seedCities.slice(0, 3).map((c) => c.slug));
    expect(names[0]).not.toHaveProperty('areas');
  });

  it('enforces globally unique category slugs', async () => {
    const motors = await catalog.getTaxonomy(t.db, 'motors');
    await expect(
      t.db
        .insertInto('categories')
        .values({
          taxonomy_id: motors.id,
          parent_id: null,
          slug: 'toyota',
          name_ar: 'س',
          name_en: 'x',
          icon: null,
          position: 0,
          depth: 0,
        })
        .execute(),
    ).rejects.toThrow();
  });
});
