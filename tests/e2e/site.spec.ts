import { expectAccessible, open, placeAdAsAdmin } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('home in Arabic is right-to-left with the catalogue @phone', async ({ page }) => {
  await open(page, '/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar-LY');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page).toHaveTitle('الرئيسية | سوق — إعلانات مبوبة في ليبيا');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /سيارات|المركبات/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'طرابلس', exact: true })).toBeVisible();
  await expectAccessible(page);
});

test('home in English is left-to-right @phone', async ({ page }) => {
  await open(page, '/en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('link', { name: /^Motors/ })).toBeVisible();
  await expectAccessible(page);
});

test('the search box submits to /posts with the query', async ({ page }) => {
  await open(page, '/en');
  const box = page.getByRole('combobox', { name: 'Search ads' }).first();
  await box.fill('toyota');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/en\/posts\?q=toyota$/);
});

test('the language switch keeps the page and is remembered', async ({ page, context }) => {
  await open(page, '/faq');
  await page.getByTestId('language-switch').first().click();
  await expect(page).toHaveURL(/\/en\/faq$/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  const cookie = (await context.cookies()).find((c) => c.name === 'locale');
  expect(cookie?.value).toBe('en');
  expect(cookie && cookie.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
  await open(page, '/');
  await expect(page).toHaveURL(/\/en$/);
  await page.getByTestId('language-switch').first().click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
});

test('dark mode: chosen once, painted dark from the first frame on the next visit', async ({ page }) => {
  await open(page, '/en');
  const toggle = page.getByTestId('color-mode').first();
  // Steps light → dark → system from wherever the visitor's system setting starts.
  for (let i = 0; i < 3 && (await toggle.getAttribute('data-mode')) !== 'dark'; i++) await toggle.click();
  await expect(toggle).toHaveAttribute('data-mode', 'dark');
  await expect(toggle).toHaveAccessibleName(/Colour mode: Dark/);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await page.evaluate(() => localStorage.getItem('nuxt-color-mode'))).toBe('dark');

  // Record the scheme at the moment <body> first exists, before any paint of it.
  await page.addInitScript(() => {
    const w = window as unknown as { __firstScheme?: string | null };
    new MutationObserver((_, obs) => {
      if (document.body && w.__firstScheme === undefined) {
        w.__firstScheme = document.documentElement.getAttribute('data-mantine-color-scheme');
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await open(page, '/en/about');
  expect(await page.evaluate(() => (window as unknown as { __firstScheme?: string }).__firstScheme)).toBe('dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).not.toBe('rgb(255, 255, 255)');
  await expectAccessible(page);

  // "system" is stored as Nuxt stored it.
  await page.getByTestId('color-mode').first().click();
  await expect(page.getByTestId('color-mode').first()).toHaveAttribute('data-mode', 'system');
  expect(await page.evaluate(() => localStorage.getItem('nuxt-color-mode'))).toBe('system');
});

test('unknown pages show the 404 page in the current language', async ({ page }) => {
  const res = await open(page, '/en/this/does/not/exist');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL(/\/en$/);
  const ar = await open(page, '/لا-توجد');
  expect(ar?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'الصفحة غير موجودة' })).toBeVisible();
});

test('browsing a taxonomy and a category with breadcrumbs @phone', async ({ page, browser, baseURL }) => {
  // A published Toyota of its own: the worker's site may have no other ad yet (./support/test.ts).
  await placeAdAsAdmin(browser, baseURL, { title: 'Toyota Corolla 2015 for breadcrumbs', approve: true });
  await open(page, '/en');
  await page.getByRole('link', { name: /^Motors/ }).click();
  await expect(page).toHaveURL(/\/en\/motors$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Motors' })).toBeVisible();
  await page.getByRole('link', { name: /^Cars/ }).click();
  await expect(page).toHaveURL(/\/en\/motors\/cars$/);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
  await expect(crumbs.getByRole('link', { name: 'Motors' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Cars' })).toBeVisible();
  // Its subcategories as links with their counts, and its ads counted.
  await expect(page.getByRole('link', { name: /^Toyota/ })).toBeVisible();
  await expect(page.getByTestId('result-count')).toHaveText(/^\d[\d,]* ads?$/);
  await expectAccessible(page);
  await open(page, '/motors/cars');
  await expect(page.getByRole('navigation', { name: 'مسار التنقل' })).toBeVisible();
  await expectAccessible(page);
});

test('contact form: errors next to the fields, then a thank-you', async ({ page }) => {
  await open(page, '/en/contact');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('The name field is required')).toBeVisible();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Email').blur();
  await expect(page.getByText('The email field must be a valid email')).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Name').fill('Huda');
  await page.getByLabel('Email').fill('huda@example.ly');
  await page.getByLabel('Subject').selectOption('general');
  await page.getByLabel('Message').fill('Is posting an ad free for everyone?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you, we have your message' })).toBeVisible();
  await expectAccessible(page);
});

test('contact form in Arabic shows Arabic errors', async ({ page }) => {
  await open(page, '/contact');
  await page.getByRole('button', { name: 'إرسال الرسالة' }).click();
  await expect(page.getByText('حقل الاسم مطلوب')).toBeVisible();
});

test('a newer build turns the next navigation into a full page load', async ({ page }) => {
  await open(page, '/en');
  const marker = () => page.evaluate(() => (window as unknown as { __marker?: boolean }).__marker === true);
  await page.evaluate(() => {
    (window as unknown as { __marker?: boolean }).__marker = true;
  });
  // Same build: client-side navigation keeps the page alive.
  await page.getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL(/\/en\/faq$/);
  expect(await marker()).toBe(true);

  // The server now announces another build.
  await page.route('**/builds/latest.json*', (route) =>
    route.fulfill({ json: { id: 'a-newer-build', time: new Date().toISOString() } }),
  );
  const polled = page.waitForResponse((r) => r.url().includes('/builds/latest.json'));
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await polled;
  const fullLoad = page.waitForEvent('load');
  await page.getByRole('link', { name: 'About us' }).click();
  await fullLoad;
  await expect(page).toHaveURL(/\/en\/about$/);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  expect(await marker()).toBe(false);
});

test('a page from the page cache runs its inline scripts under a CSP of hashes, without violations', async ({
  browser,
}) => {
  // The first visit renders the page afresh (an entry an earlier test left may be about to expire)
  // and the page cache keeps it; the second is a hit.
  for (const visit of ['first', 'second']) {
    const context = await browser.newContext(
      visit === 'first' ? { extraHTTPHeaders: { 'cache-control': 'no-cache' } } : {},
    );
    const page = await context.newPage();
    await page.addInitScript(() => {
      const list: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = list;
      document.addEventListener('securitypolicyviolation', (e) => list.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const res = await page.goto('/en/faq');
    await page.waitForLoadState('networkidle');
    if (visit === 'second') {
      expect(res?.headers()['x-page-cache']).toBe('hit');
      expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
    }
    // React Router's context is set by an inline script: blocked, it would be missing.
    expect(
      await page.evaluate(() => typeof (window as unknown as { __reactRouterContext?: unknown }).__reactRouterContext),
    ).toBe('object');
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    await context.close();
  }
});

test('hydration adds its script preloads only once the page has painted, on a slow phone too', async ({ page }) => {
  // Each modulepreload link the page adds, with whether a paint had been recorded by then
  // (app/lib/hydrate-after-load.server.ts).
  await page.addInitScript(() => {
    const added: boolean[] = [];
    (window as unknown as { preloadsAfterPaint: boolean[] }).preloadsAfterPaint = added;
    new MutationObserver((records) => {
      for (const r of records)
        for (const node of r.addedNodes)
          if (node instanceof HTMLLinkElement && node.rel === 'modulepreload')
            added.push(performance.getEntriesByType('paint').length > 0);
    }).observe(document, { childList: true, subtree: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  for (const path of ['/en/posts', '/', '/en', '/posts']) {
    await page.goto(path);
    const added = () =>
      page.evaluate(() => (window as unknown as { preloadsAfterPaint: boolean[] }).preloadsAfterPaint);
    await expect.poll(async () => (await added()).length, { timeout: 15_000 }).toBeGreaterThan(5);
    expect(await added()).not.toContain(false);
  }
});
