// The audit log's list and diff (server/domain/admin/revisions.ts) and the reports queue with its
// handling (server/domain/admin/reports.ts) on every dialect: each filter, keyset pages that walk
// every row once in order, forged cursors, resolve/dismiss with their revision and the reporter's
// notification, a report handled twice, and a member's reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { decodeCursor, encodeCursor } from '../../server/domain/admin/keyset.ts';
import {
  findReport,
  handleReport,
  listMemberReports,
  listReports,
  type ReportFilters,
} from '../../server/domain/admin/reports.ts';
import { findRevision, listRevisions, type RevisionFilters } from '../../server/domain/admin/revisions.ts';
import { createAd, resolveCategoryPath } from '../../server/domain/ads/placing.ts';
import { recordRevision } from '../../server/domain/audit.ts';
import { listCategoryAttributes } from '../../server/domain/catalog.ts';
import { Conflict, NotFound } from '../../server/domain/errors.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('the audit log on %s', (dialect) => {
  let t: TestDatabase;
  let alice: { id: string; ip: string; userAgent: string };
  let bob: { id: string; ip: string; userAgent: string };
  /** Revision ids by name, in the order written (created 20 minutes apart from 2026-03-10 21:00 UTC). */
  const ids: Record<string, number> = {};
  const at = (minutes: number) => new Date(Date.UTC(2026, 2, 10, 21, 0) + minutes * 60_000);

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    alice = await insertMember(t.db, { name: 'Alice' });
    bob = await insertMember(t.db, { name: 'Bob' });
    const rows: [string, typeof alice | null, string, string, string, Record<string, [unknown, unknown]>][] = [
      ['a1', alice, 'ad', '7', 'approve', { status: ['pending', 'published'] }],
      ['a2', bob, 'ad', '7', 'edit', { title: ['Old', 'New'], price: [100, 90] }],
      ['a3', alice, 'user', '42', 'ban', { banned_at: [null, '2026-03-10'] }],
      ['a4', null, 'ad', '8', 'expire', { status: ['published', 'expired'] }],
      ['a5', alice, 'ad', '8', 'approve', { status: ['pending', 'published'] }],
      ['a6', bob, 'report', '3', 'resolve', { status: ['open', 'resolved'] }],
      ['a7', alice, 'ad', '70', 'approve', { status: ['pending', 'published'] }],
    ];
    for (const [i, [name, actor, type, id, action, changes]] of rows.entries()) {
      await recordRevision(t.db, actor, { type, id }, action, changes);
      const row = await t.db
        .selectFrom('revisions')
        .select('id')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      ids[name] = row.id;
      // Spread over two Libyan days: a1–a3 on 10 March (before 22:00 UTC), the rest on 11 March.
      await t.db
        .updateTable('revisions')
        .set({ created_at: dialect === 'postgres' ? at(i * 20) : at(i * 20).toISOString() })
        .where('id', '=', row.id)
        .execute();
    }
  });
  afterAll(() => t.drop());

  const names = async (filters: RevisionFilters, direction: 'asc' | 'desc' = 'desc') => {
    const page = await listRevisions(t.db, filters, { direction });
    return page.rows.map((r) => Object.entries(ids).find(([, id]) => id === r.id)?.[0]);
  };

  it('lists the newest first, with the actor, subject and changed fields', async () => {
    expect(await names({})).toEqual(['a7', 'a6', 'a5', 'a4', 'a3', 'a2', 'a1']);
    expect(await names({}, 'asc')).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7']);
    const page = await listRevisions(t.db, {});
    const a2 = page.rows.find((r) => r.id === ids.a2);
    expect(a2).toMatchObject({
      actor: { id: bob.id, name: 'Bob' },
      subject_type: 'ad',
      subject_id: '7',
      action: 'edit',
      fields: ['price', 'title'],
    });
    expect(page.rows.find((r) => r.id === ids.a4)?.actor).toBeNull();
  });

  it('filters by actor (email in any case, or id), subject type, subject, action and days', async () => {
    // Emails are stored in lower case; the filter takes any case.
    await t.db.updateTable('users').set({ email: 'alice@example.ly' }).where('id', '=', alice.id).execute();
    expect(await names({ actor: 'Alice@Example.LY' })).toEqual(['a7', 'a5', 'a3', 'a1']);
    expect(await names({ actor: bob.id })).toEqual(['a6', 'a2']);
    expect(await names({ actor: 'nobody@example.ly' })).toEqual([]);
    expect(await names({ type: 'ad' })).toEqual(['a7', 'a5', 'a4', 'a2', 'a1']);
    expect(await names({ type: 'ad', subject: '7' })).toEqual(['a2', 'a1']);
    // A subject alone is ambiguous (ids are per type): ignored.
    expect(await names({ subject: '7' })).toHaveLength(7);
    expect(await names({ action: 'approve' })).toEqual(['a7', 'a5', 'a1']);
    expect(await names({ actor: alice.id, action: 'approve', type: 'ad' })).toEqual(['a7', 'a5', 'a1']);
    // Libyan days (UTC+2): 10 March ends at 22:00 UTC.
    expect(await names({ to: '2026-03-10' })).toEqual(['a3', 'a2', 'a1']);
    expect(await names({ from: '2026-03-11' })).toEqual(['a7', 'a6', 'a5', 'a4']);
    expect(await names({ from: '2026-03-11', to: '2026-03-11', action: 'approve' })).toEqual(['a7', 'a5']);
    expect(await names({ from: '2026-03-12' })).toEqual([]);
    // Values outside their shapes are ignored, never an error.
    expect(await names({ type: "ad' or 1=1", action: 'APPROVE', from: '2026-02-30' })).toHaveLength(7);
  });

  it.each(['asc', 'desc'] as const)('walks every revision once by keyset pages (%s)', async (direction) => {
    const seen: number[] = [];
    let cursor = null;
    for (let guard = 0; guard < 10; guard++) {
      const page = await listRevisions(t.db, {}, { direction, cursor, limit: 3 });
      seen.push(...page.rows.map((r) => r.id));
      if (!page.next) break;
      cursor = decodeCursor(page.next);
    }
    const all = Object.values(ids);
    expect(seen).toEqual(direction === 'asc' ? all : [...all].reverse());
  });

  it('pages a filtered list and shows the first page for a cursor that is not one of its own', async () => {
    const first = await listRevisions(t.db, { type: 'ad' }, { limit: 2 });
    expect(first.rows.map((r) => r.id)).toEqual([ids.a7, ids.a5]);
    const second = await listRevisions(t.db, { type: 'ad' }, { limit: 2, cursor: decodeCursor(first.next) });
    expect(second.rows.map((r) => r.id)).toEqual([ids.a4, ids.a2]);
    for (const forged of [
      { value: 'not a date', id: 3 },
      { value: '2026-03-11T00:00:00.000Z', id: 'x' },
      { value: 12, id: -1 },
    ]) {
      const page = await listRevisions(t.db, { type: 'ad' }, { limit: 2, cursor: decodeCursor(encodeCursor(forged)) });
      expect(page.rows.map((r) => r.id)).toEqual([ids.a7, ids.a5]);
    }
  });

  it('shows one revision field by field, before and after', async () => {
    const r = await findRevision(t.db, ids.a2);
    expect(r?.changes).toEqual([
      { field: 'price', before: 100, after: 90 },
      { field: 'title', before: 'Old', after: 'New' },
    ]);
    expect(r).toMatchObject({ ip: '10.0.0.1', user_agent: 'test', action: 'edit' });
    expect(await findRevision(t.db, 999_999)).toBeNull();
  });
});

