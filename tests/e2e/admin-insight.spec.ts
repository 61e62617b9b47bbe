// The dashboard, the reports queue and the audit log in a browser (docs/product/back-office.md): a
// moderator reads the dashboard's charts and their table, resolves a member's report with a note,
// and finds the change in the revisions with its fields before and after — accessible in English
// and Arabic, light and dark.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expectAccessible, open } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/** An open report by the demo member about the super admin (as if sent from a chat); its id. */
function openReport(note: string): number {
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'));
  try {
    const row = db
      .prepare(
        `insert into reports (reporter_id, user_id, reason, note, status)
         select r.id, u.id, 'offensive', ?, 'open' from users r, users u
         where r.email = 'user@souq.test' and u.email = 'admin@souq.test' returning id`,
      )
      .get(note) as { id: number };
    return row.id;
  } finally {
    db.close();
  }
}

test('a moderator reads the dashboard, resolves a report and finds it in the revisions @phone', async ({ page }) => {
  const note = `Insults in the chat ${Date.now().toString(36)}`;
  const id = openReport(note);

  await open(page, '/en/login?redirect=%2Fen%2Fadmin');
  await page.getByLabel('Email or phone number').fill('moderator@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  // Each chart is named by its summary, and its figures open as a table.
  await expect(page.getByRole('img', { name: /New ads per day.*the last 30 days/ })).toBeVisible();
  await page.getByText('Show the figures as a table').first().click();
  await expect(page.getByRole('table').first().getByRole('row')).toHaveCount(31);
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Open reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expectAccessible(page);
  await page.goto(`/en/admin/reports/${id}`);
  await expect(page.getByText(note)).toBeVisible();
  await page.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByText('Write a note: what you found and what you did')).toBeVisible();
  await page.getByLabel(/Note for the team/).fill('Warned the member');
  await page.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('Saved.');

  // Arabic, right to left, in dark mode: the change in the audit log, field by field.
  await page.evaluate(() => localStorage.setItem('nuxt-color-mode', 'dark'));
  await open(page, `/admin/revisions?type=report&subject=${id}`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expectAccessible(page);
  await page.getByRole('link', { name: 'بلاغ: عولج' }).first().click();
  await expect(page.getByRole('heading', { name: 'بلاغ: عولج', level: 1 })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Warned the member' })).toBeVisible();
  await expectAccessible(page);
  await open(page, '/admin');
  await expectAccessible(page);
});
