// Firebase ID-token verification, without the Admin SDK: a browser signs in with Firebase and posts
// its ID token; we trust the identity only after the checks Firebase documents for third-party JWT libraries
// (https://firebase.google.com/docs/auth/admin/verify-id-tokens, "Verify ID tokens using a third-party JWT library"):
//
// - header: `alg` is RS256 (nothing else, so an HS256 token "signed" with a public key is refused) and
//   `kid` names one of Google's securetoken keys (JWKS, cached and refetched by jose on an unknown kid);
// - signature by that key;
// - `aud` is exactly our project id and `iss` is https://securetoken.google.com/<project id>, so a
//   token minted for another Firebase project is refused even though Google signed it;
// - `exp` in the future, `iat` and `auth_time` in the past (a few seconds of clock skew allowed);
// - `sub` a non-empty string of at most 128 characters: it is the Firebase uid.
//
// jose does part of this (alg, signature, iss, exp); it accepts an `aud` array that merely contains the
// project id and checks `iat` only together with a maximum age, so those and the Firebase-specific claims
// are checked here. Every failure is a FirebaseTokenError carrying one of our error codes, so callers
// and the translated messages never see jose's own error classes.
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';

export const GOOGLE_JWKS_URL =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

/** Codes `verify` can fail with. */
export const FIREBASE_ERROR_CODES = ['user-token-expired', 'invalid-credential', 'network-request-failed'] as const;
export type FirebaseErrorCode = (typeof FIREBASE_ERROR_CODES)[number];

export class FirebaseTokenError extends Error {
  readonly code: FirebaseErrorCode;
  constructor(code: FirebaseErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FirebaseTokenError';
    this.code = code;
  }
}

export interface FirebaseIdentity {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  phoneNumber: string | null;
  name: string | null;
  picture: string | null;
  /** `firebase.sign_in_provider`: 'password', 'phone', 'google.com', … */
  signInProvider: string | null;
  authTime: Date;
}

export interface FirebaseVerifierOptions {
  projectId: string;
  jwksUrl?: string;
  /** A fixed key set instead of fetching one (tests, offline use); takes precedence over jwksUrl. */
  jwks?: JSONWebKeySet;
  clockToleranceSeconds?: number;
  now?: () => Date;
}

export interface FirebaseVerifier {
  verify(idToken: string): Promise<FirebaseIdentity>;
}

const UID_MAX = 128;
// jose's default; Google answers in well under a second, and a sign-in should not hang on it.
const JWKS_TIMEOUT_MS = 5000;

export function createFirebaseVerifier(options: FirebaseVerifierOptions): FirebaseVerifier {
  const { projectId } = options;
  if (!projectId) throw new TypeError('Firebase projectId is required');
  const tolerance = options.clockToleranceSeconds ?? 5;
  // Checked here so a bad setting fails at start-up instead of turning every token into invalid-credential.
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new TypeError('clockToleranceSeconds must be >= 0');
  const now = options.now ?? (() => new Date());
  const issuer = `https://securetoken.google.com/${projectId}`;

  const remote = !options.jwks;
  const keySet = options.jwks
    ? createLocalJWKSet(options.jwks)
    : createRemoteJWKSet(new URL(options.jwksUrl ?? GOOGLE_JWKS_URL), { timeoutDuration: JWKS_TIMEOUT_MS });

  const getKey: JWTVerifyGetKey = async (header, token) => {
    // Without a kid jose would pick any single matching key; Firebase always names its key.
    if (typeof header.kid !== 'string' || !header.kid) throw invalid('token header has no "kid"');
    try {
      return await keySet(header, token);
    } catch (cause) {
      if (
        cause instanceof errors.JWKSNoMatchingKey ||
        cause instanceof errors.JWKSMultipleMatchingKeys ||
        cause instanceof errors.JOSENotSupported
      ) {
        throw invalid(`no Firebase key "${header.kid}" for ${header.alg}`, cause);
      }
      // Anything else means the key set could not be had: refused connection, DNS, timeout, non-200,
      // a body that is not a JWKS. That is our outage, not a bad token, so the caller may retry.
      if (!remote) throw invalid('unusable key in the configured JWKS', cause);
      throw new FirebaseTokenError('network-request-failed', 'Firebase signing keys unavailable', { cause });
    }
  };

  return {
    async verify(idToken) {
      if (typeof idToken !== 'string' || !idToken) throw invalid('no ID token');
      const at = now();
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(idToken, getKey, {
          algorithms: ['RS256'],
          issuer,
          audience: projectId,
          requiredClaims: ['exp', 'iat', 'auth_time', 'sub'],
          clockTolerance: tolerance,
          currentDate: at,
        }));
      } catch (err) {
        if (err instanceof FirebaseTokenError) throw err;
        if (err instanceof errors.JWTExpired)
          throw new FirebaseTokenError('user-token-expired', err.message, { cause: err });
        // Malformed compact form, bad signature, wrong alg/iss/aud, missing claims.
        throw invalid(err instanceof Error ? err.message : 'invalid ID token', err);
      }

      const seconds = Math.floor(at.getTime() / 1000);
      if (payload.aud !== projectId) throw invalid('"aud" must be exactly the project id');
      if (!isTimestamp(payload.iat) || payload.iat > seconds + tolerance) throw invalid('"iat" is in the future');
      const authTime = payload.auth_time;
      if (!isTimestamp(authTime) || authTime > seconds + tolerance)
        throw invalid('"auth_time" is missing or in the future');
      const uid = payload.sub;
      if (typeof uid !== 'string' || !uid || uid.length > UID_MAX) throw invalid('"sub" must be 1-128 characters');

      const firebase = isRecord(payload.firebase) ? payload.firebase : {};
      return {
        uid,
        email: stringOrNull(payload.email),
        emailVerified: payload.email_verified === true,
        phoneNumber: stringOrNull(payload.phone_number),
        name: stringOrNull(payload.name),
        picture: stringOrNull(payload.picture),
        signInProvider: stringOrNull(firebase.sign_in_provider),
        authTime: new Date(authTime * 1000),
      };
    },
  };
}

