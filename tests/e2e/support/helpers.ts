import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Opens a page and waits until React has hydrated it. */
export async function open(page: Page, path: string) {
  const res = await page.goto(path);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  return res;
}

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