describe.each(dialects)('the reports queue on %s', (dialect) => {
  let t: TestDatabase;
  let staff: { id: string; ip: string; userAgent: string };
  let owner: { id: string };
  let reporter: { id: string };
  let other: { id: string };
  let adId: number;
  const reports: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    staff = await insertMember(t.db, { name: 'Staff' });
    owner = await insertMember(t.db, { name: 'Owner' });
    reporter = await insertMember(t.db, { name: 'Reporter' });
    other = await insertMember(t.db, { name: 'Other' });
    const city = await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow();
    const path = await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']);
    const ad = await createAd(
      t.db,
      { moderation: 'post' },
      owner,
      path,
      await listCategoryAttributes(t.db, 'toyota'),
      toyotaAdInput(city.id, { title: 'Reported Toyota' }),
    );
    adId = ad.id;
    const put = async (name: string, values: Record<string, unknown>, minutes: number) => {
      const row = await t.db
        .insertInto('reports')
        .values({
          ...values,
          created_at: new Date(Date.UTC(2026, 2, 1) + minutes * 60_000),
          updated_at: new Date(Date.UTC(2026, 2, 1) + minutes * 60_000),
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      reports[name] = Number(row.id);
    };
    await put('scam', { reporter_id: reporter.id, ad_id: adId, reason: 'scam', note: 'Asks for a deposit' }, 0);
    await put('chat', { reporter_id: reporter.id, user_id: owner.id, reason: 'offensive' }, 1);
    await put('dup', { reporter_id: other.id, ad_id: adId, reason: 'duplicate' }, 2);
    await put('about-other', { reporter_id: owner.id, user_id: other.id, reason: 'spam' }, 3);
    await put('old', { reporter_id: other.id, ad_id: adId, reason: 'sold', status: 'dismissed' }, 4);
  });
  afterAll(() => t.drop());

  const names = async (filters: ReportFilters, direction?: 'asc' | 'desc') =>
    (await listReports(t.db, filters, { direction })).rows.map(
      (r) => Object.entries(reports).find(([, id]) => id === r.id)?.[0],
    );

  it('lists open reports oldest first, with what and who was reported', async () => {
    expect(await names({})).toEqual(['scam', 'chat', 'dup', 'about-other']);
    expect(await names({}, 'desc')).toEqual(['about-other', 'dup', 'chat', 'scam']);
    const [scam, chat] = (await listReports(t.db, {})).rows;
    expect(scam).toMatchObject({
      reason: 'scam',
      note: 'Asks for a deposit',
      reporter: { id: reporter.id, name: 'Reporter' },
      ad: { id: adId, title: 'Reported Toyota', owner_id: owner.id },
      member: null,
    });
    expect(chat).toMatchObject({ ad: null, member: { id: owner.id, name: 'Owner' } });
  });

  it('filters by status, kind, reason and member; pages by keyset', async () => {
    expect(await names({ status: 'dismissed' })).toEqual(['old']);
    expect(await names({ kind: 'ad' })).toEqual(['scam', 'dup']);
    expect(await names({ kind: 'member' })).toEqual(['chat', 'about-other']);
    expect(await names({ reason: 'duplicate' })).toEqual(['dup']);
    expect(await names({ reason: 'no-such-reason' })).toHaveLength(4);
    // About the owner: the report on them and those on their ad.
    expect(await names({ member: owner.id })).toEqual(['scam', 'chat', 'dup']);
    expect(await names({ member: other.id })).toEqual(['about-other']);
    const first = await listReports(t.db, {}, { limit: 3 });
    const second = await listReports(t.db, {}, { limit: 3, cursor: decodeCursor(first.next) });
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual([
      reports.scam,
      reports.chat,
      reports.dup,
      reports['about-other'],
    ]);
    expect(second.next).toBeNull();
  });

  it('resolves a report with a note: the report, a revision and the reporter’s notification together', async () => {
    await handleReport(t.db, staff, reports.scam, 'resolved', 'Ad removed, owner warned');
    const report = await findReport(t.db, reports.scam);
    expect(report).toMatchObject({
      status: 'resolved',
      handled_by: { id: staff.id, name: 'Staff' },
      resolution_note: 'Ad removed, owner warned',
    });
    expect(report?.handled_at).toBeTruthy();
    const revision = await t.db
      .selectFrom('revisions')
      .selectAll()
      .where('subject_type', '=', 'report')
      .where('subject_id', '=', String(reports.scam))
      .execute();
    expect(revision).toHaveLength(1);
    expect(revision[0]).toMatchObject({ action: 'resolve', actor_id: staff.id, ip: '10.0.0.1' });
    const changes = typeof revision[0].changes === 'string' ? JSON.parse(revision[0].changes) : revision[0].changes;
    expect(changes).toEqual({
      status: ['open', 'resolved'],
      handled_by: [null, staff.id],
      resolution_note: [null, 'Ad removed, owner warned'],
    });
    const notes = await t.db.selectFrom('notifications').selectAll().where('user_id', '=', reporter.id).execute();
    expect(notes).toHaveLength(1);
    expect(notes[0].type).toBe('report-resolved');
    const data = typeof notes[0].data === 'string' ? JSON.parse(notes[0].data) : notes[0].data;
    expect(data).toEqual({ report_id: reports.scam, outcome: 'resolved', kind: 'ad', title: 'Reported Toyota' });
    expect(await names({})).toEqual(['chat', 'dup', 'about-other']);
    expect(await names({ status: 'resolved' })).toEqual(['scam']);
  });

  it('refuses to handle a report twice, changing nothing', async () => {
    await expect(handleReport(t.db, staff, reports.scam, 'dismissed', 'again')).rejects.toBeInstanceOf(Conflict);
    expect((await findReport(t.db, reports.scam))?.status).toBe('resolved');
    const revisions = await t.db.selectFrom('revisions').select('id').where('subject_type', '=', 'report').execute();
    expect(revisions).toHaveLength(1);
    const notes = await t.db.selectFrom('notifications').select('id').execute();
    expect(notes).toHaveLength(1);
    await expect(handleReport(t.db, staff, 999_999, 'resolved', 'x')).rejects.toBeInstanceOf(NotFound);
  });

  it('dismisses a member report; the reporter hears the outcome', async () => {
    await handleReport(t.db, staff, reports.chat, 'dismissed', 'Heated, not abusive');
    expect((await findReport(t.db, reports.chat))?.status).toBe('dismissed');
    const notes = await t.db
      .selectFrom('notifications')
      .select('data')
      .where('user_id', '=', reporter.id)
      .orderBy('id', 'desc')
      .execute();
    const data = typeof notes[0].data === 'string' ? JSON.parse(notes[0].data) : notes[0].data;
    expect(data).toMatchObject({ outcome: 'dismissed', kind: 'member', title: 'Owner' });
  });

  it('counts the other open reports of the same ad on a report’s page', async () => {
    expect((await findReport(t.db, reports.dup))?.others).toBe(0);
    expect((await findReport(t.db, reports['about-other']))?.others).toBe(0);
  });

  it('lists a member’s reports: about them or their ads, and by them', async () => {
    const mine = await listMemberReports(t.db, owner.id);
    expect(mine.about.map((r) => r.id)).toEqual([reports.old, reports.dup, reports.chat, reports.scam]);
    expect(mine.aboutOpen).toBe(1);
    expect(mine.by.map((r) => r.id)).toEqual([reports['about-other']]);
    expect(mine.byOpen).toBe(1);
    const theirs = await listMemberReports(t.db, reporter.id);
    expect(theirs.about).toEqual([]);
    expect(theirs.by.map((r) => r.id)).toEqual([reports.chat, reports.scam]);
    expect(theirs.byOpen).toBe(0);
  });
});
