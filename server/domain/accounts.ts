// The signed-in user as the rest of the app sees it: profile basics plus access.
import { isLocale, type Locale, localizePath } from '../../app/i18n/config.ts';
import type { Auth } from '../auth/index.ts';
import { isPlaceholderEmail, placeholderEmail } from '../auth/placeholder-email.ts';
import type { DB } from '../db/index.ts';
import { withTransaction } from '../db/transaction.ts';
import { toBool } from '../db/values.ts';
import { enqueue } from '../jobs/registry.ts';
import type { Logger } from '../logger.ts';
import { mailJob } from '../mail/outbox.ts';
import { addressTakenMail } from '../mail/templates.ts';
import type { SmsSender } from '../sms/index.ts';
import { numberTakenSms } from '../sms/texts.ts';
import { Invalid, TooManyRequests } from './errors.ts';
import { accessOf } from './permissions.ts';
import { checkRateLimit, hitRateLimit } from './rate-limit.ts';

export interface SessionUser {
  id: string;
  name: string;
  /** Null for a member who signed up with a phone number and has not added an email. */
  email: string | null;
  email_verified: boolean;
  /** E.164; only a confirmed number is ever stored on the account. */
  phone: string | null;
  image: string | null;
  locale: string;
  is_super_admin: boolean;
  permissions: string[];
  roles: string[];
}

/** The user of the session cookie in `headers`, or null (no, expired or revoked session). */
export async function sessionUser(auth: Auth, db: DB, headers: Headers): Promise<SessionUser | null> {
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const u = session.user as typeof session.user & { locale?: string; phoneNumber?: string | null };
  const access = await accessOf(db, u.id);
  const placeholder = isPlaceholderEmail(u.email);
  return {
    id: u.id,
    name: u.name,
    email: placeholder ? null : u.email,
    email_verified: !placeholder && toBool(u.emailVerified),
    phone: u.phoneNumber ?? null,
    image: u.image ?? null,
    locale: u.locale ?? 'ar',
    is_super_admin: access.is_super_admin,
    permissions: access.permissions,
    roles: access.roles,
  };
}

/**
 * The id of the session cookie's member, or null: the session alone, without the roles and
 * permissions `sessionUser` reads (three queries more), for API routes that need only who writes
 * (the chat API: every message of a conversation asks).
 */
export async function sessionUserId(auth: Auth, headers: Headers): Promise<string | null> {
  const session = await auth.api.getSession({ headers });
  return session?.user.id ?? null;
}

export const LOGIN_LIMITS = {
  perAddress: { name: 'login-ip', limit: 20, windowSeconds: 15 * 60 },
  perAccount: { name: 'login-account', limit: 10, windowSeconds: 15 * 60 },
} as const;
export const REGISTER_LIMIT = { name: 'register-ip', limit: 10, windowSeconds: 60 * 60 } as const;

/** Better Auth's error code of a failed call, if any. */
function authCode(error: unknown): string | undefined {
  const e = error as { body?: { code?: unknown } } | undefined;
  return typeof e?.body?.code === 'string' ? e.body.code : undefined;
}

export interface AuthMeta {
  ip: string;
  headers: Headers;
}

/** Better Auth's codes for a refused sign-in; all become the same `invalid-credential`. */
const CREDENTIAL_CODES = new Set([
  'INVALID_EMAIL_OR_PASSWORD',
  'USER_NOT_FOUND',
  'INVALID_PASSWORD',
  'INVALID_PHONE_NUMBER_OR_PASSWORD',
  'CREDENTIAL_ACCOUNT_NOT_FOUND',
]);

/**
 * Signs in by email or phone number (E.164) and password. A wrong identifier and a wrong password
 * get the same answer (`invalid-credential`) after the same work (a password hash either way), so
 * the form reveals neither who has an account nor by timing. Returns the Set-Cookie headers of the
 * new session (a new session id at every sign-in).
 */
