// The ad text index (migration 0008) on both dialects: Arabic spelling variants, digits, harakat and
// prefixes find the same ads, titles outrank descriptions, edits re-index, and SQLite and
// PostgreSQL answer the shared corpus identically; PostgreSQL's word list (migration 0013) follows
// the documents and finds what they find. Queries are read as the search reads them: with the keys
// of the categories and places their words name (server/domain/search/catalogue-keys.ts).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations/index.ts';
import { seedBulkAds } from '../../server/db/seed/ads.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { fts5Query, matchAdText, textCandidates, tsQuery } from '../../server/db/text-search.ts';
import { type AdInput, createAd, resolveCategoryPath, updateAd } from '../../server/domain/ads/placing.ts';
import { listCategoryAttributes } from '../../server/domain/catalog.ts';
import { type TextTerms, textTerms } from '../../server/domain/search/analyzer.ts';
import { loadCatalogueSnapshot } from '../../server/domain/search/catalogue.ts';
import { withCatalogueKeys } from '../../server/domain/search/catalogue-keys.ts';
import { searchTerms } from '../../server/domain/search/normalize.ts';
import { categoryKey, cityKey, indexAdText } from '../../server/domain/search/text-index.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

/** Where an ad of the corpus is filed: taxonomy, category path, attribute values. */
type Filed = [string, string[], Record<string, unknown>];
const TOYOTA = (model: string): Filed => ['motors', ['cars', 'toyota'], { year: 2015, model }];

/** The shared corpus: [title, description, where it is filed] (the catalogue gives ads words too). */
const CORPUS: [string, string, Filed][] = [
  ['تويوتا كورولا ٢٠١٥ نظيفة', 'سيارة عائلية بحالة ممتازة، صيانة دورية في الوكالة.', TOYOTA('corolla')],
  ['سيارة تويوتا كامري للبيع', 'موديل 2018، ماشية 90 ألف كيلو.', TOYOTA('camry')],
  ['Toyota Land Cruiser 2012', 'Diesel, full options, seen near the hospital.', TOYOTA('land-cruiser')],
  [
    'شقة قرب مستشفى الخضراء',
    'ثلاث غرف وصالة، الطابق الثاني. للاستفسار اتصل على أحمد.',
    ['property', ['property-for-sale', 'apartments-for-sale'], {}],
  ],
  [
    'محل للإيجار في شارع عمر المختار',
    'مساحة ٦٠ متر، يصلح عيادة أو مستشفى بيطري أو صيدلية.',
    ['property', ['property-for-rent', 'commercial-for-rent'], {}],
  ],
  ['Corolla 2015 for sale', 'Clean Toyota, one owner, service history in Tripoli.', TOYOTA('corolla')],
];

let owners = 0;

/** A query's terms with the keys of what its words name in the catalogue as it is now. */
async function keyed(t: TestDatabase, q: string): Promise<TextTerms> {
  return withCatalogueKeys(await loadCatalogueSnapshot(t.db), textTerms(searchTerms(q)));
}

