// The reports queue of the back office (docs/product/back-office.md, "Reports"): what members
// reported — ads (from the ad page) and members (from a chat) — a page at a time by keyset over
// (status, created_at, id), one report with its context, and its handling: resolved (acted on) or
// dismissed (nothing to do), with the staff member's note, a revision and the reporter's
// notification in one transaction. A member's reports (about them, and by them) for their page.
import { type ExpressionBuilder, sql } from 'kysely';
import { ALL_REPORT_REASONS } from '../../../app/lib/admin-insight.ts';
import type { DB } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';
import { toIso, toNumber } from '../../db/values.ts';
import type { Actor } from '../ads/rules.ts';
import { changedFields, recordRevision } from '../audit.ts';
import { Conflict, NotFound } from '../errors.ts';
import { notify } from '../notifications.ts';
import { type Cursor, type KeysetPage, keysetPage, type SortDirection } from './keyset.ts';

export const REPORTS_PAGE_SIZE = 30;
export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_KINDS = ['ad', 'member'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export interface ReportFilters {
  /** Open when absent. */
  status?: ReportStatus;
  kind?: ReportKind;
  reason?: string;
  /** Reports about this member: on them (from a chat) or on one of their ads. */
  member?: string;
}

export interface ReportRow {
  id: number;
  status: ReportStatus;
  reason: string;
  /** The reporter's words. */
  note: string | null;
  created_at: string;
  reporter: { id: string; name: string } | null;
  /** The reported ad, or null for a member report (or an ad since removed from the database). */
  ad: { id: number; title: string; status: string; owner_id: string | null } | null;
  /** The reported member (a member report), or null. */
  member: { id: string; name: string } | null;
  chat_id: number | null;
  handled_by: { id: string; name: string } | null;
  handled_at: string | null;
  resolution_note: string | null;
}

type Eb = ExpressionBuilder<Database & { r: Database['reports'] }, 'r'>;

const base = (db: DB) =>
  db
    .selectFrom('reports as r')
    .leftJoin('users as reporter', 'reporter.id', 'r.reporter_id')
    .leftJoin('ads as a', 'a.id', 'r.ad_id')
    .leftJoin('users as member', 'member.id', 'r.user_id')
    .leftJoin('users as staff', 'staff.id', 'r.handled_by')
    .select([
      'r.id',
      'r.status',
      'r.reason',
      'r.note',
      'r.created_at',
      'r.chat_id',
      'r.handled_at',
      'r.resolution_note',
      'r.reporter_id',
      'reporter.name as reporter_name',
      'r.ad_id',
      'a.title as ad_title',
      'a.status as ad_status',
      'a.user_id as ad_owner',
      'r.user_id',
      'member.name as member_name',
      'r.handled_by',
      'staff.name as staff_name',
    ]);

type BaseRow = Awaited<ReturnType<ReturnType<typeof base>['execute']>>[number];

const rowOf = (r: BaseRow): ReportRow => ({
  id: toNumber(r.id),
  status: (REPORT_STATUSES as readonly string[]).includes(r.status) ? (r.status as ReportStatus) : 'open',
  reason: r.reason,
  note: r.note,
  created_at: toIso(r.created_at),
  reporter: r.reporter_id ? { id: r.reporter_id, name: r.reporter_name ?? '' } : null,
  ad:
    r.ad_id !== null && r.ad_title !== null
      ? { id: toNumber(r.ad_id), title: r.ad_title, status: r.ad_status ?? '', owner_id: r.ad_owner ?? null }
      : null,
  member: r.user_id ? { id: r.user_id, name: r.member_name ?? '' } : null,
  chat_id: r.chat_id === null ? null : toNumber(r.chat_id),
  handled_by: r.handled_by ? { id: r.handled_by, name: r.staff_name ?? '' } : null,
  handled_at: r.handled_at ? toIso(r.handled_at) : null,
  resolution_note: r.resolution_note,
});

/** Reports about `member`: on them, or on one of their ads. */
const aboutMember = (member: string) => (eb: Eb) =>
  eb.or([
    eb('r.user_id', '=', member),
    eb('r.ad_id', 'in', eb.selectFrom('ads as owned').select('owned.id').where('owned.user_id', '=', member)),
  ]);

/** A cursor of this list: an instant and a report id (anything else shows the first page). */
function reportCursor(cursor: Cursor | null): Cursor | null {
  if (!cursor) return null;
  const at = typeof cursor.value === 'string' ? new Date(cursor.value) : null;
  const id = Number(cursor.id);
  if (!at || Number.isNaN(at.getTime()) || !Number.isSafeInteger(id) || id < 1) return null;
  return { value: at.toISOString(), id };
}

/** A page of the queue: the oldest open report first unless `direction` says otherwise. */
export async function listReports(
  db: DB,
  filters: ReportFilters,
  options: { direction?: SortDirection; cursor?: Cursor | null; limit?: number } = {},
): Promise<KeysetPage<ReportRow>> {
  const status = filters.status ?? 'open';
  const reason =
    filters.reason && (ALL_REPORT_REASONS as readonly string[]).includes(filters.reason) ? filters.reason : null;
  const query = base(db)
    .where('r.status', '=', status)
    .$if(filters.kind === 'ad', (q) => q.where('r.ad_id', 'is not', null))
    .$if(filters.kind === 'member', (q) => q.where('r.ad_id', 'is', null))
    .$if(reason !== null, (q) => q.where('r.reason', '=', reason as string))
    .$if(!!filters.member, (q) => q.where(aboutMember(filters.member as string)));
  const page = await keysetPage(query, {
    column: 'r.created_at',
    id: 'r.id',
    direction: options.direction ?? 'asc',
    cursor: reportCursor(options.cursor ?? null),
    limit: options.limit ?? REPORTS_PAGE_SIZE,
    keyOf: (r) => ({ value: toIso(r.created_at), id: toNumber(r.id) }),
  });
  return { rows: page.rows.map(rowOf), next: page.next };
}

/** How many reports are open (the dashboard's and the sidebar's figure). */
export async function countOpenReports(db: DB): Promise<number> {
  const row = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'open')
    .executeTakeFirst();
  return toNumber(row?.n);
}

