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
    })
    .execute();
}