export async function signIn(
  auth: Auth,
  db: DB,
  input: { login: string; password: string; remember: boolean },
  meta: AuthMeta,
): Promise<string[]> {
  // Failed attempts count (per address and per account); a successful sign-in costs nothing, so
  // members behind one address (an office, a mobile carrier's NAT) are never locked out by others'
  // successes, and a password guesser is stopped after the limit.
  const address = meta.ip || 'unknown';
  const account = input.login.toLowerCase();
  await checkRateLimit(db, LOGIN_LIMITS.perAddress, address);
  await checkRateLimit(db, LOGIN_LIMITS.perAccount, account);
  const failed = async () => {
    await hitRateLimit(db, LOGIN_LIMITS.perAddress, address);
    await hitRateLimit(db, LOGIN_LIMITS.perAccount, account);
  };
  try {
    if (!input.login.startsWith('+')) {
      const { headers } = await auth.api.signInEmail({
        body: { email: input.login, password: input.password, rememberMe: input.remember },
        headers: meta.headers,
        returnHeaders: true,
      });
      return headers.getSetCookie();
    }
    const known = await db.selectFrom('users').select('id').where('phone_number', '=', input.login).executeTakeFirst();
    if (!known) {
      // Better Auth answers an unknown number at once; hash anyway so both refusals cost the same.
      await (await auth.$context).password.hash(input.password);
      throw new Invalid({ form: ['invalid-credential'] });
    }
    const { headers } = await auth.api.signInPhoneNumber({
      body: { phoneNumber: input.login, password: input.password, rememberMe: input.remember },
      headers: meta.headers,
      returnHeaders: true,
    });
    return headers.getSetCookie();
  } catch (error) {
    const refused =
      (error instanceof Invalid && error.errors.form?.[0] === 'invalid-credential') ||
      CREDENTIAL_CODES.has(authCode(error) ?? '');
    // The right password for an email not yet confirmed: the same answer as a wrong one (whoever
    // registered an address cannot tell whether it was new or taken), and the link is mailed again.
    if (authCode(error) === 'EMAIL_NOT_VERIFIED') {
      void remindConfirmation(auth, db, account, meta).catch(() => {});
      await failed();
      throw new Invalid({ form: ['invalid-credential'] });
    }
    if (refused) {
      await failed();
      throw new Invalid({ form: ['invalid-credential'] });
    }
    if (authCode(error) === 'USER_DISABLED') throw new Invalid({ form: ['user-disabled'] });
    throw error;
  }
}

/** What registration and phone codes need to tell the owner of a taken address or number (mail is a job). */
export interface AccountNotices {
  sms: SmsSender;
  /** Public origin for the links (server/auth/index.ts `siteBaseUrl`). */
  baseUrl: string;
  logger?: Logger;
}

/** At most one "someone tried to use your address / number" notice per address or number an hour. */
export const TAKEN_NOTICE_LIMIT = { name: 'taken-notice', limit: 1, windowSeconds: 60 * 60 } as const;

/** Counts a notice to `subject`; false when one already went out this hour (then nothing is sent). */
async function noticeAllowed(db: DB, subject: string): Promise<boolean> {
  try {
    await hitRateLimit(db, TAKEN_NOTICE_LIMIT, subject);
    return true;
  } catch (error) {
    if (error instanceof TooManyRequests) return false;
    throw error;
  }
}

const ownerLocale = (locale: unknown): Locale => (isLocale(locale) ? locale : 'ar');
const pageLink = (notices: AccountNotices, page: string, locale: Locale) =>
  `${notices.baseUrl}${localizePath(page, locale)}`;

/**
 * Registers a new member. The answer never says whether the email or number already has an
 * account (docs/accounts.md):
 * - by email, nobody is signed in: a new address gets its confirmation link, a taken one a notice
 *   to its owner ("log in or reset your password"), after the same password hash (Better Auth
 *   answers a taken address with a stand-in user when auto sign-in is off). Returns no cookies.
 * - by phone, an account with a placeholder email is created and signed in either way, and
 *   `sendPhoneCode` texts the number a code, or, when another account has confirmed it, a notice
 *   to its owner; the number joins the new account only once its code is confirmed (`verifyPhone`),
 *   so typing someone else's number takes nothing from them. Returns the session cookies.
 */
