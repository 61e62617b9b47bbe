// The profile settings forms (`/profile`), one schema per section, shared by the browser and the
// server. Each section is its own form with a hidden `intent`.
import { z } from 'zod';
import { locales } from '../../i18n/config.ts';
import { oneOf } from '../one-of.ts';
import { confirmed, field, requiredField, rules } from './rules.ts';

export const PROFILE_INTENTS = [
  'profile',
  'avatar',
  'avatar-remove',
  'email',
  'password',
  'password-set',
  'notifications',
  'delete',
] as const;
export type ProfileIntent = (typeof PROFILE_INTENTS)[number];
export const isProfileIntent = oneOf(PROFILE_INTENTS);

/** Photos up to 10 MB (the same limit as server/media/images.ts's default). */
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;
/** What the file picker offers; the server decides by the bytes, never by this list. */
export const AVATAR_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

/** Notification types (docs/product/accounts-and-roles.md). */
export const NOTIFICATION_TYPES = [
  'chat-message',
  'ad-approved',
  'ad-rejected',
  'ad-expiring',
  'ad-expired',
  'saved-search-match',
  'favorite-price-drop',
  'favorite-sold',
  'package-expiring',
  'report-resolved',
  'system',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const isNotificationType = oneOf(NOTIFICATION_TYPES);

/** In-app notifications are always on; members choose email and SMS per type. */
export const NOTIFICATION_CHANNELS = ['in-app', 'email', 'sms'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export type OptionalChannel = Exclude<NotificationChannel, 'in-app'>;
export const OPTIONAL_CHANNELS: readonly OptionalChannel[] = ['email', 'sms'];

/**
 * Until a member saves the form: email for what happens to their ads, moderation, saved searches,
 * favorites, packages and notices from Souq; chat messages arrive live (their email, a reminder of
 * a chat still unread, is for members who ask: docs/product/chats.md "Emails"); no SMS (it costs
 * the member data and us money).
 */
const EMAIL_OFF_BY_DEFAULT: readonly NotificationType[] = ['chat-message'];
export function defaultNotificationSetting(type: NotificationType, channel: OptionalChannel): boolean {
  return channel === 'email' && !EMAIL_OFF_BY_DEFAULT.includes(type);
}

export type NotificationPreferences = Record<NotificationType, Record<OptionalChannel, boolean>>;

export function defaultNotificationPreferences(): NotificationPreferences {
  return Object.fromEntries(
    NOTIFICATION_TYPES.map((type) => [
      type,
      { email: defaultNotificationSetting(type, 'email'), sms: defaultNotificationSetting(type, 'sms') },
    ]),
  ) as NotificationPreferences;
}

/** The words that confirm a deletion for members without a password (either language is accepted). */
export const DELETE_WORDS = ['حذف', 'delete'] as const;

/** A checkbox or switch: ticked → true, absent → false. */
const checkbox = () =>
  z
    .unknown()
    .optional()
    .transform((v) => v === 'on' || v === 'true' || v === true);

/** Checkboxes sharing one name (one per notification type): the ticked types, each known. */
const typeList = () =>
  z
    .unknown()
    .optional()
    .transform((v, ctx): NotificationType[] => {
      const list = v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v];
      const types: NotificationType[] = [];
      for (const item of list) {
        if (!isNotificationType(item)) {
          ctx.addIssue({ code: 'custom', message: 'in' });
          return z.NEVER;
        }
        if (!types.includes(item)) types.push(item);
      }
      return types;
    });

/** An uploaded file (not an empty file input) within `maxBytes`. */
export const imageFile = (maxBytes: number) =>
  z
    .unknown()
    .optional()
    .transform((v, ctx): File => {
      if (typeof File === 'undefined' || !(v instanceof File) || v.size === 0) {
        ctx.addIssue({ code: 'custom', message: 'required' });
        return z.NEVER;
      }
      if (v.size > maxBytes) {
        ctx.addIssue({ code: 'custom', message: 'image-too-large' });
        return z.NEVER;
      }
      return v;
    });

const password = requiredField(rules.min(8), rules.max(128));

/** Name, city, bio, show-phone and language. */
export const profileSchema = z.object({
  name: requiredField(rules.min(2), rules.max(120)),
  /** A city id from the `cities` table; blank = none. Checked against the table on the server. */
  city: field(rules.numeric(), rules.max(9)),
  bio: field(rules.max(1000)),
  show_phone: checkbox(),
  locale: requiredField<(typeof locales)[number]>(rules.oneOf(locales)),
});
export type ProfileInput = z.infer<typeof profileSchema>;

export const avatarSchema = z.object({ image: imageFile(AVATAR_MAX_BYTES) });

/** A new email address; a link to it confirms the change. */
export const changeEmailSchema = z.object({ email: requiredField(rules.email(), rules.max(254)) });

export const changePasswordSchema = z
  .object({
    current_password: requiredField(rules.max(128)),
    password,
    password_confirmation: requiredField(),
  })
  .superRefine((v, ctx) => confirmed(v, 'password_confirmation', 'password')(ctx));

/** For members who signed in with another provider and have no password yet. */
export const setPasswordSchema = z
  .object({ password, password_confirmation: requiredField() })
  .superRefine((v, ctx) => confirmed(v, 'password_confirmation', 'password')(ctx));

export const notificationsSchema = z.object({ email: typeList(), sms: typeList() });
export type NotificationsInput = z.infer<typeof notificationsSchema>;

/** Deleting an account with a password. */
export const deleteWithPasswordSchema = z.object({ password: requiredField(rules.max(128)) });

/** Deleting an account that has no password: the member types the word shown. */
export const deleteWithWordSchema = z.object({
  confirm: requiredField({
    code: 'delete-word',
    check: (v) => oneOf(DELETE_WORDS)(String(v).trim().toLowerCase()),
  }),
});
