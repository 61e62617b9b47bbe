// Flash messages (docs/product/site.md, "Feedback"): an action that completed says so once, on the
// next page. The action sets a short-lived HttpOnly cookie naming one message of FLASH_MESSAGES;
// the root loader reads it, clears it and hands the translated text to the page, which shows it as
// a status region (a toast once JavaScript runs: app/components/flash-toast.tsx). The page cache
// never sees such a request (server/http/page-cache.ts passes it by) and the answer is private.
import { redirect } from 'react-router';
import { FLASH_COOKIE } from '~/lib/page-cache.ts';
import { tFor } from '~/lib/route.server.ts';

/** Long enough for a redirect or a slow network; a flash nobody reads is gone after it. */
const FLASH_SECONDS = 60;

/** Every message a flash can carry: its code and the catalogue key of its words. */
export const FLASH_MESSAGES = {
  'ad-sold': 'placing:mine.done.mark-sold',
  'ad-deleted': 'placing:mine.done.delete',
  'change-withdrawn': 'placing:mine.done.withdraw-change',
  'signed-out': 'auth:flash.signed-out',
  'phone-verified': 'auth:phone.done',
  // The edit and repost pages, back on the own-ad page.
  edited: 'placing:mine.done.edited',
  'edited-review': 'placing:mine.done.edited-review',
  'edited-change': 'placing:mine.done.edited-change',
  unchanged: 'placing:mine.done.unchanged',
  renewed: 'placing:mine.done.renewed',
  bumped: 'placing:mine.done.bumped',
  // The own-ad page's feature button (a package's featured ad).
  'ad-featured': 'placing:mine.done.featured',
  // The sections of the profile settings.
  'saved-profile': 'profile:saved.profile',
  'saved-avatar': 'profile:saved.avatar',
  'saved-avatar-removed': 'profile:saved.avatar-removed',
  'saved-email': 'profile:saved.email',
  'saved-password': 'profile:saved.password',
  'saved-password-set': 'profile:saved.password-set',
  'saved-notifications': 'profile:saved.notifications',
  // The notifications page.
  'notifications-read': 'notifications:done.read-all',
  // "Save this search" on a listing.
  'search-saved': 'search:save.done',
  // The saved searches page.
  'search-renamed': 'alerts:done.renamed',
  'search-frequency': 'alerts:done.frequency',
  'search-deleted': 'alerts:done.deleted',
  // A chat's options.
  'chat-archived': 'chats:done.archived',
  'chat-unarchived': 'chats:done.unarchived',
  'chat-blocked': 'chats:done.blocked',
  'chat-unblocked': 'chats:done.unblocked',
  'chat-reported': 'chats:done.reported',
  // A heart without JavaScript, and the favorites page's remove buttons.
  'favorite-added': 'favorites:done.added',
  'favorite-removed': 'favorites:done.removed',
  // The back office's forms (docs/product/back-office.md).
  'admin-created': 'admin:done.created',
  'admin-saved': 'admin:done.saved',
  'admin-deleted': 'admin:done.deleted',
  'admin-bulk': 'admin:done.bulk',
} as const;
export type FlashCode = keyof typeof FLASH_MESSAGES;

const isFlashCode = (value: string): value is FlashCode => Object.hasOwn(FLASH_MESSAGES, value);

/** The Set-Cookie header that leaves `code` for the next page. */
export function flashCookie(code: FlashCode): string {
  return `${FLASH_COOKIE}=${code}; Path=/; Max-Age=${FLASH_SECONDS}; HttpOnly; SameSite=Lax`;
}

/** The Set-Cookie header that removes a flash once read. */
export const CLEAR_FLASH = `${FLASH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;

/** A redirect to `target` that shows `code` there (plus any other cookies, e.g. a cleared session). */
export function redirectWithFlash(target: string, code: FlashCode, cookies: string[] = []): Response {
  const headers = new Headers();
  for (const c of cookies) headers.append('Set-Cookie', c);
  headers.append('Set-Cookie', flashCookie(code));
  return redirect(target, { headers });
}

/** The flash code a request carries, if it is one of ours. */
export function flashCodeOf(request: Request): FlashCode | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i === -1 || part.slice(0, i).trim() !== FLASH_COOKIE) continue;
    const value = part.slice(i + 1).trim();
    return isFlashCode(value) ? value : null;
  }
  return null;
}

export interface Flash {
  /** Differs for every flash read, so the same message twice shows twice. */
  id: string;
  code: FlashCode;
  text: string;
}

/** The request's flash in the page's language, or null. */
export function readFlash(request: Request): Flash | null {
  const code = flashCodeOf(request);
  if (!code) return null;
  return { id: crypto.randomUUID(), code, text: tFor(request)(FLASH_MESSAGES[code]) };
}

/** Whether the request carries a flash cookie at all (a stale or forged one is cleared too). */
export function hasFlashCookie(request: Request): boolean {
  return (request.headers.get('cookie') ?? '').split(';').some((p) => p.trim().startsWith(`${FLASH_COOKIE}=`));
}
