// The text candidates cache (server/domain/search/text-cache.ts) on both dialects: after random
// edits, new ads and catch-ups of every size, each answer is the one the database gives read afresh
// (lists cut at the cap included), while most answers come from the cache; and the search engine
// feeds it its catch-ups, so a search sees edits made after its words were cached.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../app/lib/search-query.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { adTexts, textCandidates } from '../../server/db/text-search.ts';
import { textTerms } from '../../server/domain/search/analyzer.ts';
import { searchTerms, textHasTerms } from '../../server/domain/search/normalize.ts';
import { search, searchEngine } from '../../server/domain/search/service.ts';
import { TextCache, type TextSource } from '../../server/domain/search/text-cache.ts';
import { indexAdText } from '../../server/domain/search/text-index.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { placeSearchAd } from '../support/search-ads.ts';

/** A small vocabulary, so that words and prefixes overlap (زيت starts زيتون). */
const WORDS = ['زيت', 'زيتون', 'سياره', 'تويوتا', 'بيت', 'جديد', 'نظيف'];
const QUERIES = ['زيت', 'زيتون', 'سياره زي', 'تويوتا', 'بيت سياره', 'جديد نظ', 'نظيف تويوتا جديد', 'ز'];

/** A deterministic generator (the test is the same every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('textHasTerms', () => {
  it('wants a form of every word whole and the last word typed as the start of a word', () => {
    expect(textHasTerms([['زيت']], 'زيتون نظيف')).toBe(true);
    expect(textHasTerms([['زيت'], ['نظ']], 'زيتون نظيف')).toBe(false);
    expect(textHasTerms([['زيتون'], ['نظ']], 'نظيف جدا زيتون')).toBe(true);
    expect(textHasTerms([['سياره']], 'سيارات')).toBe(false);
    // Any form of a word will do; the last word's other forms (its stem) are whole words.
    expect(textHasTerms([['سيارات', 'سيار'], ['نظ']], 'سياره نظيفه سيار')).toBe(true);
    expect(textHasTerms([['سيارات', 'سيار'], ['نظ']], 'سياره نظيفه')).toBe(false);
    expect(textHasTerms([['شقق', 'شق']], 'شقه شق')).toBe(true);
    expect(textHasTerms([['شقق', 'شق']], 'شقه شقراء')).toBe(false);
    expect(textHasTerms([], 'x')).toBe(false);
    expect(textHasTerms([['x']], '')).toBe(false);
  });
});

describe.each(dialects)('text candidates cache on %s', (dialect) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
  });
  afterAll(() => t.drop());

  // A cap of 8 cuts most lists. All the queries held and a log of 8 ads: entries asked for rarely
  // outlive the log; 5 held: the least recently asked leave. Re-checks of at most 12 ads.
  it.each([
    { limits: { entries: 8, from: 1, log: 8, recheck: 12 }, readShare: 0.5 },
    { limits: { entries: 5, from: 1, log: 64, recheck: 12 }, readShare: 0.75 },
  ])('answers as the database does after random edits, from the cache mostly (%o)', async ({ limits, readShare }) => {
    const random = rng(7 + limits.entries);
    const text = () =>
      Array.from({ length: 1 + Math.floor(random() * 4) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
    const ids: number[] = [];
    for (let i = 0; i < 60; i++)
      ids.push(await placeSearchAd(t, { title: text(), category: 'toyota', city: 'tripoli' }));
    let reads = 0;
    const source: TextSource = {
      candidates: (words, cap) => {
        reads++;
        return textCandidates(t.db, dialect, words, cap);
      },
      texts: (list) => adTexts(t.db, list),
    };
    const cap = 8;
    const cache = new TextCache(source, cap, limits);
    let asked = 0;
    let cut = 0;
    for (let round = 0; round < 40; round++) {
      const changed: number[] = [];
      const writes = Math.floor(random() * (round % 9 === 8 ? 16 : 4));
      for (let w = 0; w < writes; w++) {
        if (random() < 0.3) {
          const id = await placeSearchAd(t, { title: text(), category: 'toyota', city: 'tripoli' });
          ids.push(id);
          changed.push(id);
        } else {
          const id = ids[Math.floor(random() * ids.length)] as number;
          await indexAdText(t.db, id, text(), text());
          changed.push(id);
        }
      }
      if (changed.length > 0 || random() < 0.5) cache.changed(changed);
      for (const [i, q] of QUERIES.entries()) {
        // The first queries asked often, the last ones seldom.
        if (random() < 0.1 + i * 0.1) continue;
        asked++;
        const fresh = await textCandidates(t.db, dialect, q, cap);
        const cached = await cache.candidates(textTerms(searchTerms(q)), async () => {});
        expect(cached, `round ${round}: ${q}`).toEqual(fresh);
        if (!fresh.exact) cut++;
      }
    }
    expect(cut).toBeGreaterThan(20);
    // The cache answered many of them without reading the candidates again.
    expect(reads).toBeLessThan(asked * readShare);
    expect(cache.size).toBeLessThanOrEqual(limits.entries);
  });

  it('keeps the search engine’s answers fresh: edits after the words were cached are seen', async () => {
    // Enough matches to be worth keeping (TEXT_CACHE_LIMITS.from).
    const olives: number[] = [];
    for (let i = 0; i < 510; i++) {
      olives.push(await placeSearchAd(t, { title: `قرنفل ${i}`, category: 'toyota', city: 'tripoli' }));
    }
    const other = await placeSearchAd(t, { title: 'بطيخ', category: 'toyota', city: 'tripoli' });
    const engine = searchEngine(t);
    const before = await search(t, parseSearchQuery(new URLSearchParams('q=قرنفل')));
    expect(before.total).toBe(510);
    expect(engine.textCache.size).toBeGreaterThan(0);
    // One loses the word, one gains it, one is new: written as an edit writes (text and updated_at).
    const lost = olives[100] as number;
    await indexAdText(t.db, lost, 'بطيخ', 'بطيخ');
    await indexAdText(t.db, other, 'قرنفل', 'قرنفل');
    await t.db
      .updateTable('ads')
      .set({ updated_at: new Date() } as never)
      .where('id', 'in', [lost, other])
      .execute();
    const added = await placeSearchAd(t, { title: 'قرنفل جديد', category: 'toyota', city: 'tripoli' });
    // The text index out of reach: what follows can only come from the cache, checked again.
    const away = dialect === 'sqlite' ? 'ad_search_fts' : 'ad_words';
    await sql`alter table ${sql.table(away)} rename to text_away`.execute(t.db);
    try {
      // Newest first: relevance scores are read from the text index every time.
      const after = await search(t, parseSearchQuery(new URLSearchParams('q=قرنفل&sort=newest')), { pageSize: 600 });
      expect(after.total).toBe(511);
      expect(after.ids).toContain(other);
      expect(after.ids).toContain(added);
      expect(after.ids).not.toContain(lost);
    } finally {
      await sql`alter table text_away rename to ${sql.table(away)}`.execute(t.db);
    }
    const fresh = await textCandidates(t.db, dialect, 'قرنفل', 10_000);
    expect((await engine.text('قرنفل', false)).ids).toEqual(fresh.ids);
  });
});
