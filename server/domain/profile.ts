// Profile settings (`/profile`): what a member changes about their own account, and what deleting
// the account does to their data. Sign-in related changes (email, password, deletion) go through
// Better Auth so its sessions, tokens and hashes stay the only source of truth.
import { createHash, randomBytes } from 'node:crypto';
import { isLocale, type Locale } from '../../app/i18n/config.ts';
import {
  AVATAR_MAX_BYTES,
  defaultNotificationPreferences,
  defaultNotificationSetting,
  isNotificationType,
  NOTIFICATION_TYPES,
  type NotificationPreferences,
  type NotificationsInput,
  type NotificationType,
  type OptionalChannel,
  type ProfileInput,
} from '../../app/lib/validation/profile.ts';
import type { Auth } from '../auth/index.ts';
import { isPlaceholderEmail } from '../auth/placeholder-email.ts';
import type { DB } from '../db/index.ts';
import { withTransaction } from '../db/transaction.ts';
import { toBool, toIso } from '../db/values.ts';
import { AVATAR_VARIANTS, processImage } from '../media/images.ts';
import { type MediaStorage, UPLOADS_PUBLIC_PATH } from '../media/storage.ts';
import type { AuthMeta } from './accounts.ts';
import { userAdImageKeys } from './ad-images.ts';
import { announceAdChanges, recountTaxonomiesLater } from './ads/bookkeeping.ts';
import { Invalid, NotFound } from './errors.ts';
import { releaseFavorites } from './favorites.ts';
import { hitRateLimit } from './rate-limit.ts';

export interface ProfileSettings {
  id: string;
  name: string;
  /** Null for a member who signed up by phone and has not added an email. */
  email: string | null;
  email_verified: boolean;
  /** Only a confirmed number is ever stored (E.164). */
  phone: string | null;
  /** Public URL of the large avatar variant (or an external sign-in's picture). */
  image: string | null;
  /** The small variant of our own avatars; the image itself otherwise. */
  image_small: string | null;
  locale: Locale;
  city_id: number | null;
  bio: string | null;
  show_phone: boolean;
  /** False for members who only ever signed in with another provider. */
  has_password: boolean;
  member_since: string;
}

/** Better Auth's error code of a failed call, if any. */
function authCode(error: unknown): string | undefined {
  const e = error as { body?: { code?: unknown } } | undefined;
  return typeof e?.body?.code === 'string' ? e.body.code : undefined;
}

/** Whether the member has a password (members of an external sign-in only may not). */
export async function accountHasPassword(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('user_id', '=', userId)
    .where('provider_id', '=', 'credential')
    .where('password', 'is not', null)
    .executeTakeFirst();
  return Boolean(row);
}

export async function loadProfileSettings(db: DB, userId: string): Promise<ProfileSettings> {
  const u = await db
    .selectFrom('users')
    .select([
      'id',
      'name',
      'email',
      'email_verified',
      'phone_number',
      'image',
      'locale',
      'city_id',
      'bio',
      'show_phone',
      'created_at',
    ])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!u) throw new NotFound('errors.user-not-found');
  const placeholder = isPlaceholderEmail(u.email);
  return {
    id: u.id,
    name: u.name,
    email: placeholder ? null : u.email,
    email_verified: !placeholder && toBool(u.email_verified),
    phone: u.phone_number,
    image: u.image,
    image_small: avatarVariantUrl(u.image, 'small'),
    locale: isLocale(u.locale) ? u.locale : 'ar',
    city_id: u.city_id,
    bio: u.bio,
    show_phone: toBool(u.show_phone),
    has_password: await accountHasPassword(db, userId),
    member_since: toIso(u.created_at),
  };
}

/**
 * Name, city, bio, show-phone and language. The phone number can be shown on ads only once it is
 * confirmed; the language is the account's `locale` (mails and texts are written in it).
 */
