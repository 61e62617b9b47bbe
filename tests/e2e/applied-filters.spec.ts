// The applied filters of a listing (docs/product-notes.md, "Search and browse"): on a phone, two
// filters set in the drawer (whose button counts live) become two chips and the Filters button's
// count; one chip's × removes just it, "clear all" the rest. A long facet row, and a long list of
// an attribute's options in the filters panel, fold behind "show more" and narrow as one types
// Arabic, whatever the spelling of alef, taa marbuta or alef maqsura.

import { expectAccessible, open } from './support/helpers.ts';
import { seedAds } from './support/seed-ads.ts';
import { expect, type Page, test } from './support/test.ts';

const count = (page: Page) => page.getByTestId('result-count');
const chips = (page: Page) => page.getByTestId('applied-filters').locator('[data-filter]');

test('on a phone, two filters become two chips and a count; one is removed, then all @phone', async ({
  page,
  isMobile,
}) => {
  test.skip(!isMobile, 'the drawer and the count on its button are the phone layout');
  test.setTimeout(90_000);
  // Prices no other ad has: the filters below find only this run's three.
  const base = 7_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
  seedAds([
    { category: 'toyota', title: 'Toyota Corolla chips one', price: base + 1, city: 'tripoli' },
    { category: 'toyota', title: 'Toyota Corolla chips two', price: base + 2, city: 'tripoli' },
    { category: 'toyota', title: 'Toyota Corolla chips three', price: base + 3, city: 'benghazi' },
  ]);
  await open(page, '/en/posts');
  await expect(page.getByTestId('applied-filters')).toHaveCount(0);
  await page.getByRole('button', { name: 'Filters' }).click();
  const drawer = page.getByRole('dialog', { name: 'Filters' });
  await drawer.locator('#drawer-price-min').fill(String(base));
  await drawer.locator('#drawer-price-max').fill(String(base + 9));
  // The drawer's button counts as the filters are set, and stays in view at the bottom.
  await expect(drawer.getByRole('button', { name: 'Show 3 ads' })).toBeVisible();
  await drawer.locator('#drawer-city').selectOption('tripoli');
  const show = drawer.getByRole('button', { name: 'Show 2 ads' });
  await expect(show).toBeInViewport();
  await show.click();
  await expect(drawer).toBeHidden();
  await expect(count(page)).toHaveText('2 ads');
  await expect(chips(page)).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Remove filter: Tripoli' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Filters, 2 applied' })).toBeVisible();
  await expect(page.getByTestId('filters-count')).toHaveText('2');
  await expectAccessible(page);

  // The × of the city removes the city only.
  await page.getByRole('link', { name: 'Remove filter: Tripoli' }).click();
  await expect(page).not.toHaveURL(/city=/);
  await expect(count(page)).toHaveText('3 ads');
  await expect(chips(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Filters, 1 applied' })).toBeVisible();

  // The same in Arabic, then "clear all".
  await open(page, `/posts?city=tripoli&price_min=${base}&price_max=${base + 9}`);
  await expect(chips(page)).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'التصفية، مرشحان مطبّقان' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'مسح الكل' }).click();
  await expect(page).toHaveURL(/\/posts$/);
  await expect(page.getByTestId('applied-filters')).toHaveCount(0);
  await expect(page.getByTestId('filters-count')).toHaveCount(0);
});

test('a long facet row folds behind "show more" and narrows as one types Arabic', async ({ page }) => {
  test.setTimeout(90_000);
  const tag = `zf${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const cities = [
    'tripoli',
    'benghazi',
    'misrata',
    'zawiya',
    'sabha',
    'zliten',
    'bayda',
    'tobruk',
    'ajdabiya',
    'khoms',
  ];
  seedAds(cities.map((city, i) => ({ category: 'toyota', title: `Toyota ${tag} ${i}`, price: 10_000 + i, city })));
  await open(page, `/posts?q=${tag}`);
  const row = page.getByRole('list', { name: 'المدن' });
  await expect(row.first().getByRole('link')).toHaveCount(8);
  const more = page.getByText('عرض المزيد (2)');
  await more.click();
  const box = page.getByRole('searchbox', { name: 'ابحث في المدن' });
  // Without the hamza: أجدابيا.
  await box.fill('اجدابيا');
  const found = page.locator('details').getByRole('list', { name: 'المدن' }).getByRole('link');
  await expect(found).toHaveText(['أجدابيا(1)']);
  // A haa for the taa marbuta: الزاوية.
  await box.fill('الزاويه');
  await expect(found).toHaveText(['الزاوية(1)']);
  // English names match on Arabic pages too.
  await box.fill('Misr');
  await expect(found).toHaveText(['مصراتة(1)']);
  await box.fill('xyz');
  await expect(found).toHaveCount(0);
  await expect(page.getByText('لا شيء هنا يطابق ما كتبته.')).toBeVisible();
  await box.fill('');
  await expect(found).toHaveCount(2);
  await expectAccessible(page);
  await open(page, `/en/posts?q=${tag}`);
  await page.getByText('Show more (2)').click();
  await expectAccessible(page);
});

test("an attribute's long list of options folds and narrows the same way; a choice from it applies", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const tag = `zc${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  seedAds([{ category: 'toyota', title: `Toyota ${tag}`, price: 10_000, city: 'tripoli' }]);
  await open(page, `/motors/cars?q=${tag}`);
  const panel = page.getByRole('complementary');
  const colours = panel.getByRole('group', { name: 'اللون' });
  // Every checkbox is in the form, eight in view.
  await expect(colours.locator('input[type="checkbox"]')).toHaveCount(13);
  await expect(colours.getByRole('checkbox')).toHaveCount(8);
  await expect(colours.getByRole('checkbox', { name: 'ذهبي' })).toBeHidden();
  // An alef maqsura for the yaa: ذهبي, folded until then.
  await colours.getByRole('searchbox', { name: 'ابحث في اللون' }).fill('ذهبى');
  await expect(colours.getByRole('checkbox', { name: 'ذهبي' })).toBeVisible();
  await expect(colours.getByRole('checkbox', { name: 'أبيض' })).toBeHidden();
  await colours.getByRole('checkbox', { name: 'ذهبي' }).check();
  await panel.getByRole('button', { name: 'اعرض النتائج' }).click();
  await expect(page).toHaveURL(/f\.colour=gold/);
  await expect(page.getByRole('link', { name: 'إزالة المرشح: ذهبي' })).toBeVisible();
  await expectAccessible(page);
});
