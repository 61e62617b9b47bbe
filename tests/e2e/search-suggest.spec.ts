// Suggestions while typing (docs/product/search.md, "Suggestions"): a buyer types part of a make in
// Arabic in the home page's search box, the list offers the make's category with its ads, the
// keyboard picks it and lands on the category's page; Escape closes the list, and without a pick
// the box submits a plain search. The ads are written straight into the database.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, test } from '@playwright/test';
import { expectAccessible, open } from './support/helpers.ts';

/** Two published Hyundai ads (the make's category then has ads to count). */
function seedHyundais() {
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'));
  try {
    const category = db.prepare("select id, taxonomy_id from categories where slug = 'hyundai'").get() as {
      id: number;
      taxonomy_id: number;
    };
    const city = db.prepare("select id from cities where slug = 'benghazi'").get() as { id: number };
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 20 * 86_400_000).toISOString();
    for (const title of ['هيونداي النترا نظيفة', 'Hyundai Tucson 2018']) {
      db.prepare(
        `insert into ads (taxonomy_id, category_id, slug, title, description, price, currency, price_type, city_id,
           status, bumped_at, published_at, expires_at, created_at, updated_at)
         values (?, ?, 'hyundai', ?, ?, 20000, 'LYD', 'fixed', ?, 'published', ?, ?, ?, ?, ?)`,
      ).run(category.taxonomy_id, category.id, title, `${title} للبيع`, city.id, now, now, later, now, now);
    }
  } finally {
    db.close();
  }
}

test.beforeAll(() => seedHyundais());

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
