// The map of search results (docs/product/search.md) in a browser: clusters drawn over the map (no tiles in
// tests: a local address answers 404, the clusters come anyway), a cluster zooms in, a marker opens
// the ad's card and the card the ad; Back returns to the same place; a city from the filters moves
// the map there. The ads are written straight into the database (this spec is about the map, not
// about placing them).
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expectAccessible, open } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

const DAY = 86_400_000;
let placed = 0;

/** Four published Toyotas (three in Tripoli, one in Benghazi) whose titles share a word of their own. */
function placeAds() {
  const tag = `m${Date.now().toString(36)}${placed++}`;
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'), { timeout: 5000 });
  try {
    const one = <T>(query: string, ...args: (string | number)[]) => db.prepare(query).get(...args) as T;
    const toyota = one<{ id: number; taxonomy_id: number }>(
      "select id, taxonomy_id from categories where slug = 'toyota'",
    );
    const city = (slug: string) => one<{ id: number }>('select id from cities where slug = ?', slug).id;
    const now = new Date().toISOString();
    const insert = db.prepare(
      `insert into ads (taxonomy_id, category_id, slug, title, description, price, currency, price_type, city_id,
         status, published_at, bumped_at, expires_at, updated_at)
       values (?, ?, ?, ?, ?, ?, 'LYD', 'fixed', ?, 'published', ?, ?, ?, ?) returning id`,
    );
    const text = db.prepare('insert into ad_search (ad_id, title, body) values (?, ?, ?)');
    const place = (title: string, citySlug: string, price: number) => {
      const { id } = insert.get(
        toyota.taxonomy_id,
        toyota.id,
        `toyota-map-${tag}`,
        title,
        'A car placed for the map test, in good condition.',
        price,
        city(citySlug),
        now,
        now,
        new Date(Date.now() + 20 * DAY).toISOString(),
        now,
      ) as { id: number };
      text.run(id, title.toLowerCase(), 'a car placed for the map test');
      return id;
    };
    return {
      tag,
      tripoli: [1, 2, 3].map((i) => place(`Toyota map ${tag} Tripoli ${i}`, 'tripoli', 30_000 + i)),
      benghazi: place(`Toyota map ${tag} Benghazi`, 'benghazi', 52_000),
    };
  } finally {
    db.close();
  }
}

/** Clicks clusters until a marker shows (each click zooms to the cluster's ads). */
async function zoomToAMarker(page: Page) {
  const markers = page.getByRole('button', { name: 'Ad: show its preview' });
  for (let i = 0; i < 8 && (await markers.count()) === 0; i++) {
    const status = await page.getByRole('status').first().textContent();
    await page
      .getByRole('button', { name: /^[\d,]+ ads?$/ })
      .first()
      .click();
    // The next answer has come when the status has been redrawn.
    await expect(page.getByRole('status').first()).not.toHaveText('Loading ads…');
    if (status === (await page.getByRole('status').first().textContent())) await page.waitForTimeout(300);
  }
  await expect(markers.first()).toBeVisible();
  return markers;
}