const invalid = (message: string, cause?: unknown) => new FirebaseTokenError('invalid-credential', message, { cause });
const isTimestamp = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOrNull = (value: unknown) => (typeof value === 'string' && value ? value : null);

/** Every code `mapFirebaseError` can return; each needs wording in the errors catalogue. */
export const FIREBASE_MESSAGE_CODES = [
  'email-already-in-use',
  'wrong-password',
  'invalid-credential',
  'user-not-found',
  'too-many-requests',
  'expired-action-code',
  'invalid-action-code',
  'requires-recent-login',
  'user-token-expired',
  'user-disabled',
  'must-be-a-valid-phone-number',
  'internal',
] as const;
export type FirebaseMessageCode = (typeof FIREBASE_MESSAGE_CODES)[number];

// Identity Toolkit REST error messages (error.message) → our codes (docs/product/accounts-and-roles.md). A Map, not an
// object literal, so a message such as "constructor" cannot hit Object.prototype.
const MESSAGE_CODES = new Map<string, FirebaseMessageCode>([
  ['EMAIL_EXISTS', 'email-already-in-use'],
  ['INVALID_PASSWORD', 'wrong-password'],
  ['INVALID_LOGIN_CREDENTIALS', 'invalid-credential'],
  ['EMAIL_NOT_FOUND', 'user-not-found'],
  ['TOO_MANY_ATTEMPTS_TRY_LATER', 'too-many-requests'],
  ['EXPIRED_OOB_CODE', 'expired-action-code'],
  ['INVALID_OOB_CODE', 'invalid-action-code'],
  ['CREDENTIAL_TOO_OLD_LOGIN_AGAIN', 'requires-recent-login'],
  ['TOKEN_EXPIRED', 'user-token-expired'],
  ['USER_DISABLED', 'user-disabled'],
  ['INVALID_ID_TOKEN', 'invalid-credential'],
  ['USER_NOT_FOUND', 'user-not-found'],
  ['INVALID_PHONE_NUMBER', 'must-be-a-valid-phone-number'],
  ['INVALID_CODE', 'invalid-action-code'],
  ['INVALID_VERIFICATION_CODE', 'invalid-action-code'],
  ['SESSION_EXPIRED', 'expired-action-code'],
  ['CODE_EXPIRED', 'expired-action-code'],
  ['QUOTA_EXCEEDED', 'too-many-requests'],
  ['MISSING_OR_INVALID_NONCE', 'invalid-credential'],
  ['INVALID_RECAPTCHA_TOKEN', 'invalid-credential'],
  ['MISSING_MFA_PENDING_CREDENTIAL', 'invalid-credential'],
  ['INVALID_MFA_PENDING_CREDENTIAL', 'invalid-credential'],
]);

/**
 * Maps an Identity Toolkit error message to our code. Messages may carry detail after the code
 * ("TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled…"), so only the
 * leading code counts. Other MFA codes (MISSING_MFA_ENROLLMENT_ID, MFA_ENROLLMENT_NOT_FOUND, …) mean the
 * second-factor step failed: invalid-credential. Anything unknown is 'internal'.
 */
export function mapFirebaseError(message: string): FirebaseMessageCode {
  const code = String(message ?? '')
    .trim()
    .split(/[\s:]/, 1)[0];
  const known = MESSAGE_CODES.get(code);
  if (known) return known;
  if (/(^|_)MFA(_|$)/.test(code)) return 'invalid-credential';
  return 'internal';
}
