// Better Auth on the shared Kysely instance (ADR 0005): email + password sign-in, database
// sessions in an httpOnly cookie. Its tables are ours (migration 0002, snake_case columns), so the
// field names are mapped here.

import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { phoneNumber } from 'better-auth/plugins';
import { decodeJwt } from 'jose';
import { isLocale, type Locale, localizePath } from '../../app/i18n/config.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/index.ts';
import { toBool } from '../db/values.ts';
import { enqueue } from '../jobs/registry.ts';
import type { Logger } from '../logger.ts';
import type { MailMessage } from '../mail/index.ts';
import { type MailKind, mailJob } from '../mail/outbox.ts';
import { changeEmailMail, resetPasswordMail, verifyEmailMail } from '../mail/templates.ts';
import type { SmsSender } from '../sms/index.ts';
import { otpSms } from '../sms/texts.ts';
import { createFirebaseVerifier } from './firebase.ts';
import { firebaseSignIn } from './firebase-plugin.ts';
import { oidcPlugin } from './oidc.ts';
import { isPlaceholderEmail, placeholderEmail } from './placeholder-email.ts';

const timestamps = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

/** Passwords: Better Auth's scrypt (N=16384, r=16, p=1, 64-byte key, random 16-byte salt); see ADR 0005. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const SESSION_DAYS = 30;

/** Links in mails lead to our own pages, in the member's language, carrying the token. */
export const LINK_TTL_SECONDS = 60 * 60;

/** Phone codes: 6 digits, valid 10 minutes, 5 wrong tries before the code is void. */
export const OTP_TTL_SECONDS = 10 * 60;
export const OTP_ATTEMPTS = 5;

/** Where Better Auth's endpoints live (only an allowlist is served: server/http/auth-endpoints.ts). */
export const AUTH_BASE_PATH = '/api/auth';

/** Set by the HTTP shell (and by `authMeta` for calls from pages) to the client IP it resolved. */
export const CLIENT_IP_HEADER = 'x-souq-client-ip';

export interface AuthDeps {
  sms?: SmsSender;
  /** Queue no mail at all: for creating accounts that are verified already (demo accounts). */
  quiet?: boolean;
  logger?: Logger;
}

/** The language of a code sent from a request: our pages pass it in `x-locale`. */
function localeOfRequest(ctx: unknown): Locale {
  const headers = (ctx as { headers?: Headers } | undefined)?.headers;
  const value = headers?.get?.('x-locale');
  return isLocale(value) ? value : 'ar';
}

/** The public origin links in mails and texts point at. */
export const siteBaseUrl = (config: Config) => config.appUrl ?? `http://localhost:${config.port}`;

