// Banners end to end (docs/product/back-office.md, "Banners"): made in the back office with an
// uploaded image, shown in the home page's carousel to an anonymous visitor (whose browser reports
// the impression), clicked through the tracked redirect to the banner's own link, and counted on
// the banner's page. The banners are deleted at the end: the other journeys' home page has none.

import sharp from 'sharp';
import { expectAccessible, open } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

const RUN = Date.now().toString(36);
const libyaToday = () => new Date(Date.now() + 2 * 3_600_000).toISOString().slice(0, 10);

async function image(color: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 500, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

async function addBanner(page: Page, fields: { title: string; link: string; position: string; startsToday?: boolean }) {
  await open(page, '/en/admin/banners/new');
  await page.getByLabel('Title in Arabic').fill(`${fields.title} (ar)`);
  await page.getByLabel('Title in English').fill(fields.title);
  await page.getByLabel(/^Link/).fill(fields.link);
  await page.getByLabel('Placement').selectOption('home-hero');
  await page.getByLabel('Order').fill(fields.position);
  if (fields.startsToday) await page.getByLabel('First day').fill(libyaToday());
  await page
    .getByLabel('Arabic, wide screens')
    .setInputFiles({ name: 'banner.jpg', mimeType: 'image/jpeg', buffer: await image({ r: 11, g: 110, b: 79 }) });
  await page.getByRole('button', { name: 'Add banner' }).click();
  await expect(page.getByRole('heading', { name: fields.title, level: 1 })).toBeVisible();
  await expect(page.getByText('Showing', { exact: true })).toBeVisible();
  return Number(/\/admin\/banners\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
}

test('a banner scheduled for today shows in the home carousel and its click is counted', async ({ page, browser }) => {
  await open(page, '/en/login?redirect=%2Fen%2Fadmin%2Fbanners');
  await page.getByLabel('Email or phone number').fill('admin@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toHaveCount(0);
  await open(page, '/en/admin/banners');
  await expect(page.getByRole('heading', { name: 'Banners', level: 1 })).toBeVisible();

  const title = `Spring offers ${RUN}`;
  const id = await addBanner(page, { title, link: '/about', position: '0', startsToday: true });
  const other = await addBanner(page, { title: `Second banner ${RUN}`, link: 'https://example.ly/', position: '1' });
  await expectAccessible(page);

  // An anonymous visitor: the hero holds two banners, so it becomes the carousel once hydrated.
  const visitor = await browser.newContext();
  const home = await visitor.newPage();
  const reported = home.waitForRequest(
    (r) =>
      r.url().endsWith('/api/banners/impressions') &&
      r.method() === 'POST' &&
      (r.postData() ?? '').includes(String(id)),
  );
  await open(home, '/en');
  const hero = home.getByTestId('hero-banners');
  await expect(hero.getByTestId('hero-carousel')).toBeVisible();
  const banner = hero.getByRole('link', { name: title });
  await expect(banner).toBeVisible();
  await expect(hero.getByRole('button', { name: 'Next banner' })).toBeVisible();
  // The first banner is seen: the browser reports it (a beacon, a moment later).
  await reported;
  await banner.click();
  await expect(home).toHaveURL(/\/en\/about$/);
  await visitor.close();

  // The banner's page counts the impression and the click, today.
  await open(page, `/en/admin/banners/${id}`);
  const figures = page.getByRole('region', { name: 'Figures' });
  await expect(figures.getByText('1 click', { exact: true })).toBeVisible();
  await expect(figures.getByText(/^[1-9]\d* impressions?$/)).toBeVisible();
  const today = page.locator(`tr[data-day="${libyaToday()}"]`);
  await expect(today.locator('td').nth(2)).toHaveText('1');

  // Deleted again, asking first; gone from the home page at once (the page cache is told).
  for (const banner of [id, other]) {
    await open(page, `/en/admin/banners/${banner}`);
    await page.getByText('Delete banner').first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete banner' }).click();
    await expect(page.getByRole('heading', { name: 'Banners', level: 1 })).toBeVisible();
  }
  const after = await browser.newContext();
  const again = await after.newPage();
  await open(again, '/en');
  await expect(again.getByTestId('hero-banners')).toHaveCount(0);
  await after.close();
});
