// Better Auth's HTTP endpoints on a built server of their own with OpenID Connect and Firebase
// configured: only the allowlist of server/http/auth-endpoints.ts answers, behind our per-IP limits;
// every other endpoint Better Auth and its plugins define answers our translated 404 — the list is
// read from the auth instance itself, so an endpoint a new plugin adds is swept too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTestServer, startBuiltServer } from '../../scripts/lib/built-server.ts';
import { AUTH_BASE_PATH, createAuth } from '../../server/auth/index.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/index.ts';
import { EXPOSED_AUTH_ENDPOINTS, exposedAuthEndpoint } from '../../server/http/auth-endpoints.ts';
import { browser } from '../support/http-browser.ts';
import { smsUntil } from '../support/sms-outbox.ts';

const ENV = {
  OIDC_ISSUER: 'http://127.0.0.1:9/issuer',
  OIDC_CLIENT_ID: 'souq',
  OIDC_CLIENT_SECRET: 'souq-secret',
  FIREBASE_PROJECT_ID: 'souq-test',
  FIREBASE_JWKS_URL: 'http://127.0.0.1:9/keys',
};

let server: RunningTestServer;
let n = 0;
const visitor = () => browser(`10.77.${Math.floor(n / 250)}.${(n++ % 250) + 1}`, server.url);

