// The dashboard, the audit log and the reports queue on the built server
// (docs/product/back-office.md, "Dashboard", "Revisions", "Reports"): what they show, bad input
// answered with 4xx and changing nothing, resolving a report (its revision and the reporter's
// notification), a report handled twice, and staff who may read reports but not handle them.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn } from '../support/members.ts';
import { serverSql as query } from '../support/server-db.ts';

async function signIn(login: string): Promise<Browser> {
  const b = browser();
  const res = await b.post('/en/login', { login, password: 'password123' });
  expect(res.status).toBe(302);
  return b;
}

const idOf = (email: string) => query<{ id: string }>('select id from users where email = ?', email)[0]?.id as string;

/** A fresh open report by user@souq.test about the super admin (a member report); its id. */
function openReport(note = 'Rude in chat'): number {
  return query<{ id: number }>(
    `insert into reports (reporter_id, user_id, reason, note, status) values (?, ?, 'offensive', ?, 'open') returning id`,
    idOf('user@souq.test'),
    idOf('admin@souq.test'),
    note,
  )[0]?.id as number;
}

const reportRow = (id: number) =>
  query<{ status: string; handled_by: string | null; resolution_note: string | null }>(
    'select status, handled_by, resolution_note from reports where id = ?',
    id,
  )[0];

let admin: Browser;
let moderator: Browser;

beforeAll(async () => {
  admin = await signIn('admin@souq.test');
  moderator = await signIn('moderator@souq.test');
});