test('the map shows clusters; a cluster zooms in, a marker opens the card and the card the ad', async ({ page }) => {
  const ads = placeAds();
  const { tag } = ads;
  // The map is drawn in steps a task apart: its credit line is never seen without the tiles' credit
  // (Leaflet's own link alone would be a small tap target outside any sentence).
  await page.addInitScript(() => {
    const seen = window as unknown as { creditAlone?: string };
    new MutationObserver(() => {
      const credit = document.querySelector('.leaflet-control-attribution');
      if (credit && !credit.textContent?.includes('OpenStreetMap')) seen.creditAlone = credit.textContent ?? '';
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await open(page, '/en/posts/map');
  await expect(page.getByRole('heading', { name: 'Ads on the map', level: 1 })).toBeVisible();
  const map = page.getByRole('region', { name: 'Map of ads' });
  await expect(map).toBeVisible();
  await expect(page.getByRole('status').first()).toHaveText(/\d+ ads? in this area/);
  await expect(map.locator('.leaflet-control-attribution')).toContainText('OpenStreetMap');
  expect(await page.evaluate(() => (window as unknown as { creditAlone?: string }).creditAlone)).toBeUndefined();
  const cluster = page.getByRole('button', { name: /^[\d,]+ ads$/ }).first();
  await expect(cluster).toBeVisible();
  await expectAccessible(page);

  // This test's ads only (typed in the text box: the map stays where it is), down to single ads,
  // then one ad's card, then the ad.
  const filters = page.getByRole('search', { name: 'Filters' });
  await filters.getByRole('searchbox', { name: 'Search' }).fill(tag);
  await filters.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}`));
  await expect(page.getByRole('status').first()).toHaveText(/^[1-4] ads? in this area$/);
  // A move writes where the map looks into the address (no navigation).
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page).toHaveURL(/view=32\.\d+,13\.\d+,8/);
  await expect(page.getByRole('status').first()).toHaveText(/^[1-4] ads? in this area$/);
  const markers = await zoomToAMarker(page);
  await markers.first().click();
  const preview = page.getByRole('region', { name: 'Ad preview' });
  await expect(preview).toBeFocused();
  const card = preview.getByRole('link', { name: new RegExp(`Toyota map ${tag}`) });
  await expect(card).toBeVisible();
  await expect(preview).toContainText('LYD');
  const mapUrl = page.url();
  await card.click();
  await expect(page).toHaveURL(new RegExp(`/en/motors/toyota/toyota-map-${tag}-(${ads.tripoli.join('|')})$`));
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`Toyota map ${tag} Tripoli`) })).toBeVisible();

  // Back: the same place on the map, not Libya from afar.
  await page.goBack();
  await expect(page).toHaveURL(mapUrl);
  await expect(page.getByRole('status').first()).toHaveText(/\d+ ads? in this area/);
  await expect(page.getByRole('button', { name: 'Ad: show its preview' }).first()).toBeVisible();
});

test('the filters narrow the map, a city moves it there, and the list keeps the query', async ({ page }) => {
  const ads = placeAds();
  const { tag } = ads;
  await open(page, `/en/posts/map?q=${encodeURIComponent(`map ${tag}`)}`);
  await expect(page.getByRole('status').first()).toHaveText(/\d+ ads? in this area/);
  const filters = page.getByRole('search', { name: 'Filters' });
  await filters.getByRole('combobox', { name: 'City' }).selectOption({ label: 'Benghazi' });
  await filters.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'All of Motors' });
  await filters.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/[?&]city=benghazi/);
  await expect(page).toHaveURL(/[?&]taxonomy=motors/);
  await expect(page.getByRole('status').first()).toHaveText('1 ad in this area');
  await page.getByRole('button', { name: 'Ad: show its preview' }).click();
  const preview = page.getByRole('region', { name: 'Ad preview' });
  await expect(preview.getByRole('link', { name: new RegExp(`Toyota map ${tag} Benghazi`) })).toHaveAttribute(
    'href',
    `/en/motors/toyota/toyota-map-${tag}-${ads.benghazi}`,
  );
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
  await expect(page.getByRole('link', { name: 'Show as a list' })).toHaveAttribute(
    'href',
    `/en/posts?q=map+${tag}&taxonomy=motors&city=benghazi`,
  );
});

test('Arabic: right to left, Arabic words and digits on the clusters @phone', async ({ page }) => {
  placeAds();
  await open(page, '/posts/map');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { name: 'الإعلانات على الخريطة', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').first()).toHaveText(/في هذه المنطقة/);
  await expect(page.getByRole('button', { name: /إعلان/ }).first()).toBeVisible();
  // The map fills the screen below the header, and nothing is wider than the screen.
  const box = await page.getByRole('region', { name: 'خريطة الإعلانات' }).boundingBox();
  const viewport = page.viewportSize() as { width: number; height: number };
  expect(box?.height ?? 0).toBeGreaterThan(viewport.height * 0.4);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
});
