// Ads written straight into the tables for the search tests (published unless told, text indexed,
// `updated_at` set so the search index sees them), as a seller's form would never make them: any
// date, status, price, place, pin and attribute values.
import { indexAdText } from '../../server/domain/search/text-index.ts';
import type { TestDatabase } from './databases.ts';

export interface SearchAdSpec {
  title: string;
  category: string;
  city: string;
  area?: string;
  price?: number | null;
  currency?: 'LYD' | 'USD';
  status?: string;
  daysAgo?: number;
  photo?: boolean;
  /** The owner's pin (lat, lng); none by default. */
  pin?: [number, number];
  attrs?: Record<string, number | string | boolean | string[]>;
}

const DAY = 86_400_000;

export async function placeSearchAd(t: TestDatabase, spec: SearchAdSpec): Promise<number> {
  const cat = await t.db
    .selectFrom('categories')
    .select(['id', 'taxonomy_id'])
    .where('slug', '=', spec.category)
    .executeTakeFirstOrThrow();
  const city = await t.db.selectFrom('cities').select('id').where('slug', '=', spec.city).executeTakeFirstOrThrow();
  const area = spec.area
    ? await t.db.selectFrom('areas').select('id').where('slug', '=', spec.area).executeTakeFirstOrThrow()
    : null;
  const when = new Date(Date.now() - (spec.daysAgo ?? 0) * DAY);
  const ad = await t.db
    .insertInto('ads')
    .values({
      taxonomy_id: cat.taxonomy_id,
      category_id: cat.id,
      slug: 'ad',
      title: spec.title,
      description: `${spec.title} وصف`,
      price: spec.price === undefined ? 1000 : spec.price,
      currency: spec.currency ?? 'LYD',
      price_type: spec.price === null ? 'free' : 'fixed',
      city_id: city.id,
      lat: spec.pin?.[0] ?? null,
      lng: spec.pin?.[1] ?? null,
      area_id: area?.id ?? null,
      status: (spec.status ?? 'published') as never,
      bumped_at: when,
      published_at: when,
      updated_at: new Date(),
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await indexAdText(t.db, ad.id, spec.title, `${spec.title} وصف`);
  if (spec.photo) {
    await t.db
      .insertInto('ad_images')
      .values({ ad_id: ad.id, key: `k${ad.id}`, width: 10, height: 10, variants: '[]' } as never)
      .execute();
  }
  for (const [key, value] of Object.entries(spec.attrs ?? {})) {
    const attr = await t.db
      .selectFrom('attributes')
      .select(['id', 'type'])
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    for (const v of Array.isArray(value) ? value : [value]) {
      await t.db
        .insertInto('ad_attribute_values')
        .values({
          ad_id: ad.id,
          attribute_id: attr.id,
          value_option: typeof v === 'string' ? v : null,
          value_number: typeof v === 'number' ? v : null,
          value_bool: typeof v === 'boolean' ? v : null,
        } as never)
        .execute();
    }
  }
  return ad.id;
}
