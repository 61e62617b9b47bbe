// Every visible control of the main pages is at least 44 × 44 CSS px on a 390 px phone, in both
// languages (docs/product/site.md, "Tap targets and contrast"; exemptions in support/tap-targets.ts).

import { open, placeAdAsAdmin } from './support/helpers.ts';
import { smallTargets } from './support/tap-targets.ts';
import { expect, test } from './support/test.ts';

test.use({ viewport: { width: 390, height: 844 } });

const PUBLIC = ['/', '/posts', '/motors', '/motors/cars', '/login', '/register', '/faq', '/contact'];

test('every control of the public pages is a 44 px tap target on a phone @phone', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const ad = await placeAdAsAdmin(browser, baseURL, { title: 'Toyota Corolla 2015 for tap targets', approve: true });
  for (const path of [...PUBLIC, ad.path]) {
    for (const prefix of ['', '/en']) {
      const url = prefix && path === '/' ? '/en' : `${prefix}${path}`;
      await open(page, url);
      expect(await smallTargets(page), url).toEqual([]);
    }
  }
});

test('every control of My ads and the ad form is a 44 px tap target on a phone @phone', async ({ page }) => {
  test.setTimeout(120_000);
  await open(page, '/en/login');
  await page.getByLabel('Email or phone number').fill('user@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  for (const path of ['/profile/posts', '/profile', '/place-your-ad']) {
    for (const prefix of ['', '/en']) {
      await open(page, `${prefix}${path}`);
      expect(await smallTargets(page), `${prefix}${path}`).toEqual([]);
    }
  }
});
