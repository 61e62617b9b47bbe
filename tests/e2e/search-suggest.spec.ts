// Suggestions while typing (docs/product/search.md, "Suggestions"): a buyer types part of a make in
// Arabic in the home page's search box, the list offers the make's category with its ads, the
// keyboard picks it and lands on the category's page; Escape closes the list, and without a pick
// the box submits a plain search. The ads are written straight into the database.

import { expectAccessible, open } from './support/helpers.ts';
import { seedAds } from './support/seed-ads.ts';
import { expect, test } from './support/test.ts';

// Two published Hyundai ads: the make's category then has ads to count.
test.beforeAll(() => {
  seedAds([
    { category: 'hyundai', title: 'هيونداي النترا نظيفة', price: 20000, city: 'benghazi' },
    { category: 'hyundai', title: 'Hyundai Tucson 2018', price: 30000, city: 'benghazi' },
  ]);
});

test('typing in Arabic suggests the category; the keyboard picks it and lands on its page @phone', async ({ page }) => {
  await open(page, '/');
  const box = page.locator('#home-search');
  await expect(box).toHaveAttribute('role', 'combobox');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await box.click();
  // Typed one letter at a time, as people do (each key restarts the wait before asking).
  await box.pressSequentially('هيون', { delay: 120 });
  const list = page.getByRole('listbox');
  await expect(list).toBeVisible();
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await expect(box).toHaveAttribute('aria-controls', (await list.getAttribute('id')) as string);
  const category = list.getByRole('option').first();
  await expect(category).toContainText('هيونداي');
  await expect(category).toContainText('في سيارات');
  // Rows are tap targets.
  expect((await category.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  await box.press('ArrowDown');
  await expect(category).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await category.getAttribute('id')) as string);
  await expectAccessible(page);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/motors\/hyundai$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('هيونداي');
});

test('Escape closes the list, and Enter without a pick searches the text', async ({ page }) => {
  await open(page, '/en/posts');
  const box = page.locator('#side-q');
  await box.click();
  await box.pressSequentially('hyun', { delay: 120 });
  await expect(page.getByRole('listbox').first()).toBeVisible();
  await box.press('Escape');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/en\/posts\?q=hyun$/);
});
