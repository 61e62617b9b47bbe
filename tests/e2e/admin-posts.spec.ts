import { expectAccessible, open, placeAdAsAdmin } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

test('a moderator approves a pending ad from the queue, accessible in light and dark @phone', async ({
  page,
  browser,
  baseURL,
}) => {
  // An ad waiting for review, placed by posting the ad form as the browser does without JavaScript.
  const title = `Corolla for review ${Date.now().toString(36)}`;
  expect((await placeAdAsAdmin(browser, baseURL, { title })).status).toBe('pending');

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