export async function register(
  auth: Auth,
  db: DB,
  input: { name: string; login: string; password: string; locale: 'ar' | 'en' },
  meta: AuthMeta,
  notices: AccountNotices,
): Promise<string[]> {
  await hitRateLimit(db, REGISTER_LIMIT, meta.ip || 'unknown');
  const phone = input.login.startsWith('+') ? input.login : undefined;
  if (!phone) {
    const email = input.login.toLowerCase();
    if (isPlaceholderEmail(email)) {
      // Our own reserved domain is never a member's address: answered like any other, nothing made.
      await (await auth.$context).password.hash(input.password);
      return [];
    }
    const owner = await db
      .selectFrom('users')
      .select(['email', 'name', 'locale'])
      .where('email', '=', email)
      .executeTakeFirst();
    await auth.api.signUpEmail({
      body: { name: input.name, email, password: input.password, locale: input.locale },
      headers: meta.headers,
    });
    // In the background, like the confirmation mail of a new address: the answer does not wait.
    if (owner) {
      void noticeTakenEmail(db, notices, owner).catch((err) =>
        notices.logger?.error({ err }, 'taken-address notice could not be queued'),
      );
    }
    return [];
  }
  const email = placeholderEmail();
  await auth.api.signUpEmail({
    body: { name: input.name, email, password: input.password, locale: input.locale },
    headers: meta.headers,
  });
  const { headers } = await auth.api.signInEmail({
    body: { email, password: input.password, rememberMe: true },
    headers: meta.headers,
    returnHeaders: true,
  });
  await sendPhoneCode(auth, db, phone, meta, notices);
  return headers.getSetCookie();
}

async function noticeTakenEmail(
  db: DB,
  notices: AccountNotices,
  owner: { email: string; name: string; locale: unknown },
): Promise<void> {
  // The hour's one notice is counted with its mail job: both or neither.
  await withTransaction(db, async (tx) => {
    if (!(await noticeAllowed(tx, owner.email))) return;
    const locale = ownerLocale(owner.locale);
    const login = pageLink(notices, '/login', locale);
    const reset = pageLink(notices, '/account/forget-password', locale);
    const mail = addressTakenMail(locale, owner.email, owner.name, login, reset);
    await enqueue(tx, 'send-mail', mailJob('address-taken', mail));
  });
}

const phoneOwner = (db: DB, phone: string) =>
  db.selectFrom('users').select(['id', 'locale']).where('phone_number', '=', phone).executeTakeFirst();

export const OTP_SEND_LIMITS = {
  perAddress: { name: 'otp-send-ip', limit: 20, windowSeconds: 60 * 60 },
  perPhone: { name: 'otp-send-phone', limit: 5, windowSeconds: 60 * 60 },
  /** The cool-down between two codes to one number. */
  cooldown: { name: 'otp-send-cooldown', limit: 1, windowSeconds: 60 },
} as const;
export const OTP_VERIFY_LIMITS = {
  perAddress: { name: 'otp-verify-ip', limit: 30, windowSeconds: 15 * 60 },
  perPhone: { name: 'otp-verify-phone', limit: 10, windowSeconds: 15 * 60 },
} as const;

async function limitCodeSend(db: DB, phone: string, ip: string) {
  await hitRateLimit(db, OTP_SEND_LIMITS.perAddress, ip || 'unknown');
  await hitRateLimit(db, OTP_SEND_LIMITS.cooldown, phone);
  await hitRateLimit(db, OTP_SEND_LIMITS.perPhone, phone);
}

