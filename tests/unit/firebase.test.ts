import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFirebaseVerifier,
  FIREBASE_ERROR_CODES,
  FIREBASE_MESSAGE_CODES,
  FirebaseTokenError,
  mapFirebaseError,
} from '../../server/auth/firebase.ts';

const PROJECT = 'souq-test';
const ISSUER = `https://securetoken.google.com/${PROJECT}`;
const KID = 'key-1';
// A fixed clock: claims are written relative to it, so the tests do not depend on the machine's time.
const NOW = new Date('2030-06-01T12:00:00Z');
const T = Math.floor(NOW.getTime() / 1000);

let privateKey: CryptoKey;
let otherPrivateKey: CryptoKey;
let jwks: JSONWebKeySet;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  otherPrivateKey = (await generateKeyPair('RS256')).privateKey;
  // The shape Google publishes: kid, alg and use on each RSA key.
  const publicJwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  jwks = { keys: [publicJwk] };
});

type Claims = Record<string, unknown>;

/** A token as Firebase mints it, with `overrides` applied (undefined removes a claim). */
async function token(
  overrides: Claims = {},
  header: { alg?: string; kid?: string } = {},
  key: CryptoKey | Uint8Array = privateKey,
) {
  const claims: Claims = {
    iss: ISSUER,
    aud: PROJECT,
    auth_time: T - 600,
    user_id: 'uid-123',
    sub: 'uid-123',
    iat: T - 60,
    exp: T + 3540,
    email: 'amal@example.com',
    email_verified: true,
    phone_number: '+963912345678',
    name: 'Amal',
    picture: 'https://example.com/amal.png',
    firebase: { identities: { email: ['amal@example.com'] }, sign_in_provider: 'password' },
    ...overrides,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  const protectedHeader: { alg: string; kid?: string; typ: string } = { alg: 'RS256', kid: KID, typ: 'JWT', ...header };
  return new SignJWT(claims).setProtectedHeader(protectedHeader).sign(key);
}

const verifier = (extra: { clockToleranceSeconds?: number } = {}) =>
  createFirebaseVerifier({ projectId: PROJECT, jwks, now: () => NOW, ...extra });

/** The code `verify` failed with; fails the test if it succeeded or threw something else. */
async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(FirebaseTokenError);
    const { code } = err as FirebaseTokenError;
    expect(FIREBASE_ERROR_CODES).toContain(code);
    return code;
  }
  throw new Error('expected verification to fail');
}