describe('the dashboard', () => {
  it('shows the queue, reports, failed jobs, both charts with their tables, and top lists', async () => {
    const res = await admin.get('/en/admin');
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const words of [
      'Ads waiting for review',
      'Open reports',
      'Failed background jobs',
      'New ads per day',
      'New members per day',
      'Show the figures as a table',
      'Categories with the most live ads',
      'Cities with the most live ads',
    ]) {
      expect(html).toContain(words);
    }
    // The charts' text alternative: a summary naming the 30 days, and a table of 30 rows each.
    expect(html).toMatch(/in the last 30 days/);
    expect(html.match(/role="img"/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('is in Arabic at /admin', async () => {
    const html = await (await admin.get('/admin')).text();
    expect(html).toContain('إعلانات بانتظار المراجعة');
    expect(html).toContain('الإعلانات الجديدة يوميًا');
  });
});

describe('revisions', () => {
  it('lists revisions and filters them; values outside their shapes are ignored, never an error', async () => {
    const id = openReport();
    const res = await moderator.post(`/en/admin/reports/${id}`, { intent: 'dismiss', note: 'Checked the chat' });
    expect(res.status).toBe(302);
    const list = await (await admin.get(`/en/admin/revisions?type=report&subject=${id}`)).text();
    expect(list).toContain('Report: dismissed');
    expect(list).toContain(`Report ${id}`);
    for (const bad of [
      '?type=%27%20or%201%3D1',
      '?from=2026-02-30&to=not-a-day',
      '?actor=%3Cscript%3E',
      `?after=${'x'.repeat(500)}`,
      '?after=WzEsMl0',
      '?dir=sideways&sort=nope',
    ]) {
      const r = await admin.get(`/en/admin/revisions${bad}`);
      expect(r.status, bad).toBe(200);
      await r.arrayBuffer();
    }
    const unknown = await (await admin.get('/en/admin/revisions?actor=nobody%40example.ly')).text();
    expect(unknown).toContain('No member has this email or id.');
  });

  it('shows one revision field by field and links to its subject', async () => {
    const id = openReport();
    await moderator.post(`/en/admin/reports/${id}`, { intent: 'resolve', note: 'Warned the member' });
    const revision = query<{ id: number }>(
      "select id from revisions where subject_type = 'report' and subject_id = ?",
      String(id),
    )[0]?.id as number;
    const html = await (await admin.get(`/en/admin/revisions/${revision}`)).text();
    expect(html).toContain('Changed fields');
    expect(html).toContain('Warned the member');
    expect(html).toContain(`href="/en/admin/reports/${id}"`);
  });

  it('answers 404 for a revision that is not there or an id that is not one', async () => {
    for (const path of ['/en/admin/revisions/abc', '/en/admin/revisions/0', '/en/admin/revisions/99999999999']) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
  });
});

describe('reports', () => {
  it('lists open reports oldest first and opens one', async () => {
    const id = openReport('Sent me insults');
    const list = await (await moderator.get('/en/admin/reports?kind=member')).text();
    expect(list).toContain(`/en/admin/reports/${id}`);
    const page = await (await moderator.get(`/en/admin/reports/${id}`)).text();
    expect(page).toContain('Sent me insults');
    expect(page).toContain('Handle this report');
  });

  it('resolves a report with a note: revision, notification, and back to the queue', async () => {
    const id = openReport();
    const before = query<{ n: number }>(
      "select count(*) as n from notifications where type = 'report-resolved' and user_id = ?",
      idOf('user@souq.test'),
    )[0]?.n as number;
    const res = await moderator.post(`/en/admin/reports/${id}`, { intent: 'resolve', note: 'Member warned' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/admin/reports');
    expect(reportRow(id)).toEqual({
      status: 'resolved',
      handled_by: idOf('moderator@souq.test'),
      resolution_note: 'Member warned',
    });
    const after = query<{ n: number }>(
      "select count(*) as n from notifications where type = 'report-resolved' and user_id = ?",
      idOf('user@souq.test'),
    )[0]?.n as number;
    expect(after).toBe(before + 1);
    // The reporter reads it on their notifications page.
    const reporter = await signIn('user@souq.test');
    expect(await (await reporter.get('/en/notifications')).text()).toContain(
      'Your report was handled: action was taken',
    );
    // Handled twice: refused with words, nothing changes.
    const again = await moderator.post(`/en/admin/reports/${id}`, { intent: 'dismiss', note: 'again' });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('Someone handled this report meanwhile');
    expect(reportRow(id)?.status).toBe('resolved');
  });

  it('refuses bad input with 4xx and changes nothing', async () => {
    const id = openReport();
    const cases: [Record<string, string>, number][] = [
      [{ intent: 'resolve' }, 422],
      [{ intent: 'resolve', note: '   ' }, 422],
      [{ intent: 'resolve', note: 'x'.repeat(1001) }, 422],
      [{ intent: 'close', note: 'fine' }, 400],
      [{ note: 'fine' }, 400],
    ];
    for (const [form, status] of cases) {
      const res = await moderator.post(`/en/admin/reports/${id}`, form);
      expect(res.status, JSON.stringify(form).slice(0, 60)).toBe(status);
      await res.arrayBuffer();
    }
    const words = await (await moderator.post(`/en/admin/reports/${id}`, { intent: 'resolve' })).text();
    expect(words).toContain('Write a note');
    expect(reportRow(id)).toEqual({ status: 'open', handled_by: null, resolution_note: null });
    for (const path of ['/en/admin/reports/abc', '/en/admin/reports/99999999']) {
      const res = await moderator.post(path, { intent: 'resolve', note: 'x' });
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
    const odd = await moderator.get('/en/admin/reports?status=everything&reason=%27&member=%3C%3E&after=zzz');
    expect(odd.status).toBe(200);
    await odd.arrayBuffer();
  });

  it('lets staff with view-ads alone read a report but not handle it', async () => {
    const id = openReport();
    const email = `support-${Date.now()}@example.ly`;
    const support = browser();
    await registerAndSignIn(support, { name: 'Support', email, password: 'support-passphrase' });
    query(
      "insert into user_roles (user_id, role_id) select u.id, r.id from users u, roles r where u.email = ? and r.name = 'support' returning user_id",
      email,
    );
    const page = await (await support.get(`/en/admin/reports/${id}`)).text();
    expect(page).not.toContain('Handle this report');
    expect(page).toContain('handling them needs the right to update ads');
    const res = await support.post(`/en/admin/reports/${id}`, { intent: 'resolve', note: 'I should not' });
    expect(res.status).toBe(403);
    await res.arrayBuffer();
    expect(reportRow(id)?.status).toBe('open');
  });
});
