// Account housekeeping run by the job queue (server/jobs/app-jobs.ts).
import { PLACEHOLDER_EMAIL_DOMAIN } from '../auth/placeholder-email.ts';
import type { DB } from '../db/index.ts';
import { withTransaction } from '../db/transaction.ts';
import type { MediaStorage } from '../media/storage.ts';
import { userAdImageKeys } from './ad-images.ts';
import { releaseFavorites } from './favorites.ts';
import { ownAvatarKeys } from './profile.ts';

/** How long a phone sign-up may stay unconfirmed before the account is removed. */
export const UNCONFIRMED_PHONE_SIGNUP_DAYS = 7;

/**
 * Removes accounts from phone sign-ups that never confirmed their number: no phone, no real
 * email, no other way in (only the password credential) and older than a week. Nobody can sign in
 * to them, and their names would otherwise linger. Their files (photo, ad photos) go with them:
 * only keys of their own (their avatar folder, their `ad_images` rows). Returns how many were removed.
 */
export async function pruneUnconfirmedPhoneSignups(db: DB, now = Date.now(), storage?: MediaStorage): Promise<number> {
  const before = new Date(now - UNCONFIRMED_PHONE_SIGNUP_DAYS * 86_400_000).toISOString();
  return withTransaction(db, async (tx, { afterCommit }) => {
    const stale = await tx
      .selectFrom('users')
      .select(['id', 'image'])
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
    const files: string[] = [];
    for (const u of stale) {
      files.push(...ownAvatarKeys(u.id, u.image), ...(await userAdImageKeys(tx, u.id)));
      // Their favorites cascade with the row: the counts of the ads they saved are kept exact first.
      await releaseFavorites(tx, u.id);
    }
    await tx
      .deleteFrom('users')
      .where(
        'id',
        'in',
        stale.map((u) => u.id),
      )
      .execute();
    // The files go once the rows are gone. Leftover files are harmless (random keys, linked from
    // nowhere): a storage failure is not the job's.
    if (storage) afterCommit(() => Promise.allSettled(files.map((key) => storage.delete(key))));
    return stale.length;
  });
}
