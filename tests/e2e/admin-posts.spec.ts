import { expect, test } from '@playwright/test';
import { expectAccessible, open } from './support/helpers.ts';

test('a moderator approves a pending ad from the queue, accessible in light and dark @phone', async ({
  page,
  browser,
  baseURL,
}) => {
  // An ad waiting for review, placed by posting the ad form as the browser does without JavaScript.
  // The demo super admin places it: other specs use the member account's free allowance.
  const owner = await browser.newContext({ baseURL });
  const headers = { origin: baseURL as string };
  const login = await owner.request.post('/en/login', {
    form: { login: 'admin@souq.test', password: 'password123' },
    headers,
    maxRedirects: 0,
  });
  expect(login.status()).toBe(302);
  const cities = (await (await owner.request.get('/api/cities')).json()) as { data: { id: number; slug: string }[] };
  const title = `Corolla for review ${Date.now().toString(36)}`;
  const placed = await owner.request.post('/en/place-your-ad/motors/cars/toyota', {
    form: {
      title,
      description: 'Clean car, one owner, full service history; seen in Souq al-Juma.',
      price_type: 'fixed',
      price: '45000',
      currency: 'LYD',
      city: String(cities.data.find((c) => c.slug === 'tripoli')?.id),
      'attrs.year': '2015',
      'attrs.model': 'corolla',
      contact_phone: 'on',
      submission_key: `e2e-${title}`,
    },
    headers,
    maxRedirects: 0,
  });
  expect(placed.status()).toBe(302);
  expect(placed.headers().location).toMatch(/status=pending$/);
  await owner.close();

  await open(page, '/en/login?redirect=%2Fen%2Fadmin%2Fposts');
  await page.getByLabel('Email or phone number').fill('moderator@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Ads moderation', level: 1 })).toBeVisible();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  // On wide screens the queue is a table, on phones a list of cards: the same names either way.
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Pending review' })).toHaveAttribute('aria-current', 'page');
  await expectAccessible(page);

  await page.getByRole('button', { name: `Approve: ${title}` }).click();
  await expect(page.getByRole('status')).toContainText('1 ad approved and published.');
  await expect(page.getByRole('link', { name: title })).toHaveCount(0);

  await page.getByRole('link', { name: /^Published/ }).click();
  await expect(page).toHaveURL(/\/en\/admin\/posts\?status=published$/);
  await expect(page.getByRole('link', { name: title })).toBeVisible();

  // Arabic, right to left, in dark mode: the queue and the ad's review page with its history.
  await page.evaluate(() => localStorage.setItem('nuxt-color-mode', 'dark'));
  await open(page, '/admin/posts?status=published');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('heading', { name: 'مراجعة الإعلانات', level: 1 })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText('قيد المراجعة ← منشور')).toBeVisible();
  await expectAccessible(page);
});
