// The audit log (revisions): who changed what, with the fields before and after, written in the
// transaction of the change itself.
import type { DB } from '../db/index.ts';
import type { Actor } from './ads/rules.ts';

export async function recordRevision(
  trx: DB,
  actor: Actor | null,
  subject: { type: string; id: string | number },
  action: string,
  changes: Record<string, [unknown, unknown]>,
) {
  await trx
    .insertInto('revisions')
    .values({
      actor_id: actor?.id ?? null,
      subject_type: subject.type,
      subject_id: String(subject.id),
      action,
      changes: JSON.stringify(changes),
      ip: actor?.ip ?? null,
      user_agent: actor?.userAgent?.slice(0, 500) ?? null,
      // In milliseconds, as the list's keyset cursor carries it (PostgreSQL's now() has microseconds).
      created_at: new Date(),
    })
    .execute();
}

/**
 * The fields of `after` whose value differs from `before`, as the revision's before/after pairs
 * (JSON-equal values are the same: a re-saved form with nothing changed records nothing).
 */
export function changedFields<T extends Record<string, unknown>>(
  before: Partial<T> | null,
  after: Partial<T>,
): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [key, value] of Object.entries(after)) {
    const old = before ? before[key] : null;
    if (value === undefined) continue;
    if (JSON.stringify(old ?? null) !== JSON.stringify(value ?? null)) changes[key] = [old ?? null, value ?? null];
  }
  return changes;
}