export function createAuth(config: Config, database: DatabaseHandle, { sms, logger, quiet }: AuthDeps = {}) {
  // Mails are `send-mail` jobs (server/mail/outbox.ts), enqueued on their own: Better Auth calls
  // these callbacks outside our transactions, after writing its own rows. The queue retries a
  // refused or unreachable SMTP server; a job that cannot even be stored must not fail the sign-up
  // or reset request either (the account exists and the member can ask again): it is logged.
  const send = async (kind: MailKind, message: MailMessage) => {
    if (quiet || isPlaceholderEmail(message.to)) return;
    await enqueue(database.db, 'send-mail', mailJob(kind, message)).catch((err) =>
      logger?.error({ err, kind }, 'account mail could not be queued'),
    );
  };
  // A code that cannot be sent fails the request: the member is waiting for it on the next screen.
  const sendCode = async (kind: 'verify' | 'reset', to: string, code: string, ctx: unknown) => {
    if (!sms) throw new Error('No SMS sender configured');
    await sms.send({ to, text: otpSms(localeOfRequest(ctx), kind, code, OTP_TTL_SECONDS / 60) });
  };
  const baseUrl = siteBaseUrl(config);
  const localeOfUser = (user: { locale?: unknown }): Locale => (isLocale(user.locale) ? user.locale : 'ar');
  const link = (page: string, locale: Locale, token: string) =>
    `${baseUrl}${localizePath(page, locale)}?token=${encodeURIComponent(token)}`;
  return betterAuth({
    appName: 'Souq',
    database: { db: database.db, type: database.dialect, casing: 'snake' },
    secret: config.authSecret,
    baseURL: baseUrl,
    basePath: AUTH_BASE_PATH,
    telemetry: { enabled: false },
    // Into our JSON log. Better Auth warns about every wrong password or unknown user; those are
    // ordinary refusals (answered and rate-limited by us), so only its errors are kept.
    logger: {
      level: 'error',
      log: (level, message, ...args) => logger?.[level === 'debug' ? 'debug' : level]({ args }, `auth: ${message}`),
    },
    user: {
      modelName: 'users',
      fields: { emailVerified: 'email_verified', ...timestamps },
      additionalFields: {
        locale: { type: 'string', required: false, defaultValue: 'ar', input: true },
        is_super_admin: { type: 'boolean', required: false, defaultValue: false, input: false },
      },
      // A new address is mailed a link and replaces the old one only when the link is opened.
      changeEmail: { enabled: true },
      // Deleting needs the password (checked by Better Auth); what happens to the member's data is
      // decided in server/domain/profile.ts.
      deleteUser: { enabled: true },
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
      // Registration never signs in: a new address is confirmed by its link first, and a taken one
      // gets the very same answer (Better Auth then returns a stand-in user after the same password
      // hash); server/domain/accounts.ts tells the owner. Phone sign-ups sign in explicitly.
      autoSignIn: false,
      resetPasswordTokenExpiresIn: LINK_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      // Not awaited: an unknown email is answered at once, so a known one must not wait for the mail.
      sendResetPassword: async ({ user, token }) => {
        const locale = localeOfUser(user as { locale?: unknown });
        const url = link('/account/reset-password', locale, token);
        void send('reset-password', resetPasswordMail(locale, user.email, user.name, url));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // A mailed link never signs anyone in: a forwarded or leaked mail must not open the account.
      autoSignInAfterVerification: false,
      expiresIn: LINK_TTL_SECONDS,
      // In the background, like reset mails: the answer never waits for (or reveals) the mail.
      sendVerificationEmail: async ({ user, token }) => {
        const locale = localeOfUser(user as { locale?: unknown });
        const url = link('/account/email-verification', locale, token);
        // The same link confirms a sign-up and a change of address; the token says which.
        const change = decodeJwt(token).requestType === 'change-email-verification';
        void send(
          change ? 'change-email' : 'verify-email',
          (change ? changeEmailMail : verifyEmailMail)(locale, user.email, user.name, url),
        );
      },
    },
    databaseHooks: {
      session: {
        create: {
          // Every way in (password, phone, OIDC, Firebase) ends here: a banned member gets no session.
          before: async (session, ctx) => {
            const user = await database.db
              .selectFrom('users')
              .select(['banned_at', 'email', 'email_verified'])
              .where('id', '=', session.userId)
              .executeTakeFirst();
            if (user?.banned_at) throw new APIError('FORBIDDEN', { code: 'USER_DISABLED', message: 'user-disabled' });
            // A password sign-in by email needs the address confirmed first (after the password was
            // checked, so only the registrant learns it). Phone sign-ups' placeholder addresses are
            // ours and never confirmed: they are signed in right after registering.
            if (
              ctx?.path === '/sign-in/email' &&
              user &&
              !toBool(user.email_verified) &&
              !isPlaceholderEmail(user.email)
            ) {
              throw new APIError('FORBIDDEN', { code: 'EMAIL_NOT_VERIFIED', message: 'email-not-verified' });
            }
          },
        },
      },
    },
    // Off: Better Auth's limiter keeps its counts in process memory (lost at restart, one bucket per
    // process of a cluster) and does not apply to `auth.api.*` calls anyway. Every way in is limited
    // by our database-backed rules (server/domain/rate-limit.ts): the pages through the domain
    // functions, the few HTTP endpoints left open through server/http/auth-endpoints.ts.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: 'souq',
      useSecureCookies: config.appUrl?.startsWith('https://') ?? false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    trustedOrigins: config.appUrl ? [config.appUrl] : [],
    plugins: [
      ...(config.oidc ? [oidcPlugin(config.oidc)] : []),
      ...(config.firebase
        ? [
            firebaseSignIn(
              createFirebaseVerifier({ projectId: config.firebase.projectId, jwksUrl: config.firebase.jwksUrl }),
              placeholderEmail,
            ),
          ]
        : []),
      phoneNumber({
        otpLength: 6,
        expiresIn: OTP_TTL_SECONDS,
        allowedAttempts: OTP_ATTEMPTS,
        // Only E.164 reaches Better Auth: our forms normalise what members type.
        phoneNumberValidator: (value) => /^\+[1-9]\d{5,14}$/.test(value),
        sendOTP: ({ phoneNumber: to, code }, ctx) => sendCode('verify', to, code, ctx),
        // In the background, as for reset mails: unknown numbers get no text and no wait.
        sendPasswordResetOTP: ({ phoneNumber: to, code }, ctx) => {
          sendCode('reset', to, code, ctx).catch((err) => logger?.error({ err }, 'reset code could not be sent'));
        },
        schema: { user: { fields: { phoneNumber: 'phone_number', phoneNumberVerified: 'phone_number_verified' } } },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