/** The corpus placed as published ads (one owner each: the free allowance is five); their ids. */
async function placeCorpus(t: TestDatabase): Promise<number[]> {
  await seedCatalogue(t.db);
  const city = await t.db.selectFrom('cities').select('id').executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (const [title, description, [taxonomy, categories, attrs]] of CORPUS) {
    const path = await resolveCategoryPath(t.db, taxonomy, categories);
    const attributes = await listCategoryAttributes(t.db, categories[categories.length - 1] as string);
    const id = `search-${++owners}-${Date.now()}`;
    await t.db
      .insertInto('users')
      // Placing an ad needs a confirmed phone number.
      .values({
        id,
        name: 'S',
        email: `${id}@example.ly`,
        phone_number: `+21893${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
        phone_number_verified: true,
      } as never)
      .execute();
    const input: AdInput = {
      title,
      description,
      price_type: 'free',
      currency: 'LYD',
      city: city.id,
      contact_phone: true,
      contact_whatsapp: false,
      photos: [],
      submission_key: id,
      attrs,
    };
    ids.push((await createAd(t.db, { moderation: 'post' }, { id }, path, attributes, input)).id);
  }
  return ids;
}

describe.each(dialects)('ad text search on %s', (dialect) => {
  let t: TestDatabase;
  const ids: number[] = [];
  const search = async (q: string) =>
    (await matchAdText(t.db, dialect, await keyed(t, q))).map((x) => ids.indexOf(x.id));

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    ids.push(...(await placeCorpus(t)));
  });
  afterAll(() => t.drop());

  it('finds Arabic spelling variants, digits and harakat alike', async () => {
    expect(await search('سياره')).toEqual(expect.arrayContaining([0, 1]));
    expect((await search('سيارة')).sort()).toEqual((await search('سياره')).sort());
    expect(await search('احمد')).toEqual([3]);
    expect(await search('مستشفي')).toEqual(expect.arrayContaining([3, 4]));
    expect(await search('2015')).toEqual(expect.arrayContaining([0, 5]));
    expect(await search('٢٠١٥')).toEqual(await search('2015'));
    expect(await search('تُويُوتَا')).toEqual(await search('تويوتا'));
  });

  it('matches the last word as a prefix and needs every word', async () => {
    // Every ad filed under Toyota says "تويوتا", whatever its own text.
    expect((await search('تويو')).sort()).toEqual([0, 1, 2, 5]);
    expect((await search('نظي')).sort()).toEqual([0]);
    expect(await search('كامري تويو')).toEqual([1]);
    expect(await search('كامري كورولا')).toEqual([]);
    expect(await search('TOYO')).toEqual(expect.arrayContaining([2, 5]));
    expect(await search('  ؟!  ')).toEqual([]);
  });

  it('ranks a title match above a description match', async () => {
    // "toyota" is in the title of 2 and only in the description of 5.
    const found = await search('toyota');
    expect(found.indexOf(2)).toBeLessThan(found.indexOf(5));
  });

  it('falls back to newest first when a word matches more ads than ranking may score', async () => {
    const capped = await matchAdText(t.db, dialect, await keyed(t, 'toyota'), 500, 1);
    expect(capped.map((m) => ids.indexOf(m.id))).toEqual([5, 2, 1, 0]);
    expect((await search('toyota')).slice(0, 2)).toEqual([2, 5]);
  });

  it('follows an edit of the title', async () => {
    const owner = await t.db
      .selectFrom('ads')
      .select('user_id')
      .where('id', '=', ids[5] as number)
      .executeTakeFirstOrThrow();
    const { submission_key: _, ...input } = {
      title: 'Yaris 2016 automatic',
      description: 'Clean Toyota, one owner, service history in Tripoli.',
      price_type: 'free' as const,
      currency: 'LYD',
      city: (await t.db.selectFrom('cities').select('id').executeTakeFirstOrThrow()).id,
      contact_phone: true,
      contact_whatsapp: false,
      photos: [],
      submission_key: '',
      attrs: { year: 2015, model: 'corolla' },
    };
    await updateAd(
      t.db,
      { moderation: 'post' },
      { id: owner.user_id as string },
      ids[5] as number,
      await listCategoryAttributes(t.db, 'toyota'),
      input,
    );
    expect(await search('yaris')).toEqual([5]);
    // 2015 has left the title; ad 0 still says both (its model is a Corolla).
    expect(await search('corolla 2015')).toEqual([0]);
  });
});

describe.runIf(dialects.length === 2)('SQLite and PostgreSQL', () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of databases) await d.drop();
  });

  it('answer the shared corpus with the same ads, the best first', async () => {
    const answers: number[][][] = [];
    for (const dialect of dialects) {
      const t = await createTestDatabase(dialect);
      databases.push(t);
      const ids = await placeCorpus(t);
      const queries = ['سياره', 'تويوتا', 'toyota', 'مستشفى', '2015', 'تو', 'clean one', 'احمد'];
      answers.push(
        await Promise.all(
          queries.map(async (q) => (await matchAdText(t.db, dialect, await keyed(t, q))).map((m) => ids.indexOf(m.id))),
        ),
      );
    }
    // The same ads, and the same best one (the engines weigh the columns alike but score apart).
    const sameness = (a: number[][] | undefined) => a?.map((ids) => [ids[0], [...ids].sort()]);
    expect(sameness(answers[1])).toEqual(sameness(answers[0]));
  });
});

describe.each(dialects)('the text index migration on %s', (dialect) => {
  it('indexes the ads that existed before it, and gives them their catalogue words later', async () => {
    const t = await createTestDatabase(dialect, { migrate: false });
    try {
      const before = migrations.slice(
        0,
        migrations.findIndex((m) => m.name === '0008_search'),
      );
      for (const m of before) await m.up(t.db as never, dialect);
      await seedCatalogue(t.db);
      const path = await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']);
      const city = await t.db.selectFrom('cities').select('id').executeTakeFirstOrThrow();
      await t.db
        .insertInto('ads')
        .values({
          taxonomy_id: path.taxonomy.id,
          category_id: path.category.id,
          slug: 'old',
          title: 'سيارة قديمة',
          description: 'وُضعت قبل الفهرس',
          city_id: city.id,
          contact_phone: false,
          contact_whatsapp: false,
          status: 'published',
        })
        .execute();
      const index = migrations.find((m) => m.name === '0008_search');
      await index?.up(t.db as never, dialect);
      expect(await matchAdText(t.db, dialect, 'سياره قديمه')).toHaveLength(1);
      expect(await matchAdText(t.db, dialect, 'وضعت')).toHaveLength(1);
      expect(await matchAdText(t.db, dialect, 'toyota')).toHaveLength(0);
      // The migrations after it: 0016 gives the ad the words of its category and place, 0029
      // their keys instead.
      for (const m of migrations.slice(migrations.findIndex((m) => m.name === '0008_search') + 1)) {
        await m.up(t.db as never, dialect);
      }
      expect(await matchAdText(t.db, dialect, await keyed(t, 'toyota'))).toHaveLength(1);
      expect(await matchAdText(t.db, dialect, await keyed(t, 'سيارات قديمة'))).toHaveLength(1);
      expect(await matchAdText(t.db, dialect, await keyed(t, 'وضعت'))).toHaveLength(1);
      // Its category's and its city's names are read as their keys, not stored as words.
      const row = await t.db.selectFrom('ad_search').select(['terms', 'stems']).executeTakeFirstOrThrow();
      expect(row.terms.split(' ')).toEqual(expect.arrayContaining([categoryKey(path.category.id), cityKey(city.id)]));
      expect(`${row.terms} ${row.stems}`).not.toMatch(/toyota|تويوتا|سيارات/);
      expect(await matchAdText(t.db, dialect, 'toyota')).toHaveLength(0);
    } finally {
      await t.drop();
    }
  });
});

describe.runIf(dialects.includes('postgres'))('the word list on postgres', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('postgres');
    await seedCatalogue(t.db);
    await seedBulkAds(t, { count: 1500, chunk: 400, now: new Date('2026-11-01T10:00:00Z'), worker: false });
  });
  afterAll(() => t.drop());

  /** (word, ad) pairs in one of the word list and the documents but not the other. */
  const drift = async () =>
    Number(
      (
        await sql<{ n: number }>`
          select count(*) as n from (
            (select word, ad_id from ad_words except select unnest(tsvector_to_array(document)), ad_id from ad_search)
            union all
            (select unnest(tsvector_to_array(document)), ad_id from ad_search except select word, ad_id from ad_words)
          ) as d`.execute(t.db)
      ).rows[0]?.n,
    );

  /** The newest `limit` ads whose document matches, as the tsvector reads the query. */
  const reference = async (terms: TextTerms, limit: number) =>
    (
      await sql<{ ad_id: number }>`
        select ad_id from ad_search where document @@ cast(${tsQuery(terms)} as tsquery)
        order by ad_id desc limit ${limit}`.execute(t.db)
    ).rows.map((r) => r.ad_id);

  it('holds every word of every document, after a bulk load, edits and deletions', async () => {
    expect(await drift()).toBe(0);
    const ids = (await t.db.selectFrom('ads').select('id').orderBy('id').limit(30).execute()).map((a) => a.id);
    for (const id of ids.slice(0, 10)) await indexAdText(t.db, id, `zulu ${id} شاحنه`, 'وصف جديد تماما');
    await t.db.deleteFrom('ads').where('id', 'in', ids.slice(10, 20)).execute();
    expect(await drift()).toBe(0);
    expect((await textCandidates(t.db, 'postgres', 'zulu شاحن', 100)).ids).toEqual(ids.slice(0, 10).reverse());
  });

  it('finds the newest matches the documents find, for words, prefixes and several words, capped or not', async () => {
    // Words of the seeded text by how many ads have them: the most common, the middle, the rarest.
    // (Catalogue keys left out: no typed word is one; the queries that name the catalogue are below.)
    const { rows } = await sql<{ word: string; n: number }>`
      select word, count(*)::int as n from ad_words where word not like ${'\u0629%'}
      group by word order by n desc, word`.execute(t.db);
    const common = rows[0]?.word as string;
    const middle = rows[Math.floor(rows.length / 2)]?.word as string;
    const rare = rows[rows.length - 1]?.word as string;
    const arabic = rows.find((r) => r.word !== common && /^[\u0600-\u06FF]{5,}$/.test(r.word) && r.n > 20)
      ?.word as string;
    const queries = [
      common,
      middle,
      rare,
      arabic,
      arabic.slice(0, 3), // a prefix of several words
      arabic.slice(0, 1), // so short it starts more words than the list is asked for
      `${common} ${arabic}`,
      `${common} ${arabic.slice(0, 3)}`,
      `${arabic} ${common} ${middle.slice(0, 2)}`,
      `${common} ${common}`,
      `${rare} ${common}`,
      'qqqq',
    ];
    const asTyped = queries.map((q) => [q, textTerms(q.split(' '))] as const);
    // Words that name categories and places, with their keys: a taxonomy's word (tens of keys), a
    // make, a city, and a make with a word of the ads' own text.
    const named = await Promise.all(
      [
        'سيارات',
        'motors',
        'تويوتا',
        'طرابلس',
        `تويوتا ${common}`,
        'سي',
        'سيارات طرابلس',
        'شقق مصراتة',
        'motors benghazi',
      ].map(async (q) => [q, await keyed(t, q)] as const),
    );
    for (const [q, terms] of [...asTyped, ...named]) {
      for (const cap of [5, 40, 5000]) {
        const expected = await reference(terms, cap + 1);
        const found = await textCandidates(t.db, 'postgres', terms, cap);
        expect(found.ids, `${q} (cap ${cap})`).toEqual(expected.slice(0, cap));
        expect(found.exact, `${q} (cap ${cap})`).toBe(expected.length <= cap);
      }
    }
  });
});

/** Words that name the catalogue: a taxonomy (tens of category keys), a city, and both together. */
const NAMING = ['سيارات', 'motors', 'بنغازي', 'سيارات طرابلس', 'شقق مصراتة', 'motors benghazi', 'سيارات طر', 'عقار'];

describe.runIf(dialects.length === 2)('words naming the catalogue on SQLite and PostgreSQL', () => {
  const databases = new Map<string, TestDatabase>();
  beforeAll(async () => {
    for (const dialect of dialects) {
      const t = await createTestDatabase(dialect);
      databases.set(dialect, t);
      await seedCatalogue(t.db);
      await seedBulkAds(t, { count: 400, chunk: 200, now: new Date('2026-11-01T10:00:00Z'), worker: false });
    }
  });
  afterAll(async () => {
    for (const t of databases.values()) await t.drop();
  });

  /** Every ad whose text matches, newest first, as the dialect's own text index reads the query. */
  const everyMatch = async (t: TestDatabase, dialect: string, terms: TextTerms) =>
    (dialect === 'postgres'
      ? await sql<{ id: number }>`
          select ad_id as id from ad_search where document @@ cast(${tsQuery(terms)} as tsquery)
          order by ad_id desc`.execute(t.db)
      : await sql<{ id: number }>`
          select rowid as id from ad_search_fts where ad_search_fts match ${fts5Query(terms)}
          order by rowid desc`.execute(t.db)
    ).rows.map((r) => Number(r.id));

  it('find the same newest ads, capped or not, as every match of the documents says', async () => {
    const sqlite = databases.get('sqlite') as TestDatabase;
    const postgres = databases.get('postgres') as TestDatabase;
    for (const q of NAMING) {
      const terms = await keyed(sqlite, q);
      // The same catalogue on both (seeded alike), so the same keys.
      expect(await keyed(postgres, q), q).toEqual(terms);
      const all = await everyMatch(sqlite, 'sqlite', terms);
      expect(await everyMatch(postgres, 'postgres', terms), q).toEqual(all);
      expect(all.length, `${q} matches seeded ads`).toBeGreaterThan(0);
      for (const cap of [1, 7, 60, 1000]) {
        for (const [dialect, t] of databases) {
          const found = await textCandidates(t.db, dialect as 'sqlite' | 'postgres', terms, cap);
          expect(found.ids, `${q} on ${dialect} (cap ${cap})`).toEqual(all.slice(0, cap));
          expect(found.exact, `${q} on ${dialect} (cap ${cap})`).toBe(all.length <= cap);
        }
      }
    }
  });
});
