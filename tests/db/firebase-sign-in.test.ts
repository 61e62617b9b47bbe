// Firebase sign-in through the app's own Better Auth instance: ID tokens signed by a test key whose
// JWKS is served over real HTTP (as Google serves its keys), exchanged for our sessions.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, createAuth } from '../../server/auth/index.ts';
import { loadConfig } from '../../server/config.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const PROJECT = 'souq-test';
const KID = 'test-key-1';

describe.each(dialects)('Firebase sign-in on %s', (dialect) => {
  let t: TestDatabase;
  let auth: Auth;
  let key: CryptoKey;
  let dataDir: string;
  const jwks = createServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(publicKeys));
  });
  let publicKeys: unknown;

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    const pair = await generateKeyPair('RS256');
    key = pair.privateKey;
    publicKeys = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] };
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    dataDir = mkdtempSync(path.join(tmpdir(), 'souq-firebase-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      AUTH_SECRET: 'firebase-test-secret-0123456789-abcdefghijkl',
      FIREBASE_PROJECT_ID: PROJECT,
      FIREBASE_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/keys`,
    });
    auth = createAuth(config, t);
  });
  afterAll(async () => {
    await new Promise<void>((r) => jwks.close(() => r()));
    await t?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const now = () => Math.floor(Date.now() / 1000);
  function token(claims: Record<string, unknown>, opts: { aud?: string; exp?: number } = {}) {
    return new SignJWT({ auth_time: now() - 60, firebase: { sign_in_provider: 'password' }, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: KID })
      .setIssuer(`https://securetoken.google.com/${PROJECT}`)
      .setAudience(opts.aud ?? PROJECT)
      .setIssuedAt(now() - 30)
      .setExpirationTime(opts.exp ?? now() + 3600)
      .sign(key);
  }
  async function exchange(idToken: string, contentType = 'application/json') {
    const res = await auth.handler(
      new Request('http://localhost:3000/api/auth/sign-in/firebase', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: contentType === 'application/json' ? JSON.stringify({ idToken }) : `idToken=${idToken}`,
      }),
    );
    const body = (await res.json().catch(() => null)) as { user?: { id: string }; code?: string } | null;
    const cookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('souq.session_token='))
      ?.split(';')[0];
    return { status: res.status, body, cookie };
  }
  const userOf = async (cookie: string | undefined) =>
    (await auth.api.getSession({ headers: new Headers({ cookie: cookie ?? '' }) }))?.user as
      | (Record<string, unknown> & { id: string; email: string })
      | undefined;
  const firebaseAccounts = (userId: string) =>
    t.db
      .selectFrom('accounts')
      .select('account_id')
      .where('user_id', '=', userId)
      .where('provider_id', '=', 'firebase')
      .execute();

  it('creates a member from a new Firebase identity and signs them in, then finds them again by uid', async () => {
    const first = await exchange(
      await token({ sub: 'uid-amal', email: 'Amal@Example.ly', email_verified: true, name: 'Amal' }),
    );
    expect(first.status).toBe(200);
    const user = await userOf(first.cookie);
    expect(user).toMatchObject({ email: 'amal@example.ly', emailVerified: true, name: 'Amal', is_super_admin: false });
    expect(await firebaseAccounts(user?.id ?? '')).toEqual([{ account_id: 'uid-amal' }]);

    const again = await exchange(await token({ sub: 'uid-amal', email: 'amal@example.ly', email_verified: true }));
    expect((await userOf(again.cookie))?.id).toBe(user?.id);
    expect(again.cookie).not.toBe(first.cookie);
    expect(await firebaseAccounts(user?.id ?? '')).toHaveLength(1);
  });

  it('links to a member whose email both sides have verified, and refuses when ours is unverified', async () => {
    await auth.api.signUpEmail({ body: { name: 'Verified', email: 'verified@example.ly', password: 'a-passphrase' } });
    await t.db
      .updateTable('users')
      .set({ email_verified: dialect === 'sqlite' ? 1 : true } as never)
      .where('email', '=', 'verified@example.ly')
      .execute();
    const linked = await exchange(await token({ sub: 'uid-v', email: 'verified@example.ly', email_verified: true }));
    expect(linked.status).toBe(200);
    expect((await userOf(linked.cookie))?.email).toBe('verified@example.ly');

    await auth.api.signUpEmail({
      body: { name: 'Unverified', email: 'unverified@example.ly', password: 'a-passphrase' },
    });
    const refused = await exchange(await token({ sub: 'uid-u', email: 'unverified@example.ly', email_verified: true }));
    expect(refused.status).toBe(401);
    expect(refused.body?.code).toBe('account-exists-with-different-credential');
    expect(refused.cookie).toBeUndefined();
    const unverifiedClaim = await exchange(
      await token({ sub: 'uid-w', email: 'verified@example.ly', email_verified: false }),
    );
    expect(unverifiedClaim.status).toBe(401);
  });

  it('creates a phone-only member with the number Firebase confirmed and no visible email', async () => {
    const res = await exchange(await token({ sub: 'uid-phone', phone_number: '+218913334455' }));
    expect(res.status).toBe(200);
    const user = await userOf(res.cookie);
    expect(user).toMatchObject({ phoneNumber: '+218913334455', phoneNumberVerified: true, emailVerified: false });
    expect(user?.email).toMatch(/@phone\.souq\.invalid$/);
  });

  it('refuses expired, foreign and malformed tokens with our error codes, and form posts', async () => {
    const expired = await exchange(await token({ sub: 'uid-x' }, { exp: now() - 120 }));
    expect([expired.status, expired.body?.code]).toEqual([401, 'user-token-expired']);
    const foreign = await exchange(await token({ sub: 'uid-x' }, { aud: 'another-project' }));
    expect([foreign.status, foreign.body?.code]).toEqual([401, 'invalid-credential']);
    const garbage = await exchange('not.a.token');
    expect([garbage.status, garbage.body?.code]).toEqual([401, 'invalid-credential']);
    const form = await exchange(await token({ sub: 'uid-x' }), 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    expect(form.cookie).toBeUndefined();
  });

  it('gives a banned member no session', async () => {
    const first = await exchange(await token({ sub: 'uid-banned', email: 'banned@example.ly', email_verified: true }));
    const user = await userOf(first.cookie);
    await t.db
      .updateTable('users')
      .set({ banned_at: new Date().toISOString() } as never)
      .where('id', '=', user?.id ?? '')
      .execute();
    const again = await exchange(await token({ sub: 'uid-banned', email: 'banned@example.ly', email_verified: true }));
    expect(again.status).toBe(403);
    expect(again.body?.code).toBe('USER_DISABLED');
    expect(again.cookie).toBeUndefined();
  });
});
