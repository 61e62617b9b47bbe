// Contrast and colour in both colour modes (docs/product/site.md, "Tap targets and contrast"): axe
// finds no serious or critical violation on the main pages in light and dark mode, in both
// languages, and links inside running text are underlined rather than told apart by colour alone.

import { expectAccessible, open, placeAdAsAdmin } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

const PAGES = ['/', '/posts', '/motors/cars', '/login', '/posts/map'];

for (const mode of ['light', 'dark'] as const) {
  test(`axe passes in ${mode} mode on home, listings, a category, an ad, login and the map @phone`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const ad = await placeAdAsAdmin(browser, baseURL, { title: `Toyota Corolla 2015 in ${mode} mode`, approve: true });
    await page.addInitScript((m) => localStorage.setItem('nuxt-color-mode', m), mode);
    for (const path of [...PAGES, ad.path]) {
      for (const prefix of ['', '/en']) {
        const url = prefix && path === '/' ? '/en' : `${prefix}${path}`;
        await open(page, url);
        await expect(page.locator('html'), url).toHaveAttribute('data-mantine-color-scheme', mode);
        await expectAccessible(page);
      }
    }
  });
}

test('links inside running text are underlined @phone', async ({ page }) => {
  for (const url of ['/faq', '/en/login']) {
    await open(page, url);
    const inline = await page.evaluate(() =>
      Array.from(document.querySelectorAll('main p a[href], main li a[href]'))
        .filter((a) => {
          const block = a.closest('p, li');
          return block && (block.textContent ?? '').trim() !== (a.textContent ?? '').trim();
        })
        .map((a) => ({ text: a.textContent, line: getComputedStyle(a).textDecorationLine })),
    );
    for (const link of inline) expect(link.line, `${url}: ${link.text}`).toContain('underline');
  }
});
