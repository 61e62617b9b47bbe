// Suggestions while typing (server/domain/search/suggest.ts) and the category chips of a text query
// (server/domain/search/chips.ts) on both dialects: categories with their published ads, completions
// from the catalogue's names and labels (Arabic read as search reads it), frequent title words
// counted from published ads only and only when enough ads use them, garbage answered with nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../app/lib/search-query.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { search } from '../../server/domain/search/service.ts';
import { countTitleWords, suggest, TITLE_WORD_MIN_ADS, titleWordsReady } from '../../server/domain/search/suggest.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { placeSearchAd } from '../support/search-ads.ts';

describe.each(dialects)('suggestions on %s', (dialect) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    // "زنبركية" in three published Toyota titles (a frequent word), "قرنفلية" in two published and
    // one pending (not frequent), "سرية0912" in three (has digits: never offered).
    for (let i = 0; i < TITLE_WORD_MIN_ADS; i++) {
      await placeSearchAd(t, { title: `تويوتا زنبركية ${i} سرية0912`, category: 'toyota', city: 'tripoli' });
    }
    await placeSearchAd(t, { title: 'Samsung قرنفلية', category: 'samsung-phones', city: 'tripoli' });
    await placeSearchAd(t, { title: 'آيفون قرنفلية', category: 'iphone', city: 'tripoli' });
    await placeSearchAd(t, { title: 'قرنفلية', category: 'iphone', city: 'tripoli', status: 'pending' });
    await titleWordsReady(t);
  });

  afterAll(async () => {
    await t?.drop();
  });

  it('offers a category with its published ads, linking to its page', async () => {
    const s = await suggest(t, 'تويو', 'ar');
    expect(s[0]).toMatchObject({ kind: 'category', label: 'تويوتا', count: 3, href: '/motors/toyota' });
    const en = await suggest(t, 'toyo', 'en');
    expect(en[0]).toMatchObject({ kind: 'category', label: 'Toyota', context: 'Cars', count: 3 });
    expect(en[0]?.href).toBe('/en/motors/toyota');
  });

  it('reads Arabic as search does: ايفون, آيفون and أيفون suggest the iPhone', async () => {
    for (const typed of ['ايفون', 'آيفون', 'أيفون', 'ايف']) {
      const s = await suggest(t, typed, 'en');
      expect(s.find((x) => x.kind === 'category')?.href, typed).toBe('/en/electronics/iphone');
      expect(
        s.some((x) => x.kind === 'query' && x.label.startsWith('آيفون')),
        typed,
      ).toBe(true);
    }
  });

  it('completes the last word, keeping the words before it', async () => {
    const s = await suggest(t, 'سيارة كامر', 'ar');
    expect(s.map((x) => x.text)).toContain('سيارة كامري');
    const cruiser = await suggest(t, 'لاند كروز', 'ar');
    expect(cruiser.map((x) => x.text)).toContain('لاند كروزر');
    expect(cruiser.map((x) => x.text)).not.toContain('لاند لاند كروزر');
    // A category named by the last word keeps the other words as its text.
    const within = await suggest(t, 'زنبركية تويو', 'ar');
    expect(within.find((x) => x.kind === 'category')).toMatchObject({
      href: `/motors/toyota?q=${encodeURIComponent('زنبركية')}`,
      count: null,
    });
  });

  it('offers frequent title words of published ads only, never words with digits', async () => {
    const words = await countTitleWords(t);
    expect(words.ads('زنبركيه')).toBe(TITLE_WORD_MIN_ADS);
    // Two published ads (the pending one does not count): below the threshold.
    expect(words.ads('قرنفليه')).toBe(0);
    expect(words.words.some((w) => /\d/.test(w.word))).toBe(false);
    const s = await suggest(t, 'زنبر', 'ar');
    // Shown as the titles write it (taa marbuta), not as normalised.
    expect(s.map((x) => x.text)).toContain('زنبركية');
    expect((await suggest(t, 'قرنف', 'ar')).map((x) => x.text)).toEqual([]);
  });

  it('answers at most 8, and nothing for text without words', async () => {
    expect((await suggest(t, 'س', 'ar')).length).toBeLessThanOrEqual(8);
    expect((await suggest(t, 'س', 'ar')).length).toBeGreaterThan(0);
    for (const junk of ['', '   ', '😀😀', '!!!', '__proto__', 'constructor', 'x'.repeat(100)]) {
      const s = await suggest(t, junk, 'en');
      expect(Array.isArray(s), junk).toBe(true);
    }
    expect(await suggest(t, '😀', 'ar')).toEqual([]);
  });
});

describe.each(dialects)('category chips on %s', (dialect) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    await placeSearchAd(t, { title: 'تويوتا كامري نظيفة', category: 'toyota', city: 'tripoli' });
    await placeSearchAd(t, { title: 'تويوتا كورولا', category: 'toyota', city: 'tripoli' });
    await placeSearchAd(t, { title: 'هيونداي النترا', category: 'hyundai', city: 'tripoli' });
    await placeSearchAd(t, { title: 'شقة للبيع', category: 'apartments-for-sale', city: 'tripoli' });
  });

  afterAll(async () => {
    await t?.drop();
  });

  const chips = async (params: string) =>
    (await search(t, parseSearchQuery(new URLSearchParams(params)))).namedCategories;

  it('shows the categories a query names, with their results', async () => {
    expect(await chips('q=تويوتا')).toMatchObject([
      { slug: 'toyota', taxonomy: 'motors', parent: { name_en: 'Cars' }, count: 2 },
    ]);
    // "سيارات" names Cars: one chip for it, not one per make below it.
    const cars = await chips('q=سيارات');
    expect(cars.map((c) => c.slug)).toEqual(['cars']);
    expect(cars[0]?.count).toBe(3);
  });

  it('hides a chip the query is already narrowed to, and has none without text', async () => {
    expect(await chips('q=تويوتا&category=toyota')).toEqual([]);
    expect(await chips('q=سيارات&category=cars')).toEqual([]);
    expect(await chips('category=cars')).toEqual([]);
  });
});