describe('createFirebaseVerifier', () => {
  it('accepts a valid token and returns the identity', async () => {
    const identity = await verifier().verify(await token());
    expect(identity).toEqual({
      uid: 'uid-123',
      email: 'amal@example.com',
      emailVerified: true,
      phoneNumber: '+963912345678',
      name: 'Amal',
      picture: 'https://example.com/amal.png',
      signInProvider: 'password',
      authTime: new Date((T - 600) * 1000),
    });
  });

  it('returns nulls for claims a phone sign-in does not carry', async () => {
    const identity = await verifier().verify(
      await token({
        email: undefined,
        email_verified: undefined,
        name: undefined,
        picture: undefined,
        firebase: { sign_in_provider: 'phone' },
      }),
    );
    expect(identity).toMatchObject({
      email: null,
      emailVerified: false,
      name: null,
      picture: null,
      phoneNumber: '+963912345678',
      signInProvider: 'phone',
    });
  });

  it('refuses an expired token as user-token-expired', async () => {
    expect(await failure(verifier().verify(await token({ iat: T - 3700, exp: T - 100 })))).toBe('user-token-expired');
  });

  it('allows a few seconds of clock skew, and no more', async () => {
    const justExpired = await token({ exp: T - 3 });
    await expect(verifier().verify(justExpired)).resolves.toMatchObject({ uid: 'uid-123' });
    expect(await failure(verifier({ clockToleranceSeconds: 0 }).verify(justExpired))).toBe('user-token-expired');
    await expect(verifier().verify(await token({ iat: T + 3 }))).resolves.toMatchObject({ uid: 'uid-123' });
  });

  it('refuses a token issued in the future', async () => {
    expect(await failure(verifier().verify(await token({ iat: T + 120 })))).toBe('invalid-credential');
  });

  it('refuses a missing or future auth_time', async () => {
    expect(await failure(verifier().verify(await token({ auth_time: undefined })))).toBe('invalid-credential');
    expect(await failure(verifier().verify(await token({ auth_time: T + 120 })))).toBe('invalid-credential');
    expect(await failure(verifier().verify(await token({ auth_time: 'yesterday' })))).toBe('invalid-credential');
  });

  it('refuses a token without exp or iat', async () => {
    expect(await failure(verifier().verify(await token({ exp: undefined })))).toBe('invalid-credential');
    expect(await failure(verifier().verify(await token({ iat: undefined })))).toBe('invalid-credential');
  });

  it('refuses a token for another project (aud)', async () => {
    expect(await failure(verifier().verify(await token({ aud: 'other-project' })))).toBe('invalid-credential');
    // jose alone would accept an array containing the project id; Firebase's aud is exactly the project.
    expect(await failure(verifier().verify(await token({ aud: [PROJECT, 'other'] })))).toBe('invalid-credential');
  });

  it('refuses a wrong issuer', async () => {
    const iss = 'https://securetoken.google.com/other-project';
    expect(await failure(verifier().verify(await token({ iss })))).toBe('invalid-credential');
    expect(await failure(verifier().verify(await token({ iss: undefined })))).toBe('invalid-credential');
  });

  it('refuses an unknown or missing kid', async () => {
    expect(await failure(verifier().verify(await token({}, { kid: 'key-9' })))).toBe('invalid-credential');
    expect(await failure(verifier().verify(await token({}, { kid: undefined })))).toBe('invalid-credential');
  });

  it('refuses a signature by another key under a known kid', async () => {
    expect(await failure(verifier().verify(await token({}, {}, otherPrivateKey)))).toBe('invalid-credential');
  });

  it('refuses a tampered payload', async () => {
    const [head, , signature] = (await token()).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'admin', aud: PROJECT, iss: ISSUER })).toString('base64url');
    expect(await failure(verifier().verify(`${head}.${forged}.${signature}`))).toBe('invalid-credential');
  });

  it('refuses HS256, whatever the secret', async () => {
    const secret = new TextEncoder().encode('a shared secret of thirty-two bytes');
    expect(await failure(verifier().verify(await token({}, { alg: 'HS256' }, secret)))).toBe('invalid-credential');
  });

  it('refuses an unsigned token (alg none)', async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = { iss: ISSUER, aud: PROJECT, sub: 'uid-123', iat: T - 60, exp: T + 60, auth_time: T - 60 };
    const unsigned = `${part({ alg: 'none', kid: KID })}.${part(claims)}.`;
    expect(await failure(verifier().verify(unsigned))).toBe('invalid-credential');
  });

  it('refuses a missing, empty or non-string sub', async () => {
    expect(await failure(verifier().verify(await token({ sub: undefined })))).toBe('invalid-credential');
    expect(await failure(verifier().verify(await token({ sub: '' })))).toBe('invalid-credential');
    expect(await failure(verifier().verify(await token({ sub: 42 })))).toBe('invalid-credential');
  });

  it('accepts a 128-character sub and refuses 129', async () => {
    await expect(verifier().verify(await token({ sub: 'u'.repeat(128) }))).resolves.toMatchObject({
      uid: 'u'.repeat(128),
    });
    expect(await failure(verifier().verify(await token({ sub: 'u'.repeat(129) })))).toBe('invalid-credential');
  });

  it('refuses malformed strings', async () => {
    for (const bad of ['', 'not-a-jwt', 'a.b.c', 'a.b', '...', `${await token()}x.y`]) {
      expect(await failure(verifier().verify(bad)), bad).toBe('invalid-credential');
    }
    expect(await failure(verifier().verify(undefined as unknown as string))).toBe('invalid-credential');
  });

  it('rejects a bad configuration at creation', () => {
    expect(() => createFirebaseVerifier({ projectId: '' })).toThrow(TypeError);
    expect(() => createFirebaseVerifier({ projectId: PROJECT, jwks, clockToleranceSeconds: -1 })).toThrow(TypeError);
  });
});

