// The audit log's screens (docs/product/back-office.md, "Revisions"): revisions newest first (or
// oldest), filtered by actor (email or id), subject type, subject, action and a range of days, a
// page at a time by keyset over (created_at, id) — each filter has an index ending in those
// columns (migration 0027), so a page of a million rows costs what the first does — and one
// revision with its fields before and after.
import { REVISION_DAY, REVISION_SUBJECT, REVISION_WORD } from '../../../app/lib/admin-insight.ts';
import type { DB } from '../../db/index.ts';
import { toIso, toJson, toNumber } from '../../db/values.ts';
import { type Cursor, type KeysetPage, keysetPage, type SortDirection } from './keyset.ts';

export const REVISIONS_PAGE_SIZE = 50;

export interface RevisionFilters {
  /** A member's email (any case) or id. */
  actor?: string;
  type?: string;
  /** Only with `type` (subjects are numbered per type). */
  subject?: string;
  action?: string;
  /** Days (YYYY-MM-DD, in Libya), both included. */
  from?: string;
  to?: string;
}

export interface RevisionActor {
  id: string;
  name: string;
  email: string;
}

export interface RevisionRow {
  id: number;
  created_at: string;
  /** Null for the system, or when the member's account is gone. */
  actor: RevisionActor | null;
  subject_type: string;
  subject_id: string;
  action: string;
  /** The names of the changed fields. */
  fields: string[];
}

export interface Revision extends RevisionRow {
  changes: { field: string; before: unknown; after: unknown }[];
  ip: string | null;
  user_agent: string | null;
}

/** A valid day (YYYY-MM-DD, a Libyan calendar day: UTC+2 all year), as its first instant, or null. */
export function dayStart(day: string | undefined): Date | null {
  if (!day || !REVISION_DAY.test(day)) return null;
  const utc = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(utc.getTime()) || utc.toISOString().slice(0, 10) !== day) return null;
  return new Date(utc.getTime() - 2 * 3_600_000);
}

/** A cursor of this list: an instant and a revision id (anything else shows the first page). */
export function revisionCursor(cursor: Cursor | null): Cursor | null {
  if (!cursor) return null;
  const at = typeof cursor.value === 'string' ? new Date(cursor.value) : null;
  const id = Number(cursor.id);
  if (!at || Number.isNaN(at.getTime()) || !Number.isSafeInteger(id) || id < 1) return null;
  return { value: at.toISOString(), id };
}

/** The member an actor filter names: by email when it has an @, else by id; null when nobody is. */
export async function resolveActor(db: DB, actor: string): Promise<string | null> {
  const text = actor.trim();
  if (!text || text.length > 254) return null;
  const row = await db
    .selectFrom('users')
    .select('id')
    // Emails are stored in lower case (server/auth); the unique index on email answers either form.
    .$if(text.includes('@'), (q) => q.where('email', 'in', [text, text.toLowerCase()]))
    .$if(!text.includes('@'), (q) => q.where('id', '=', text))
    .executeTakeFirst();
  return row?.id ?? null;
}

const fieldsOf = (changes: unknown): Record<string, [unknown, unknown]> => {
  const parsed = toJson<unknown>(changes, {});
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, [unknown, unknown]>)
    : {};
};

const base = (db: DB) =>
  db
    .selectFrom('revisions as r')
    .leftJoin('users as u', 'u.id', 'r.actor_id')
    .select([
      'r.id',
      'r.created_at',
      'r.actor_id',
      'r.subject_type',
      'r.subject_id',
      'r.action',
      'r.changes',
      'u.name as actor_name',
      'u.email as actor_email',
    ]);

type BaseRow = Awaited<ReturnType<ReturnType<typeof base>['execute']>>[number];

const rowOf = (r: BaseRow): RevisionRow => ({
  id: toNumber(r.id),
  created_at: toIso(r.created_at),
  actor: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? '', email: r.actor_email ?? '' } : null,
  subject_type: r.subject_type,
  subject_id: r.subject_id,
  action: r.action,
  // In name order: PostgreSQL's jsonb keeps keys in an order of its own.
  fields: Object.keys(fieldsOf(r.changes)).sort(),
});

/**
 * A page of revisions under `filters` (values outside their shapes are ignored, an actor nobody
 * is finds nothing), in `direction` of (created_at, id).
 */
export async function listRevisions(
  db: DB,
  filters: RevisionFilters,
  options: { direction?: SortDirection; cursor?: Cursor | null; limit?: number } = {},
): Promise<KeysetPage<RevisionRow>> {
  let actorId: string | null = null;
  if (filters.actor) {
    actorId = await resolveActor(db, filters.actor);
    if (!actorId) return { rows: [], next: null };
  }
  const type = filters.type && REVISION_WORD.test(filters.type) ? filters.type : null;
  const subject = type && filters.subject && REVISION_SUBJECT.test(filters.subject) ? filters.subject : null;
  const action = filters.action && REVISION_WORD.test(filters.action) ? filters.action : null;
  const from = dayStart(filters.from);
  const toDay = dayStart(filters.to);
  const until = toDay ? new Date(toDay.getTime() + 86_400_000) : null;
  const query = base(db)
    .$if(actorId !== null, (q) => q.where('r.actor_id', '=', actorId as string))
    .$if(type !== null, (q) => q.where('r.subject_type', '=', type as string))
    .$if(subject !== null, (q) => q.where('r.subject_id', '=', subject as string))
    .$if(action !== null, (q) => q.where('r.action', '=', action as string))
    // Timestamps are ISO text on SQLite (compared as text) and timestamptz on PostgreSQL.
    .$if(from !== null, (q) => q.where('r.created_at', '>=', (from as Date).toISOString()))
    .$if(until !== null, (q) => q.where('r.created_at', '<', (until as Date).toISOString()));
  const page = await keysetPage(query, {
    column: 'r.created_at',
    id: 'r.id',
    direction: options.direction ?? 'desc',
    cursor: revisionCursor(options.cursor ?? null),
    limit: options.limit ?? REVISIONS_PAGE_SIZE,
    keyOf: (r) => ({ value: toIso(r.created_at), id: toNumber(r.id) }),
  });
  return { rows: page.rows.map(rowOf), next: page.next };
}

/** One revision with its changes field by field, or null. */
export async function findRevision(db: DB, id: number): Promise<Revision | null> {
  const row = await base(db).select(['r.ip', 'r.user_agent']).where('r.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const changes = Object.entries(fieldsOf(row.changes))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([field, pair]) => ({
      field,
      before: Array.isArray(pair) ? (pair[0] ?? null) : null,
      after: Array.isArray(pair) ? (pair[1] ?? null) : pair,
    }));
  return { ...rowOf(row), changes, ip: row.ip, user_agent: row.user_agent };
}
