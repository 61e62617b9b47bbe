// The signed-in user as the rest of the app sees it: profile basics plus access.
import type { Auth } from '../auth/index.ts';
import type { DB } from '../db/index.ts';
import { toBool } from '../db/values.ts';
import { Invalid } from './errors.ts';
import { accessOf } from './permissions.ts';
import { hitRateLimit } from './rate-limit.ts';

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  email_verified: boolean;
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
  const u = session.user as typeof session.user & { locale?: string };
  const access = await accessOf(db, u.id);
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    email_verified: toBool(u.emailVerified),
    image: u.image ?? null,
    locale: u.locale ?? 'ar',
    is_super_admin: access.is_super_admin,
    permissions: access.permissions,
    roles: access.roles,
  };
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

/**
 * Signs in by email and password. Wrong email and wrong password get the same answer
 * (`invalid-credential`), so the form does not reveal who has an account. Returns the
 * Set-Cookie headers of the new session (a new session id at every sign-in).
 */
export async function signIn(
  auth: Auth,
  db: DB,
  input: { email: string; password: string; remember: boolean },
  meta: AuthMeta,
): Promise<string[]> {
  await hitRateLimit(db, LOGIN_LIMITS.perAddress, meta.ip || 'unknown');
  await hitRateLimit(db, LOGIN_LIMITS.perAccount, input.email.toLowerCase());
  try {
    const { headers } = await auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: input.remember },
      headers: meta.headers,
      returnHeaders: true,
    });
    return headers.getSetCookie();
  } catch (error) {
    const code = authCode(error);
    if (code === 'INVALID_EMAIL_OR_PASSWORD' || code === 'USER_NOT_FOUND' || code === 'INVALID_PASSWORD') {
      throw new Invalid({ form: ['invalid-credential'] });
    }
    throw error;
  }
}

/** Creates an account and signs it in; returns the Set-Cookie headers. */
export async function register(
  auth: Auth,
  db: DB,
  input: { name: string; email: string; password: string; locale: 'ar' | 'en' },
  meta: AuthMeta,
): Promise<string[]> {
  await hitRateLimit(db, REGISTER_LIMIT, meta.ip || 'unknown');
  try {
    const { headers } = await auth.api.signUpEmail({
      body: { name: input.name, email: input.email, password: input.password, locale: input.locale },
      headers: meta.headers,
      returnHeaders: true,
    });
    return headers.getSetCookie();
  } catch (error) {
    const code = authCode(error);
    if (code?.startsWith('USER_ALREADY_EXISTS')) throw new Invalid({ email: ['email-already-in-use'] });
    throw error;
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

/** Confirms an email with a mailed token (valid one hour). It does not sign anyone in. */
export async function verifyEmail(auth: Auth, token: string, headers: Headers): Promise<void> {
  try {
    await auth.api.verifyEmail({ query: { token }, headers });
  } catch (error) {
    const status = (error as { status?: unknown })?.status;
    if (TOKEN_CODES.has(authCode(error) ?? '') || status === 'UNAUTHORIZED' || status === 'BAD_REQUEST') {
      throw new Invalid({ form: ['invalid-action-code'] });
    }
    throw error;
  }
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