/** Better Auth's refusals of a one-time code → our error codes. */
function codeRefusal(error: unknown): Invalid | undefined {
  switch (authCode(error)) {
    case 'INVALID_OTP':
    case 'OTP_NOT_FOUND':
      return new Invalid({ code: ['invalid-verification-code'] });
    case 'OTP_EXPIRED':
      return new Invalid({ code: ['code-expired'] });
    case 'TOO_MANY_ATTEMPTS':
      return new Invalid({ code: ['too-many-code-attempts'] });
    case 'PHONE_NUMBER_EXIST':
      // Confirmed by another account meanwhile: answered like a wrong code, as above.
      return new Invalid({ code: ['invalid-verification-code'] });
    default:
      return undefined;
  }
}

/**
 * Sends a 6-digit code by SMS to confirm `phone` (one per minute, five per hour per number). A number
 * another account has confirmed gets no code: its owner is told instead (at most once an hour),
 * and the caller sees the same answer, so the form reveals no member's number.
 */
export async function sendPhoneCode(
  auth: Auth,
  db: DB,
  phone: string,
  meta: AuthMeta,
  notices: AccountNotices,
): Promise<void> {
  await limitCodeSend(db, phone, meta.ip);
  const owner = await phoneOwner(db, phone);
  if (!owner) {
    await auth.api.sendPhoneNumberOTP({ body: { phoneNumber: phone }, headers: meta.headers });
    return;
  }
  if (!(await noticeAllowed(db, phone))) return;
  const locale = ownerLocale(owner.locale);
  await notices.sms.send({ to: phone, text: numberTakenSms(locale, pageLink(notices, '/login', locale)) });
}

/**
 * Confirms `phone` with its code and attaches it to the signed-in account (`headers` carry the
 * session). A number already confirmed by another account is refused like a wrong code.
 */
export async function verifyPhone(auth: Auth, db: DB, input: { phone: string; code: string }, meta: AuthMeta) {
  await hitRateLimit(db, OTP_VERIFY_LIMITS.perAddress, meta.ip || 'unknown');
  await hitRateLimit(db, OTP_VERIFY_LIMITS.perPhone, input.phone);
  // A number another account has confirmed was sent no code (`sendPhoneCode`): every code is wrong.
  if (await phoneOwner(db, input.phone)) throw new Invalid({ code: ['invalid-verification-code'] });
  try {
    await auth.api.verifyPhoneNumber({
      body: { phoneNumber: input.phone, code: input.code, updatePhoneNumber: true },
      headers: meta.headers,
    });
  } catch (error) {
    throw codeRefusal(error) ?? error;
  }
}

/**
 * Sends a reset code when `phone` belongs to an account. The answer is the same either way (Better
 * Auth stores a code for unknown numbers too, and the text is sent in the background).
 */
export async function requestPhonePasswordReset(auth: Auth, db: DB, phone: string, meta: AuthMeta): Promise<void> {
  await hitRateLimit(db, RESET_LIMITS.perAddress, meta.ip || 'unknown');
  await hitRateLimit(db, RESET_LIMITS.perAccount, phone);
  await auth.api.requestPasswordResetPhoneNumber({ body: { phoneNumber: phone }, headers: meta.headers });
}

/** Sets a new password with the code sent by SMS; every session of the account is ended. */
export async function resetPasswordByPhone(
  auth: Auth,
  db: DB,
  input: { phone: string; code: string; password: string },
  meta: AuthMeta,
): Promise<void> {
  await hitRateLimit(db, OTP_VERIFY_LIMITS.perAddress, meta.ip || 'unknown');
  await hitRateLimit(db, OTP_VERIFY_LIMITS.perPhone, input.phone);
  try {
    await auth.api.resetPasswordPhoneNumber({
      body: { phoneNumber: input.phone, otp: input.code, newPassword: input.password },
    });
  } catch (error) {
    // An unknown number fails like a wrong code: the form does not reveal who is a member.
    if (authCode(error) === 'UNEXPECTED_ERROR') throw new Invalid({ code: ['invalid-verification-code'] });
    throw codeRefusal(error) ?? error;
  }
}

