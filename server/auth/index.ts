// Better Auth on the shared Kysely instance (DESIGN.md): email + password sign-in, database
// sessions in an httpOnly cookie. Its tables are ours (migration 0002, snake_case columns), so the
// field names are mapped here.
import { betterAuth } from 'better-auth';
import { isLocale, type Locale, localizePath } from '../../app/i18n/config.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import type { Mailer } from '../mail/index.ts';
import { resetPasswordMail, verifyEmailMail } from '../mail/templates.ts';

const timestamps = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

/** Passwords: Better Auth's scrypt (N=16384, r=16, p=1, 64-byte key, random 16-byte salt); see ADR 0005. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const SESSION_DAYS = 30;

/** Links in mails lead to our own pages, in the member's language, carrying the token. */
export const LINK_TTL_SECONDS = 60 * 60;

export function createAuth(config: Config, database: DatabaseHandle, mailer: Mailer, logger?: Logger) {
  // A mail that cannot be sent must not fail the sign-up or reset request: the account exists and
  // the member can ask again; the failure is logged for operators.
  const send = (message: Parameters<Mailer['send']>[0]) =>
    mailer.send(message).catch((err) => logger?.error({ err, to: message.to }, 'account mail could not be sent'));
  const baseUrl = config.appUrl ?? `http://localhost:${config.port}`;
  const localeOfUser = (user: { locale?: unknown }): Locale => (isLocale(user.locale) ? user.locale : 'ar');
  const link = (page: string, locale: Locale, token: string) =>
    `${baseUrl}${localizePath(page, locale)}?token=${encodeURIComponent(token)}`;
  return betterAuth({
    appName: 'Souq',
    database: { db: database.db, type: database.dialect, casing: 'snake' },
    secret: config.authSecret,
    baseURL: config.appUrl ?? `http://localhost:${config.port}`,
    basePath: '/api/auth',
    telemetry: { enabled: false },
    user: {
      modelName: 'users',
      fields: { emailVerified: 'email_verified', ...timestamps },
      additionalFields: {
        locale: { type: 'string', required: false, defaultValue: 'ar', input: true },
        is_super_admin: { type: 'boolean', required: false, defaultValue: false, input: false },
      },
    },
    session: {
      modelName: 'sessions',
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
      fields: {
        expiresAt: 'expires_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        userId: 'user_id',
        ...timestamps,
      },
    },
    account: {
      modelName: 'accounts',
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        ...timestamps,
      },
    },
    verification: { modelName: 'verifications', fields: { expiresAt: 'expires_at', ...timestamps } },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: LINK_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        const locale = localeOfUser(user as { locale?: unknown });
        await send(resetPasswordMail(locale, user.email, user.name, link('/account/reset-password', locale, token)));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // A mailed link never signs anyone in: a forwarded or leaked mail must not open the account.
      autoSignInAfterVerification: false,
      expiresIn: LINK_TTL_SECONDS,
      sendVerificationEmail: async ({ user, token }) => {
        const locale = localeOfUser(user as { locale?: unknown });
        await send(verifyEmailMail(locale, user.email, user.name, link('/account/email-verification', locale, token)));
      },
    },
    // Our own database-backed limits cover the pages; Better Auth's guard its HTTP endpoints.
    rateLimit: { enabled: config.isProduction, window: 60, max: 60 },
    advanced: {
      cookiePrefix: 'souq',
      useSecureCookies: config.appUrl?.startsWith('https://') ?? false,
      ipAddress: { ipAddressHeaders: config.trustProxy > 0 ? ['x-forwarded-for'] : [] },
    },
    trustedOrigins: config.appUrl ? [config.appUrl] : [],
  });
}

export type Auth = ReturnType<typeof createAuth>;
