// Account housekeeping run by the job queue (server/jobs/app-jobs.ts).
import { PLACEHOLDER_EMAIL_DOMAIN } from '../auth/placeholder-email.ts';
import type { DB } from '../db/index.ts';

/** How long a phone sign-up may stay unconfirmed before the account is removed. */
export const UNCONFIRMED_PHONE_SIGNUP_DAYS = 7;

/**
 * Removes accounts from phone sign-ups that never confirmed their number: no phone, no real
 * email, no other way in (only the password credential) and older than a week. Nobody can sign in
 * to them, and their names would otherwise linger. Returns how many were removed.
 */
export async function pruneUnconfirmedPhoneSignups(db: DB, now = Date.now()): Promise<number> {
  const before = new Date(now - UNCONFIRMED_PHONE_SIGNUP_DAYS * 86_400_000).toISOString();
  const stale = await db
    .selectFrom('users')
    .select('id')
    .where('email', 'like', `%@${PLACEHOLDER_EMAIL_DOMAIN}`)
    .where('phone_number', 'is', null)
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('accounts')
            .select('accounts.id')
            .whereRef('accounts.user_id', '=', 'users.id')
            .where('accounts.provider_id', '!=', 'credential'),
        ),
      ),
    )
    .execute();
  if (stale.length === 0) return 0;
  await db
    .deleteFrom('users')
    .where(
      'id',
      'in',
      stale.map((u) => u.id),
    )
    .execute();
  return stale.length;
}