export async function updateProfile(db: DB, userId: string, input: ProfileInput): Promise<{ localeChanged: boolean }> {
  const user = await db
    .selectFrom('users')
    .select(['phone_number', 'locale'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new NotFound('errors.user-not-found');
  const errors: Record<string, string[]> = {};
  const cityId = input.city === undefined ? null : Number(input.city);
  if (cityId !== null) {
    const city = await db.selectFrom('cities').select('id').where('id', '=', cityId).executeTakeFirst();
    if (!city) errors.city = ['in'];
  }
  if (input.show_phone && !user.phone_number) errors.show_phone = ['phone-required-to-show'];
  if (Object.keys(errors).length) throw new Invalid(errors);
  await db
    .updateTable('users')
    .set({
      name: input.name,
      city_id: cityId,
      bio: input.bio ?? null,
      show_phone: input.show_phone,
      locale: input.locale,
      updated_at: new Date(),
    })
    .where('id', '=', userId)
    .execute();
  return { localeChanged: user.locale !== input.locale };
}

// Avatars ---------------------------------------------------------------------------------------

/** Uploads are expensive to process: twenty an hour per member is plenty for a person. */
export const AVATAR_UPLOAD_LIMIT = { name: 'avatar-upload', limit: 20, windowSeconds: 60 * 60 } as const;

const AVATAR_URL = new RegExp(
  `^${UPLOADS_PUBLIC_PATH}/(avatars/[a-z0-9][a-z0-9_-]*/[a-f0-9]{16})-(${AVATAR_VARIANTS.map((v) => v.name).join('|')})\\.webp$`,
);

/** The storage keys of one of our avatars, from its public URL; none for an external picture. */
export function avatarKeys(image: string | null | undefined): string[] {
  const m = image ? AVATAR_URL.exec(image) : null;
  return m ? AVATAR_VARIANTS.map((v) => `${m[1]}-${v.name}.webp`) : [];
}

/**
 * The storage keys of a member's own avatar, from the URL in their `image` column: only keys in
 * the member's own folder (derived from their id), none otherwise. `users.image` can be written
 * through Better Auth's `update-user` endpoint, so it may name another member's photo; deleting
 * "the previous photo" must never reach into their folder.
 */
export function ownAvatarKeys(userId: string, image: string | null | undefined): string[] {
  const prefix = `avatars/${avatarFolder(userId)}/`;
  return avatarKeys(image).filter((key) => key.startsWith(prefix));
}

/** The URL of another variant of one of our avatars (an external picture is returned as it is). */
export function avatarVariantUrl(image: string | null | undefined, variant: string): string | null {
  if (!image) return null;
  const m = AVATAR_URL.exec(image);
  return m ? `${UPLOADS_PUBLIC_PATH}/${m[1]}-${variant}.webp` : image;
}

/** A storage folder per member: the id in the storage key alphabet (Better Auth ids are mixed-case). */
function avatarFolder(userId: string): string {
  const folder = userId.toLowerCase();
  return /^[a-z0-9][a-z0-9_-]{0,63}$/.test(folder)
    ? folder
    : createHash('sha256').update(userId).digest('hex').slice(0, 32);
}

async function deleteFiles(storage: MediaStorage, keys: string[]): Promise<void> {
  // Leftover files are harmless (their keys are random and no longer linked); a failure must not
  // undo what the member asked for.
  await Promise.allSettled(keys.map((key) => storage.delete(key)));
}

/**
 * Checks and resizes a photo (content-sniffed, ≤ 10 MB, EXIF stripped, WebP variants), stores the
 * variants under fresh random keys, points the account at them, then deletes the previous photo.
 * Returns the public URL of the large variant. Bad files throw Invalid({ image: [code] }).
 */
export async function updateAvatar(db: DB, storage: MediaStorage, userId: string, bytes: Buffer): Promise<string> {
  await hitRateLimit(db, AVATAR_UPLOAD_LIMIT, userId);
  const processed = await processImage(bytes, { variants: AVATAR_VARIANTS, maxBytes: AVATAR_MAX_BYTES });
  const base = `avatars/${avatarFolder(userId)}/${randomBytes(8).toString('hex')}`;
  const keys = processed.variants.map((v) => `${base}-${v.name}.webp`);
  const url = storage.url(`${base}-large.webp`);
  try {
    await Promise.all(processed.variants.map((v, i) => storage.put(keys[i], v.bytes, v.contentType)));
    await withTransaction(db, async (tx, { afterCommit }) => {
      const row = await tx.selectFrom('users').select('image').where('id', '=', userId).executeTakeFirst();
      if (!row) throw new NotFound('errors.user-not-found');
      await tx.updateTable('users').set({ image: url, updated_at: new Date() }).where('id', '=', userId).execute();
      // The previous photo's files go once the account points at the new one.
      afterCommit(() => deleteFiles(storage, ownAvatarKeys(userId, row.image)));
    });
  } catch (error) {
    await deleteFiles(storage, keys);
    throw error;
  }
  return url;
}

/** Removes the photo: the account shows initials again and our files are deleted. */
export async function removeAvatar(db: DB, storage: MediaStorage, userId: string): Promise<void> {
  await withTransaction(db, async (tx, { afterCommit }) => {
    const row = await tx.selectFrom('users').select('image').where('id', '=', userId).executeTakeFirst();
    if (!row) throw new NotFound('errors.user-not-found');
    await tx.updateTable('users').set({ image: null, updated_at: new Date() }).where('id', '=', userId).execute();
    afterCommit(() => deleteFiles(storage, ownAvatarKeys(userId, row.image)));
  });
}

// Email and password ----------------------------------------------------------------------------

export const EMAIL_CHANGE_LIMITS = {
  perAccount: { name: 'email-change-account', limit: 5, windowSeconds: 60 * 60 },
  perAddress: { name: 'email-change-ip', limit: 20, windowSeconds: 60 * 60 },
} as const;

/**
 * Mails a confirmation link to `newEmail`; the address changes only when the link is opened. The
 * answer is the same whether or not another account uses the address (Better Auth sends nothing
 * then), so the form does not reveal who is a member.
 */
export async function requestEmailChange(
  auth: Auth,
  db: DB,
  userId: string,
  newEmail: string,
  meta: AuthMeta,
): Promise<void> {
  const email = newEmail.toLowerCase();
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  if (!user) throw new NotFound('errors.user-not-found');
  if (user.email.toLowerCase() === email) throw new Invalid({ email: ['same-email'] });
  await hitRateLimit(db, EMAIL_CHANGE_LIMITS.perAddress, meta.ip || 'unknown');
  await hitRateLimit(db, EMAIL_CHANGE_LIMITS.perAccount, userId);
  try {
    await auth.api.changeEmail({ body: { newEmail: email }, headers: meta.headers });
  } catch (error) {
    if (authCode(error) === 'VALIDATION_ERROR') throw new Invalid({ email: ['email'] });
    throw error;
  }
}

/** Guessing the current password with a stolen session is slowed down like a sign-in. */
export const PASSWORD_CHANGE_LIMIT = { name: 'password-change', limit: 10, windowSeconds: 15 * 60 } as const;

/**
 * Changes the password after checking the current one, and ends every other session (a thief who
 * had the old password is signed out). Returns the Set-Cookie headers of the new session.
 */
export async function changePassword(
  auth: Auth,
  db: DB,
  userId: string,
  input: { current_password: string; password: string },
  meta: AuthMeta,
): Promise<string[]> {
  await hitRateLimit(db, PASSWORD_CHANGE_LIMIT, userId);
  try {
    const { headers } = await auth.api.changePassword({
      body: { currentPassword: input.current_password, newPassword: input.password, revokeOtherSessions: true },
      headers: meta.headers,
      returnHeaders: true,
    });
    return headers.getSetCookie();
  } catch (error) {
    switch (authCode(error)) {
      case 'INVALID_PASSWORD':
        throw new Invalid({ current_password: ['wrong-password'] });
      case 'CREDENTIAL_ACCOUNT_NOT_FOUND':
        throw new Invalid({ form: ['no-password-yet'] });
      case 'PASSWORD_TOO_SHORT':
        throw new Invalid({ password: ['min:8'] });
      case 'PASSWORD_TOO_LONG':
        throw new Invalid({ password: ['max:128'] });
      default:
        throw error;
    }
  }
}

/** A first password for a member who signed in with another provider (Better Auth `setPassword`). */
export async function setPassword(
  auth: Auth,
  db: DB,
  userId: string,
  input: { password: string },
  meta: AuthMeta,
): Promise<void> {
  await hitRateLimit(db, PASSWORD_CHANGE_LIMIT, userId);
  try {
    await auth.api.setPassword({ body: { newPassword: input.password }, headers: meta.headers });
  } catch (error) {
    if (authCode(error) === 'PASSWORD_ALREADY_SET') throw new Invalid({ form: ['password-already-set'] });
    throw error;
  }
}

// Notification preferences ----------------------------------------------------------------------

/** The member's choice per type for email and SMS; the defaults where nothing was saved. */
export async function notificationPreferences(db: DB, userId: string): Promise<NotificationPreferences> {
  const prefs = defaultNotificationPreferences();
  const rows = await db
    .selectFrom('notification_preferences')
    .select(['type', 'channel', 'enabled'])
    .where('user_id', '=', userId)
    .execute();
  for (const r of rows) {
    // A type the site no longer sends (a row written by an older version) is left out.
    if (isNotificationType(r.type) && (r.channel === 'email' || r.channel === 'sms')) {
      prefs[r.type][r.channel] = toBool(r.enabled);
    }
  }
  return prefs;
}

/**
 * Whether `userId` wants `type` by `channel` (for the notifications to come). In-app is always on.
 */
export async function wantsNotification(
  db: DB,
  userId: string,
  type: NotificationType,
  channel: OptionalChannel | 'in-app',
): Promise<boolean> {
  if (channel === 'in-app') return true;
  const row = await db
    .selectFrom('notification_preferences')
    .select('enabled')
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .where('channel', '=', channel)
    .executeTakeFirst();
  return row ? toBool(row.enabled) : defaultNotificationSetting(type, channel);
}

/**
 * Saves the whole form: every type gets a row per channel the member can be reached by (email
 * with a real address, SMS with a confirmed number). Channels they cannot use are not offered by
 * the form, so their choices stay as they were (the defaults, until then).
 */
export async function saveNotificationPreferences(db: DB, userId: string, input: NotificationsInput): Promise<void> {
  const user = await db
    .selectFrom('users')
    .select(['email', 'phone_number'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new NotFound('errors.user-not-found');
  const channels: OptionalChannel[] = [];
  if (!isPlaceholderEmail(user.email)) channels.push('email');
  if (user.phone_number) channels.push('sms');
  if (!channels.length) return;
  const now = new Date();
  const rows = NOTIFICATION_TYPES.flatMap((type) =>
    channels.map((channel) => ({
      user_id: userId,
      type,
      channel,
      enabled: input[channel].includes(type),
      updated_at: now,
    })),
  );
  await db
    .insertInto('notification_preferences')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['user_id', 'type', 'channel']).doUpdateSet((eb) => ({
        enabled: eb.ref('excluded.enabled'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

// Deleting the account --------------------------------------------------------------------------

/** Password guesses through the delete form are slowed down like sign-ins. */
export const DELETE_ACCOUNT_LIMIT = { name: 'delete-account', limit: 10, windowSeconds: 15 * 60 } as const;

/** What was let go of inside the transaction. */
export interface ReleasedAccountData {
  /** Storage keys to delete once the account is gone (after its row, not merely this transaction). */
  files: string[];
  /** The ads that left the site (the page cache hears of them once committed). */
  ads: number[];
}

/**
 * Everything a deleted account leaves behind, run in one transaction just before the user row is
 * deleted (its foreign keys then cascade: sessions, sign-in accounts, roles, permissions,
 * notification preferences). Later features add their steps here (docs/product-notes.md, "Profile"):
 * - ads: soft-deleted (`deleted_at`, status `deleted`), so they leave listings, search
 *   and the sitemap at once, and staff keep their history and revisions;
 * - chats and messages (once chats are built): kept for the other party, with this member shown as
 *   "deleted member" (participant and sender set to null, not deleted);
 * - favorites: deleted, the counts of the ads they had saved lowered with them;
 * - saved searches, notifications, company memberships: deleted with the account.
 */
export async function releaseAccountData(db: DB, userId: string): Promise<ReleasedAccountData> {
  return withTransaction(db, (trx) => releaseIn(trx, userId));
}

async function releaseIn(trx: DB, userId: string): Promise<ReleasedAccountData> {
  const user = await trx.selectFrom('users').select('image').where('id', '=', userId).executeTakeFirst();
  if (!user) throw new NotFound('errors.user-not-found');
  // The member's ads leave the site (soft-deleted, kept for staff without an owner: ads.user_id is
  // set null with the account); their photos go with the account (ad_images rows cascade).
  const now = new Date();
  const live = await trx
    .selectFrom('ads')
    .select(['id', 'status', 'taxonomy_id'])
    .where('user_id', '=', userId)
    .where('status', '!=', 'deleted')
    .execute();
  for (const ad of live) {
    await trx
      .insertInto('ad_status_history')
      .values({
        ad_id: ad.id,
        from_status: ad.status,
        to_status: 'deleted',
        actor_id: userId,
        reason: 'account-deleted',
      })
      .execute();
  }
  if (live.length) {
    await trx
      .updateTable('ads')
      .set({ status: 'deleted', deleted_at: now, updated_at: now })
      .where('user_id', '=', userId)
      .where('status', '!=', 'deleted')
      .execute();
    await recountTaxonomiesLater(
      trx,
      live.map((a) => a.taxonomy_id),
    );
    await announceAdChanges(
      trx,
      live.map((a) => a.id),
    );
  }
  // Their favorites go with the account, and the counts of the ads they had saved with them.
  await releaseFavorites(trx, userId);
  return {
    files: [...ownAvatarKeys(userId, user.image), ...(await userAdImageKeys(trx, userId))],
    ads: live.map((a) => a.id),
  };
}

/**
 * Deletes the signed-in account. A member with a password confirms with it; a member without one
 * (external sign-in only) confirms by typing the word and needs a recent sign-in. Nothing is
 * touched until the confirmation is right. Every session ends; returns the Set-Cookie headers
 * that clear the session cookie.
 */
export async function deleteAccount(
  auth: Auth,
  db: DB,
  storage: MediaStorage,
  userId: string,
  input: { password?: string },
  meta: AuthMeta,
): Promise<string[]> {
  await hitRateLimit(db, DELETE_ACCOUNT_LIMIT, userId);
  const ctx = await auth.$context;
  const withPassword = await accountHasPassword(db, userId);
  if (withPassword) {
    // Checked here as Better Auth's delete endpoint checks it, before any data is released.
    const account = await ctx.internalAdapter.findCredentialAccount(userId);
    const ok =
      !!input.password &&
      !!account?.password &&
      (await ctx.password.verify({ hash: account.password, password: input.password }));
    if (!ok) throw new Invalid({ password: ['wrong-password'] });
  } else {
    // Without a password Better Auth accepts only a recently created session.
    const session = await auth.api.getSession({ headers: meta.headers });
    const freshAge = ctx.sessionConfig.freshAge * 1000;
    const created = session ? new Date(session.session.createdAt).getTime() : 0;
    if (!session || (freshAge > 0 && Date.now() - created >= freshAge)) {
      throw new Invalid({ form: ['requires-recent-login'] });
    }
  }
  const released = await releaseAccountData(db, userId);
  let cookies: string[];
  try {
    const { headers } = await auth.api.deleteUser({
      body: withPassword ? { password: input.password } : {},
      headers: meta.headers,
      returnHeaders: true,
    });
    cookies = headers.getSetCookie();
  } catch (error) {
    if (authCode(error) === 'INVALID_PASSWORD') throw new Invalid({ password: ['wrong-password'] });
    if (authCode(error) === 'SESSION_EXPIRED') throw new Invalid({ form: ['requires-recent-login'] });
    throw error;
  }
  await deleteFiles(storage, released.files);
  return cookies;
}
