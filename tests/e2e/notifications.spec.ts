import { expectAccessible, open, placeAdAsMember, signUpMember } from './support/helpers.ts';
import { smallTargets } from './support/tap-targets.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * Resolves once the page's realtime client is subscribed to the member's channel (its WebSocket
 * receives the subscription's success), so what is published next reaches it.
 */
function subscribed(page: Page) {
  return page
    .waitForEvent('websocket', (ws) => ws.url().includes('/app/souq-key'))
    .then((ws) =>
      ws.waitForEvent('framereceived', (f) => String(f.payload).includes('pusher_internal:subscription_succeeded')),
    );
}

test('the bell rises without a reload when a moderator approves the member’s ad; mark all read clears it @phone', async ({
  page,
  browser,
  baseURL,
  isMobile,
}) => {
  // The member, in this page's context: a new account with an ad waiting for review.
  await signUpMember(page.context(), baseURL, 'Notified Member');
  const title = `Corolla awaiting review ${Date.now().toString(36)}`;
  const ad = await placeAdAsMember(page.context(), baseURL, { title });
  expect(ad.status).toBe('pending');

  // Arabic first, on the home page (which reloads nothing by itself): no count yet.
  const ready = subscribed(page);
  await open(page, '/');
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAttribute('data-count', '0');
  await expect(bell).toHaveAccessibleName('الإشعارات');
  await ready;

  // A moderator approves it, in a browser context of their own.
  const staff = await browser.newContext({ baseURL });
  const queue = await staff.newPage();
  await open(queue, '/en/login?redirect=%2Fen%2Fadmin%2Fposts');
  await queue.getByLabel('Email or phone number').fill('moderator@souq.test');
  await queue.locator('input[name="password"]').fill('password123');
  await queue.getByRole('button', { name: 'Log in' }).click();
  await expect(queue.getByRole('heading', { name: 'Ads moderation', level: 1 })).toBeVisible();
  await queue.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await queue.getByRole('button', { name: `Approve: ${title}` }).click();
  await expect(queue.getByRole('status')).toContainText('1 ad approved and published.');
  await staff.close();

  // The member's open page: the counter rises without a reload.
  await expect(bell).toHaveAttribute('data-count', '1');
  await expect(bell).toHaveAccessibleName('الإشعارات: إشعار واحد غير مقروء');
  await expect(bell.getByText('1', { exact: true })).toBeVisible();

  // The bell opens the list: the approval, in Arabic words, unread.
  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { name: 'الإشعارات', level: 1 })).toBeVisible();
  const item = page.getByTestId('notification');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('تمت الموافقة على إعلانك وهو منشور الآن');
  await expect(item).toContainText(title);
  await expect(item).toContainText('غير مقروء');
  await expect(page.getByText('لديك إشعار واحد غير مقروء.')).toBeVisible();
  await expectAccessible(page);
  // On a phone every control (the bell, the item's link, "mark as read", "mark all") is a 44 px target.
  if (isMobile) expect(await smallTargets(page)).toEqual([]);

  // In English, dark: the same notification, in its words, linking to the member's page of the ad.
  await page.evaluate(() => localStorage.setItem('nuxt-color-mode', 'dark'));
  await open(page, '/en/notifications');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByTestId('notification-bell')).toHaveAccessibleName('Notifications: 1 unread');
  await expect(
    page.getByRole('link', { name: new RegExp(`Your ad was approved and is live\\s*${title}`) }),
  ).toHaveAttribute('href', new RegExp(`^/en/profile/posts/motors/toyota/.+-${ad.id}$`));
  await expectAccessible(page);

  // Mark all read: the counter clears, a toast says so.
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(page.getByTestId('flash')).toContainText('All your notifications are marked as read.');
  await expect(page.getByTestId('notification-bell')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('notification-bell')).toHaveAccessibleName('Notifications');
  await expect(page.getByText('You have read all your notifications.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
});
