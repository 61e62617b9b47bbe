// What a card shows of an ad's details, on both dialects (docs/product/site.md, "Numbers and dates"):
// labelled values in Western digits in both languages, a number carrying its attribute's key and
// value for the catalogue's wording (ads:card-values).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { cardsByIds } from '../../server/domain/ads/cards.ts';
import { createAd, resolveCategoryPath } from '../../server/domain/ads/placing.ts';
import { listCategoryAttributes } from '../../server/domain/catalog.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('card values on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
  });
  afterAll(() => t.drop());

  it('labels every value: an option in words, a year named with its number for the wording, in 0-9', async () => {
    const cityId = (
      await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow()
    ).id;
    const attributes = await listCategoryAttributes(t.db, 'toyota');
    const path = await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']);
    const seller = await insertMember(t.db);
    const ad = await createAd(
      t.db,
      { moderation: 'post' },
      seller,
      path,
      attributes,
      toyotaAdInput(cityId, { attrs: { condition: 'used', year: 2015, mileage: 120000, model: 'corolla' } }),
    );
    const [card] = await cardsByIds(t.db, [ad.id]);
    expect(card?.attributes).toEqual([
      { ar: 'مستعمل', en: 'Used' },
      { ar: 'سنة الصنع: 2015', en: 'Year: 2015', key: 'year', count: 2015 },
      // Three values at most: the model comes before the mileage on the form.
      { ar: 'كورولا', en: 'Corolla' },
    ]);
  });
});