/** Ends the session server-side; returns the headers that clear the cookie. */
export async function signOut(auth: Auth, headers: Headers): Promise<string[]> {
  const result = await auth.api.signOut({ headers, returnHeaders: true });
  return result.headers.getSetCookie();
}

export const RESET_LIMITS = {
  perAddress: { name: 'reset-ip', limit: 10, windowSeconds: 60 * 60 },
  perAccount: { name: 'reset-account', limit: 3, windowSeconds: 60 * 60 },
} as const;
export const VERIFY_RESEND_LIMITS = {
  perAddress: { name: 'verify-ip', limit: 10, windowSeconds: 60 * 60 },
  /** The cool-down between two verification mails to one address. */
  perAccount: { name: 'verify-account', limit: 1, windowSeconds: 60 },
} as const;

const TOKEN_CODES = new Set(['INVALID_TOKEN', 'TOKEN_EXPIRED', 'EXPIRED_TOKEN', 'INVALID_VERIFICATION_TOKEN']);

/**
 * Sends a reset link when the email has an account. The caller always says "if an account
 * exists, a link is on its way", so the answer does not reveal who is a member.
 */
export async function requestPasswordReset(auth: Auth, db: DB, email: string, meta: AuthMeta): Promise<void> {
  if (isPlaceholderEmail(email)) return;
  await hitRateLimit(db, RESET_LIMITS.perAddress, meta.ip || 'unknown');
  await hitRateLimit(db, RESET_LIMITS.perAccount, email.toLowerCase());
  await auth.api.requestPasswordReset({ body: { email }, headers: meta.headers });
}

/** Sets a new password with a mailed token; every session of the account is ended. */
export async function resetPassword(auth: Auth, token: string, newPassword: string): Promise<void> {
  try {
    await auth.api.resetPassword({ body: { token, newPassword } });
  } catch (error) {
    if (TOKEN_CODES.has(authCode(error) ?? '')) throw new Invalid({ form: ['invalid-action-code'] });
    throw error;
  }
}

/**
 * Confirms an email with a mailed token (valid one hour). It does not sign anyone in. A link that
 * changes the address proves the new one too: Better Auth keeps the old flag, so it is set here.
 */
export async function verifyEmail(auth: Auth, db: DB, token: string, headers: Headers): Promise<boolean> {
  let result: unknown;
  try {
    result = await auth.api.verifyEmail({ query: { token }, headers });
  } catch (error) {
    const status = (error as { status?: unknown })?.status;
    // An expired, used or forged link: the page says so (it is not an error of ours).
    if (TOKEN_CODES.has(authCode(error) ?? '') || status === 'UNAUTHORIZED' || status === 'BAD_REQUEST') return false;
    throw error;
  }
  const changed = (result as { user?: { id: string; emailVerified?: unknown } | null } | undefined)?.user;
  if (changed && !toBool(changed.emailVerified)) {
    await db.updateTable('users').set({ email_verified: true }).where('id', '=', changed.id).execute();
  }
  return true;
}

/** The confirmation link again after a sign-in with the right password (one per minute per address). */
async function remindConfirmation(auth: Auth, db: DB, email: string, meta: AuthMeta): Promise<void> {
  try {
    await hitRateLimit(db, VERIFY_RESEND_LIMITS.perAccount, email);
  } catch {
    return;
  }
  await auth.api.sendVerificationEmail({ body: { email }, headers: meta.headers });
}

/** Sends the verification mail again (one per minute per address). Silent for unknown emails. */
export async function resendVerification(auth: Auth, db: DB, email: string, meta: AuthMeta): Promise<void> {
  await hitRateLimit(db, VERIFY_RESEND_LIMITS.perAddress, meta.ip || 'unknown');
  await hitRateLimit(db, VERIFY_RESEND_LIMITS.perAccount, email.toLowerCase());
  const user = await db
    .selectFrom('users')
    .select(['email_verified'])
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  if (!user || toBool(user.email_verified)) return;
  await auth.api.sendVerificationEmail({ body: { email }, headers: meta.headers });
}
