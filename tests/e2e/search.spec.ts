// Search and browse (docs/product/search.md): a buyer finds an Arabic ad by a spelling with harakat from
// the header's search box, and the filters (price, an attribute) narrow the count — on a desktop
// side panel and in the phone's drawer. The ads are written straight into the database: what is
// checked here is finding them.

import { expectAccessible, open } from './support/helpers.ts';
import { seedAds } from './support/seed-ads.ts';
import { expect, type Page, test } from './support/test.ts';

interface Seeded {
  tag: string;
  ids: number[];
}

/** Three published Toyotas in Tripoli sharing a made-up word (so each run finds only its own). */
function seed(): Seeded {
  const tag = `zq${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const ads: [string, number, number][] = [
    [`تويوتا كورولا ${tag} نظيفة جداً`, 45000, 2015],
    [`Toyota Camry ${tag} full options`, 90000, 2020],
    [`Toyota Yaris ${tag} economic`, 30000, 2019],
  ];
  const ids = seedAds(
    ads.map(([title, price, year]) => ({ category: 'toyota', title, price, city: 'tripoli', numbers: { year } })),
  );
  return { tag, ids };
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
  await expect(drawer.getByRole('button', { name: 'Show 3 ads' })).toBeVisible();
  await drawer.locator('#drawer-price-min').fill('40000');
  // The button counts what the filters as set would show, before they are applied.
  await drawer.getByRole('button', { name: 'Show 2 ads' }).click();
  await expect(count(page)).toHaveText('2 ads');
  await expect(drawer).toBeHidden();
  await expectAccessible(page);
});
