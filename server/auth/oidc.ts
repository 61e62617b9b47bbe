// "Sign in with <OpenID Connect provider>" through Better Auth's generic OAuth plugin. Configured by
// environment (OIDC_*); absent OIDC_ISSUER means the site offers no such button. Better Auth serves the
// flow on its core endpoints: POST /api/auth/sign-in/social { provider: 'oidc' } and the redirect URI
// to register at the provider, <APP_URL>/api/auth/callback/oidc.
import { genericOAuth } from 'better-auth/plugins';
import { isLocale, type Locale } from '../../app/i18n/config.ts';
import { ConfigError } from '../config.ts';

export const OIDC_PROVIDER_ID = 'oidc';

export interface OidcProvider {
  /** Issuer URL without trailing slash; discovery is read from `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Label of the sign-in button. */
  name: string;
  scopes: string[];
}

/** Reads OIDC_*; undefined when OIDC_ISSUER is unset, a ConfigError naming each bad variable otherwise. */
export function oidcProviderFromEnv(env: NodeJS.ProcessEnv): OidcProvider | undefined {
  const value = (name: string) => env[name]?.trim() || undefined;
  const rawIssuer = value('OIDC_ISSUER');
  if (!rawIssuer) return undefined;
  const problems: string[] = [];
  let issuer = '';
  const url = URL.parse(rawIssuer);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    problems.push('OIDC_ISSUER: must be an http(s) URL');
  } else if (url.search || url.hash) {
    // An issuer identifier has neither (OpenID Connect Discovery §2); the discovery URL is built from it.
    problems.push('OIDC_ISSUER: must not have a query or fragment');
  } else {
    issuer = url.href.replace(/\/+$/, '');
  }
  const clientId = value('OIDC_CLIENT_ID');
  const clientSecret = value('OIDC_CLIENT_SECRET');
  if (!clientId) problems.push('OIDC_CLIENT_ID: required when OIDC_ISSUER is set');
  if (!clientSecret) problems.push('OIDC_CLIENT_SECRET: required when OIDC_ISSUER is set');
  const scopes = (value('OIDC_SCOPES') ?? 'openid email profile').split(/[\s,]+/).filter(Boolean);
  // Without openid there is no ID token, and without email no account can be matched or created.
  for (const needed of ['openid', 'email']) {
    if (!scopes.includes(needed)) problems.push(`OIDC_SCOPES: must include ${needed}`);
  }
  if (problems.length > 0 || !clientId || !clientSecret) {
    throw new ConfigError(`Invalid environment configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return { issuer, clientId, clientSecret, name: value('OIDC_NAME') ?? 'OpenID', scopes };
}

const NAME_MAX = 120; // users.name is varchar(120)
const IMAGE_MAX = 500; // users.image is varchar(500)

const claim = (profile: Record<string, unknown>, key: string) =>
  typeof profile[key] === 'string' ? (profile[key] as string).trim() : '';

/** The site language of a `locale` claim (`en`, `en-US`, `ar_EG` …); Arabic when absent or another language. */
export function localeFromClaim(value: unknown): Locale {
  const language = typeof value === 'string' ? value.trim().toLowerCase().split(/[-_]/)[0] : undefined;
  return isLocale(language) ? language : 'ar';
}

/**
 * Provider claims → our user columns. Only these keys leave the mapping: a claim such as
 * `is_super_admin` never reaches the users table (Better Auth also drops `input: false` fields).
 */
export function mapOidcProfile(profile: Record<string, unknown>) {
  const email = claim(profile, 'email');
  const name = claim(profile, 'name') || claim(profile, 'preferred_username') || email.split('@')[0];
  const picture = claim(profile, 'picture');
  const verified = profile.email_verified;
  return {
    name: name.slice(0, NAME_MAX),
    email,
    emailVerified: verified === true || verified === 'true',
    image: /^https?:\/\//.test(picture) && picture.length <= IMAGE_MAX ? picture : undefined,
    locale: localeFromClaim(profile.locale),
  };
}

export function oidcPlugin(provider: OidcProvider) {
  return genericOAuth({
    config: [
      {
        providerId: OIDC_PROVIDER_ID,
        name: provider.name,
        discoveryUrl: `${provider.issuer}/.well-known/openid-configuration`,
        // Account identity is the ID token's `sub`: refuse the provider rather than fall back to
        // unverified tokens when discovery gives no issuer/JWKS (it is retried on the next sign-in).
        requireIdTokenVerification: true,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        scopes: provider.scopes,
        pkce: true,
        mapProfileToUser: (profile) => mapOidcProfile(profile),
      },
    ],
  });
}

/**
 * Better Auth's `?error=` after a failed provider round trip → our error codes (docs/product/accounts-and-roles.md):
 * the member cancelled, an account already uses the address, the member is banned; anything else
 * (state, code exchange, discovery, missing email) is one "did not complete" message.
 */
export const OIDC_ERROR_CODES = [
  'popup-closed-by-user',
  'account-exists-with-different-credential',
  'user-disabled',
  'external-sign-in-failed',
] as const;

export function oidcErrorCode(error: string): (typeof OIDC_ERROR_CODES)[number] {
  switch (error) {
    case 'access_denied':
      return 'popup-closed-by-user';
    case 'account_not_linked':
    case 'unable_to_link_account':
      return 'account-exists-with-different-credential';
    case 'USER_DISABLED':
      return 'user-disabled';
    default:
      return 'external-sign-in-failed';
  }
}
