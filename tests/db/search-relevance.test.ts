// Search relevance on the demo ads, against the judged query set
// (server/domain/search/quality/judged-queries.ts; the measure: ./evaluate.ts beside it), on both
// databases: the targets of docs/product/search.md, "Relevance, measured".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoAds } from '../../server/db/seed/ads.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { measureRelevance } from '../../server/domain/search/quality/evaluate.ts';
import { JUDGED_QUERIES } from '../../server/domain/search/quality/judged-queries.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('search relevance on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    await seedDemoAds(t);
  }, 120_000);
  afterAll(() => t.drop());

  it('has a judged set of at least 80 queries in Arabic, Libyan words, typos, English and mixed script', () => {
    expect(JUDGED_QUERIES.length).toBeGreaterThanOrEqual(80);
    const kinds = new Set(JUDGED_QUERIES.map((q) => q.kind));
    expect([...kinds].sort()).toEqual(['arabic', 'english', 'libyan', 'mixed', 'typo']);
  });

  it('finds at least 9 in 10 of the ads a buyer expects, and puts them first', async () => {
    const report = await measureRelevance(t);
    const misses = report.queries
      .filter((q) => q.recall < 1 || q.precision < 1)
      .map((q) => `${q.query.q}: recall ${q.recall.toFixed(2)}, precision ${q.precision.toFixed(2)}`);
    expect(report.recall, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(report.precision, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
  }, 120_000);
});
