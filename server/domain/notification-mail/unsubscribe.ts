// One-click unsubscribe from a kind of notification mail (docs/product/alerts.md, "Stopping
// emails"): every notification mail carries a signed token naming its member and its type. The
// token is the whole authorisation — it works without signing in, from the mail's link (a page that
// asks first, app/routes/profile/unsubscribe.tsx) or from a mail program's RFC 8058 one-click POST
// (`POST /api/unsubscribe/{token}`). Stopping sets the member's email choice for that type off, as
// the profile's settings would; the settings turn it back on.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isNotificationType, type NotificationType } from '../../../app/lib/validation/profile.ts';
import type { DB } from '../../db/index.ts';
import { wantsNotification } from '../profile.ts';

/** How long a mail's unsubscribe link works. */
export const UNSUBSCRIBE_DAYS = 90;
const DAY_S = 86_400;

/** The signing key: the app's secret, for this purpose only. */
const keyOf = (secret: string) => createHmac('sha256', secret).update('souq:unsubscribe:v1').digest();

const sign = (secret: string, payload: string) =>
  createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');

/** A token that stops `type` mails for `userId` until UNSUBSCRIBE_DAYS from `now`. */
export function unsubscribeToken(secret: string, userId: string, type: NotificationType, now = Date.now()): string {
  const payload = Buffer.from(
    JSON.stringify({ u: userId, t: type, e: Math.floor(now / 1000) + UNSUBSCRIBE_DAYS * DAY_S }),
  ).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

export type UnsubscribeRequest = { userId: string; type: NotificationType };

/** What a token says: its member and type; 'expired' past its time; null when it is not one of ours. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
  now = Date.now(),
): UnsubscribeRequest | 'expired' | null {
  if (token.length > 600) return null;
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { u, t, e } = (body ?? {}) as { u?: unknown; t?: unknown; e?: unknown };
  if (typeof u !== 'string' || !isNotificationType(t) || typeof e !== 'number') return null;
  if (e * 1000 < now) return 'expired';
  return { userId: u, type: t };
}

/** Whether the member still gets `type` by email (their choice, or the default). */
export async function emailsOn(db: DB, userId: string, type: NotificationType): Promise<boolean> {
  return wantsNotification(db, userId, type, 'email');
}

/** Stops `type` mails for the member; false when the member is gone. */
export async function stopEmails(db: DB, request: UnsubscribeRequest, now = new Date()): Promise<boolean> {
  const user = await db.selectFrom('users').select('id').where('id', '=', request.userId).executeTakeFirst();
  if (!user) return false;
  await db
    .insertInto('notification_preferences')
    .values({ user_id: request.userId, type: request.type, channel: 'email', enabled: false, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'type', 'channel']).doUpdateSet({ enabled: false, updated_at: now }))
    .execute();
  return true;
}