/** Every endpoint of an auth instance configured like the server under test (`:param`s filled in). */
async function betterAuthEndpoints() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'souq-auth-list-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(40), ...ENV });
  const database = openDatabase(config.database);
  try {
    const auth = createAuth(config, database);
    const paths = Object.values(auth.api as Record<string, { path?: string }>)
      .map((endpoint) => endpoint.path)
      .filter((p): p is string => typeof p === 'string')
      .map((p) => p.replace(/:id\b/, 'oidc').replace(/:[a-zA-Z]+/g, 'x'));
    return { config, paths: [...new Set(paths)] };
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function call(method: string, pathname: string, opts: { ip?: string; cookie?: string; body?: unknown } = {}) {
  return fetch(server.url + pathname, {
    method,
    redirect: 'manual',
    headers: {
      origin: server.url,
      'content-type': 'application/json',
      'x-locale': 'en',
      'x-forwarded-for': opts.ip ?? '10.78.0.1',
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
    },
    body: method === 'GET' || method === 'HEAD' ? undefined : JSON.stringify(opts.body ?? {}),
  });
}

async function expectNotFound(res: Response, what: string) {
  expect(res.status, what).toBe(404);
  expect(await res.json(), what).toEqual({ message: 'Not found.' });
}

beforeAll(async () => {
  // Silent: the unreachable provider and the forged callbacks below are logged as errors otherwise.
  server = await startBuiltServer({
    SEED_DEMO: 'true',
    SEED_DEMO_ADS: 'false',
    TRUST_PROXY: '1',
    LOG_LEVEL: 'silent',
    ...ENV,
  });
});
afterAll(() => server?.stop());

describe('Better Auth over HTTP', () => {
  it('describes the configured endpoints in /api/openapi.json', async () => {
    const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
    expect(Object.keys(doc.paths['/auth/callback/oidc'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/auth/sign-in/firebase'])).toEqual(['post']);
    const described = Object.keys(doc.paths).filter((p) => p.startsWith('/auth/'));
    expect(described.sort()).toEqual(EXPOSED_AUTH_ENDPOINTS.map((e) => e.path.replace(/^/, '/auth')).sort());
  });

  it('answers 404 for every endpoint outside the allowlist, for GET and POST', async () => {
    const { config, paths } = await betterAuthEndpoints();
    // The list really comes from Better Auth and its plugins (core, phone number, Firebase, OIDC).
    for (const known of [
      '/sign-in/email',
      '/phone-number/send-otp',
      '/update-user',
      '/delete-user',
      '/callback/oidc',
    ]) {
      expect(paths).toContain(known);
    }
    expect(paths.length).toBeGreaterThan(30);
    const open: string[] = [];
    for (const p of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const res = await call(method, AUTH_BASE_PATH + p, { ip: '10.78.1.1' });
        if (exposedAuthEndpoint(config, method, p)) {
          open.push(`${method} ${p}`);
          expect(res.status, `${method} ${p}`).not.toBe(404);
          await res.body?.cancel();
        } else {
          await expectNotFound(res, `${method} ${p}`);
        }
      }
    }
    // Opening another endpoint is a decision to make here too (and in docs/accounts.md).
    expect(open.sort()).toEqual(['GET /callback/oidc', 'POST /sign-in/firebase']);
    expect(EXPOSED_AUTH_ENDPOINTS).toHaveLength(2);
  });

  it('matches the allowlist exactly: no trailing slash, double slash, other case or encoding', async () => {
    for (const p of [
      '/sign-in/firebase/',
      '//sign-in/firebase',
      '/Sign-In/firebase',
      '/sign-in/%66irebase',
      '/sign-in//firebase',
      '/callback/oidc/',
      '/callback/OIDC',
      '/',
    ]) {
      await expectNotFound(await call('POST', AUTH_BASE_PATH + p), `POST ${p}`);
      await expectNotFound(await call('GET', AUTH_BASE_PATH + p), `GET ${p}`);
    }
  });

  it('answers the 404 in Arabic by default', async () => {
    const res = await fetch(`${server.url}/api/auth/sign-in/email`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'غير موجود.' });
  });

  it('gives a password guesser nothing to talk to: JSON sign-in is not served', async () => {
    for (let i = 0; i < 15; i++) {
      await expectNotFound(
        await call('POST', '/api/auth/sign-in/email', { body: { email: 'user@souq.test', password: `guess-${i}` } }),
        'sign-in',
      );
    }
    // The right password does not open a session there either.
    const right = await call('POST', '/api/auth/sign-in/email', {
      body: { email: 'user@souq.test', password: 'password123' },
    });
    expect(right.status).toBe(404);
    expect(right.headers.getSetCookie().some((c) => c.startsWith('souq.session_token='))).toBe(false);
  });

  it('sends no SMS for a burst of send-otp requests', async () => {
    const phone = `+21891${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    for (let i = 0; i < 10; i++) {
      await expectNotFound(
        await call('POST', '/api/auth/phone-number/send-otp', { body: { phoneNumber: phone } }),
        'otp',
      );
    }
    // A sign-up by phone through the register page afterwards is texted its code: a code sent by
    // any of the burst would be there first.
    const rest = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
    const signUp = await visitor().post('/en/register', {
      name: 'Salem',
      login: `092${rest}`,
      password: 'phone-passphrase',
      password_confirmation: 'phone-passphrase',
      terms: 'on',
    });
    expect(signUp.status).toBe(302);
    const texts = await smsUntil(server.dataDir, { to: `+21892${rest}`, text: /Souq code/ });
    expect(texts.filter((m) => m.to === phone)).toEqual([]);
  });

  it('lets a signed-in member neither update nor delete the account through Better Auth', async () => {
    const member = visitor();
    const login = await member.post('/en/login', { login: 'user@souq.test', password: 'password123' });
    expect(login.status).toBe(302);
    const cookie = member.cookieHeader();
    await expectNotFound(
      await call('POST', '/api/auth/update-user', {
        cookie,
        body: { name: 'x', image: 'javascript:alert(1)' },
      }),
      'update-user',
    );
    await expectNotFound(
      await call('POST', '/api/auth/delete-user', { cookie, body: { password: 'password123' } }),
      'delete-user',
    );
    await expectNotFound(await call('GET', '/api/auth/list-sessions', { cookie }), 'list-sessions');
    await expectNotFound(
      await call('POST', '/api/auth/change-password', {
        cookie,
        body: { currentPassword: 'password123', newPassword: 'changed-passphrase' },
      }),
      'change-password',
    );
    const me = await member.whoami();
    expect(me.user).toMatchObject({ email: 'user@souq.test', image: null });
    expect(me.user?.name).not.toBe('x');
  });

  it('serves the Firebase exchange behind a per-IP limit stored in the database', async () => {
    const { limit } = EXPOSED_AUTH_ENDPOINTS.find((e) => e.path === '/sign-in/firebase')?.limit ?? { limit: 0 };
    expect(limit).toBeGreaterThan(0);
    const ip = '10.79.0.1';
    for (let i = 0; i < limit; i++) {
      const res = await call('POST', '/api/auth/sign-in/firebase', { ip, body: { idToken: 'not-a-token' } });
      expect(res.status).toBe(401);
      await res.body?.cancel();
    }
    const limited = await call('POST', '/api/auth/sign-in/firebase', { ip, body: { idToken: 'not-a-token' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(60);
    expect((await limited.json()) as { message: string }).toEqual({
      message: expect.stringMatching(/^Too many/),
    });
    // Another address is not affected.
    const other = await call('POST', '/api/auth/sign-in/firebase', { ip: '10.79.0.2', body: { idToken: 'x' } });
    expect(other.status).toBe(401);
  });

  it('serves the OpenID Connect callback by GET only, behind a per-IP limit', async () => {
    const callback = await call('GET', '/api/auth/callback/oidc?state=forged&code=forged', { ip: '10.79.1.1' });
    expect(callback.status).toBe(302);
    await expectNotFound(await call('POST', '/api/auth/callback/oidc', { ip: '10.79.1.1' }), 'POST callback');
    const { limit } = EXPOSED_AUTH_ENDPOINTS.find((e) => e.path === '/callback/oidc')?.limit ?? { limit: 0 };
    for (let i = 1; i < limit; i++) {
      const res = await call('GET', '/api/auth/callback/oidc?state=forged', { ip: '10.79.1.1' });
      expect(res.status).toBe(302);
    }
    const limited = await call('GET', '/api/auth/callback/oidc?state=forged', { ip: '10.79.1.1' });
    expect(limited.status).toBe(429);
  });
});