export interface ReportDetail extends ReportRow {
  /** Other open reports of the same ad or member (the moderator may handle them next). */
  others: number;
}

export async function findReport(db: DB, id: number): Promise<ReportDetail | null> {
  const row = await base(db).where('r.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const report = rowOf(row);
  const others = await db
    .selectFrom('reports as r')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('r.status', '=', 'open')
    .where('r.id', '!=', report.id)
    .$if(row.ad_id !== null, (q) => q.where('r.ad_id', '=', row.ad_id as number))
    .$if(row.ad_id === null && row.user_id !== null, (q) => q.where('r.user_id', '=', row.user_id as string))
    .$if(row.ad_id === null && row.user_id === null, (q) => q.where(sql<boolean>`1 = 0`))
    .executeTakeFirst();
  return { ...report, others: toNumber(others?.n) };
}

export type ReportOutcome = 'resolved' | 'dismissed';

/**
 * Resolves or dismisses an open report with the staff member's note: the report records who and
 * when, a revision records the change, and the reporter is told (notification `report-resolved`,
 * with the outcome; not the note, which is for staff). A report handled meanwhile is a Conflict.
 */
export async function handleReport(
  db: DB,
  actor: Actor,
  id: number,
  outcome: ReportOutcome,
  note: string,
  now = new Date(),
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const report = await tx
      .selectFrom('reports as r')
      .leftJoin('ads as a', 'a.id', 'r.ad_id')
      .leftJoin('users as member', 'member.id', 'r.user_id')
      .select([
        'r.id',
        'r.status',
        'r.reporter_id',
        'r.ad_id',
        'r.user_id',
        'r.handled_by',
        'r.resolution_note',
        'a.title as ad_title',
        'member.name as member_name',
      ])
      .where('r.id', '=', id)
      .executeTakeFirst();
    if (!report) throw new NotFound('errors.not-found');
    // The status in the condition: of two staff handling it at once, one wins.
    const done = await tx
      .updateTable('reports')
      .set({ status: outcome, handled_by: actor.id, handled_at: now, resolution_note: note, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw new Conflict('admin:reports.errors.handled');
    await recordRevision(
      tx,
      actor,
      { type: 'report', id },
      outcome === 'resolved' ? 'resolve' : 'dismiss',
      changedFields(
        { status: report.status, handled_by: report.handled_by, resolution_note: report.resolution_note },
        { status: outcome, handled_by: actor.id, resolution_note: note },
      ),
    );
    await notify(tx, report.reporter_id, 'report-resolved', {
      report_id: id,
      outcome,
      kind: report.ad_id !== null ? 'ad' : 'member',
      title: report.ad_title ?? report.member_name ?? '',
    });
  });
}

export interface MemberReports {
  /** Reports on the member or their ads, newest first. */
  about: ReportRow[];
  aboutOpen: number;
  /** Reports the member made, newest first. */
  by: ReportRow[];
  byOpen: number;
}

/**
 * A member's reports for their page in the back office (MemberReportsCard in app/components/admin/report-parts.tsx):
 * the newest `limit` about them and by them, and how many of each are open.
 */
export async function listMemberReports(db: DB, memberId: string, limit = 10): Promise<MemberReports> {
  const [about, by, aboutOpen, byOpen] = await Promise.all([
    base(db)
      .where(aboutMember(memberId))
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(limit)
      .execute(),
    base(db)
      .where('r.reporter_id', '=', memberId)
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('reports as r')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('r.status', '=', 'open')
      .where(aboutMember(memberId))
      .executeTakeFirst(),
    db
      .selectFrom('reports as r')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('r.status', '=', 'open')
      .where('r.reporter_id', '=', memberId)
      .executeTakeFirst(),
  ]);
  return {
    about: about.map(rowOf),
    aboutOpen: toNumber(aboutOpen?.n),
    by: by.map(rowOf),
    byOpen: toNumber(byOpen?.n),
  };
}