describe('createFirebaseVerifier with a remote JWKS', () => {
  let server: http.Server;
  let baseUrl: string;
  let requests: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/jwks') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
      } else if (req.url === '/broken') {
        res.writeHead(500).end('oops');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end('not json');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const remote = (path: string) =>
    createFirebaseVerifier({ projectId: PROJECT, jwksUrl: `${baseUrl}${path}`, now: () => NOW });

  it('fetches the keys once and verifies with them', async () => {
    requests = [];
    const v = remote('/jwks');
    await expect(v.verify(await token())).resolves.toMatchObject({ uid: 'uid-123' });
    await expect(v.verify(await token({ sub: 'uid-456' }))).resolves.toMatchObject({ uid: 'uid-456' });
    expect(requests).toEqual(['/jwks']);
    // An unknown kid is a bad token, not an outage.
    expect(await failure(v.verify(await token({}, { kid: 'key-9' })))).toBe('invalid-credential');
  });

  it('does not fetch keys for a token with the wrong alg', async () => {
    requests = [];
    const secret = new TextEncoder().encode('a shared secret of thirty-two bytes');
    expect(await failure(remote('/jwks').verify(await token({}, { alg: 'HS256' }, secret)))).toBe('invalid-credential');
    expect(requests).toEqual([]);
  });

  it('reports an unusable key set as network-request-failed', async () => {
    expect(await failure(remote('/broken').verify(await token()))).toBe('network-request-failed');
    expect(await failure(remote('/garbage').verify(await token()))).toBe('network-request-failed');
  });

  it('reports an unreachable key server as network-request-failed', async () => {
    // Take a free port and close it again, so the connection is refused.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const v = createFirebaseVerifier({ projectId: PROJECT, jwksUrl: `http://127.0.0.1:${port}/jwks`, now: () => NOW });
    expect(await failure(v.verify(await token()))).toBe('network-request-failed');
  });
});

describe('mapFirebaseError', () => {
  const cases: [string, string][] = [
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
    ['MISSING_MFA_ENROLLMENT_ID', 'invalid-credential'],
    ['MFA_ENROLLMENT_NOT_FOUND', 'invalid-credential'],
  ];

  it.each(cases)('maps %s to %s', (message, code) => {
    expect(mapFirebaseError(message)).toBe(code);
  });

  it('matches on the leading code when the message carries detail', () => {
    const message = 'TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled';
    expect(mapFirebaseError(message)).toBe('too-many-requests');
    expect(mapFirebaseError('INVALID_PHONE_NUMBER : Invalid format.')).toBe('must-be-a-valid-phone-number');
    expect(mapFirebaseError('INVALID_PASSWORD:detail')).toBe('wrong-password');
  });

  it('maps anything unknown to internal', () => {
    for (const message of ['', 'WEAK_PASSWORD : Password should be at least 6 characters', 'EMAIL', 'constructor']) {
      expect(mapFirebaseError(message), message).toBe('internal');
    }
    // A code is matched whole, not as a prefix.
    expect(mapFirebaseError('EMAIL_EXISTS_ALREADY')).toBe('internal');
    expect(mapFirebaseError('SUMFACTOR')).toBe('internal');
  });

  it('lists exactly the codes it can return', () => {
    const returned = new Set([...cases.map(([, code]) => code), 'internal']);
    expect(new Set(FIREBASE_MESSAGE_CODES)).toEqual(returned);
  });
});
