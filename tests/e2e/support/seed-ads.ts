// Published ads written straight into the e2e server's database (its DATA_DIR): for journeys that
// check finding and filtering ads, not placing them. The search index reads them like any other.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { normalizeText } from '../../../server/domain/search/normalize.ts';

export interface SeedAd {
  /** A category's slug (its taxonomy follows). */
  category: string;
  title: string;
  price: number;
  /** A city's slug. */
  city: string;
  /** Ordinal of the ad in its batch: each is a minute older than the one before. */
  age?: number;
  /** Number attributes of the category by key (`year`). */
  numbers?: Record<string, number>;
}

/** Writes the ads, published, and returns their ids in order. */
export function seedAds(ads: SeedAd[]): number[] {
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'));
  try {
    const one = <T>(q: string, ...args: (string | number)[]) => db.prepare(q).get(...args) as T;
    const now = new Date().toISOString();
    return ads.map((ad, i) => {
      const category = one<{ id: number; taxonomy_id: number; slug: string }>(
        'select id, taxonomy_id, slug from categories where slug = ?',
        ad.category,
      );
      const city = one<{ id: number }>('select id from cities where slug = ?', ad.city);
      const description = `${ad.title} — فحص كامل، صيانة في الوكالة.`;
      const { id } = one<{ id: number }>(
        `insert into ads (taxonomy_id, category_id, slug, title, description, price, currency, price_type, city_id,
           status, bumped_at, published_at, expires_at, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, 'LYD', 'fixed', ?, 'published', ?, ?, ?, ?, ?) returning id`,
        category.taxonomy_id,
        category.id,
        category.slug,
        ad.title,
        description,
        ad.price,
        city.id,
        new Date(Date.now() - (ad.age ?? i) * 60_000).toISOString(),
        now,
        new Date(Date.now() + 20 * 86_400_000).toISOString(),
        now,
        now,
      );
      db.prepare('insert into ad_search (ad_id, title, body) values (?, ?, ?)').run(
        id,
        normalizeText(ad.title),
        normalizeText(description),
      );
      for (const [key, value] of Object.entries(ad.numbers ?? {})) {
        const attribute = one<{ id: number }>(
          `select a.id from attributes a where a.key = ? and a.category_id in (
             with recursive up(id, parent_id) as (
               select id, parent_id from categories where id = ?
               union all select c.id, c.parent_id from categories c join up on c.id = up.parent_id)
             select id from up)`,
          key,
          category.id,
        );
        db.prepare('insert into ad_attribute_values (ad_id, attribute_id, value_number) values (?, ?, ?)').run(
          id,
          attribute.id,
          value,
        );
      }
      return id;
    });
  } finally {
    db.close();
  }
}
