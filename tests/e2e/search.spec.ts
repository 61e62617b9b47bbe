// Search and browse (docs/product/search.md): a buyer finds an Arabic ad by a spelling with harakat from
// the header's search box, and the filters (price, an attribute) narrow the count — on a desktop
// side panel and in the phone's drawer. The ads are written straight into the database: what is
// checked here is finding them.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, type Page, test } from '@playwright/test';
import { normalizeText } from '../../server/domain/search/normalize.ts';
import { expectAccessible, open } from './support/helpers.ts';

interface Seeded {
  tag: string;
  ids: number[];
}

/** Three published Toyotas sharing a made-up word (so each run finds only its own). */
function seed(): Seeded {
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'));
  try {
    const tag = `zq${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const one = <T>(q: string, ...args: (string | number)[]) => db.prepare(q).get(...args) as T;
    const toyota = one<{ id: number; taxonomy_id: number }>(
      "select id, taxonomy_id from categories where slug = 'toyota'",
    );
    const tripoli = one<{ id: number }>("select id from cities where slug = 'tripoli'");
    const year = one<{ id: number }>(
      "select id from attributes where key = 'year' and category_id = (select id from categories where slug = 'cars')",
    );
    const now = new Date().toISOString();
    const ads: [string, number, number][] = [
      [`تويوتا كورولا ${tag} نظيفة جداً`, 45000, 2015],
      [`Toyota Camry ${tag} full options`, 90000, 2020],
      [`Toyota Yaris ${tag} economic`, 30000, 2019],
    ];
    const ids = ads.map(([title, price, y], i) => {
      const description = `${title} — فحص كامل، صيانة في الوكالة.`;
      const { id } = one<{ id: number }>(
        `insert into ads (taxonomy_id, category_id, slug, title, description, price, currency, price_type, city_id,
           status, bumped_at, published_at, expires_at, created_at, updated_at)
         values (?, ?, 'toyota', ?, ?, ?, 'LYD', 'fixed', ?, 'published', ?, ?, ?, ?, ?) returning id`,
        toyota.taxonomy_id,
        toyota.id,
        title,
        description,
        price,
        tripoli.id,
        new Date(Date.now() - i * 60_000).toISOString(),
        now,
        new Date(Date.now() + 20 * 86_400_000).toISOString(),
        now,
        now,
      );
      db.prepare('insert into ad_search (ad_id, title, body) values (?, ?, ?)').run(
        id,
        normalizeText(title),
        normalizeText(description),
      );
      db.prepare('insert into ad_attribute_values (ad_id, attribute_id, value_number) values (?, ?, ?)').run(
        id,
        year.id,
        y,
      );
      return id;
    });
    return { tag, ids };
  } finally {
    db.close();
  }
}

const count = (page: Page) => page.getByTestId('result-count');

test('an Arabic search with harakat finds the ad; price and year filters narrow the count', async ({ page }) => {
  test.setTimeout(90_000);
  const { tag, ids } = seed();
  // The header's search box, in Arabic, spelled with harakat and a taa marbuta for a haa.
  await open(page, '/');
  await page.locator('#site-search').fill(`تُويُوتَا كُورُولَا ${tag}`);
  await page.locator('#site-search').press('Enter');
  await expect(page).toHaveURL(/\/posts\?q=/);
  await expect(count(page)).toHaveText('إعلان واحد');
  await expect(page.locator(`a[href$="-${ids[0]}"]`)).toBeVisible();
  await expectAccessible(page);

  // In English, the three of this run in Cars; the filters narrow them.
  await open(page, `/en/motors/cars?q=${tag}`);
  await expect(count(page)).toHaveText('3 ads');
  await page.locator('#side-price-max').fill('50000');
  await page.getByRole('complementary').getByRole('button', { name: 'Show results' }).click();
  await expect(page).toHaveURL(/price_max=50000/);
  await expect(count(page)).toHaveText('2 ads');
  await page.locator('#side-f-year-min').fill('2018');
  await page.getByRole('complementary').getByRole('button', { name: 'Show results' }).click();
  await expect(count(page)).toHaveText('1 ad');
  await expect(page.locator(`a[href$="-${ids[2]}"]`)).toBeVisible();
  // Sorting keeps the filters.
  await page.getByLabel('Sort by').selectOption('price-desc');
  await expect(page).toHaveURL(/sort=price-desc/);
  await expect(page).toHaveURL(/f\.year\.min=2018/);
  await expectAccessible(page);
});

test('on a phone the filters open in a drawer @phone', async ({ page, isMobile }) => {
  test.skip(!isMobile, 'the drawer is the phone layout');
  const { tag } = seed();
  await open(page, `/en/posts?q=${tag}`);
  await expect(count(page)).toHaveText('3 ads');
  await page.getByRole('button', { name: 'Filters' }).click();
  const drawer = page.getByRole('dialog', { name: 'Filters' });
  await drawer.locator('#drawer-price-min').fill('40000');
  await drawer.getByRole('button', { name: 'Show results' }).click();
  await expect(count(page)).toHaveText('2 ads');
  await expect(drawer).toBeHidden();
  await expectAccessible(page);
});
