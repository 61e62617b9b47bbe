// Sign-in with an OpenID Connect provider, end to end without a browser: Better Auth (our options plus
// the generic OAuth plugin) served over node:http, a local oidc-provider, and a cookie-keeping fetch
// that walks the redirects, the provider's login and consent forms, and the callback.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toNodeHandler } from 'better-auth/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAuth } from '../../server/auth/index.ts';
import { mapOidcProfile, type OidcProvider, oidcProviderFromEnv } from '../../server/auth/oidc.ts';
import { loadConfig } from '../../server/config.ts';
import { timestampValue } from '../../server/db/dates.ts';
import type { MailMessage } from '../../server/mail/index.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { startMailWorker } from '../support/mail-worker.ts';
import { completeOidcLogin, cookieClient, type OidcTestProvider, startOidcProvider } from '../support/oidc-provider.ts';

const CALLBACK_PATH = '/api/auth/callback/oidc';

/** An HTTP server on a free port whose handler is mounted once the auth instance (which needs the URL) exists. */
async function listen() {
  let handler: RequestListener = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mount: (next: RequestListener) => {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The app's own Better Auth instance, configured for the provider through the environment as in production. */
function createOidcAuth(base: string, dataDir: string, db: TestDatabase, provider: OidcProvider) {
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_URL: base,
    DATA_DIR: dataDir,
    AUTH_SECRET: 'oidc-test-secret-0123456789-abcdefghijklmnop',
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_NAME: provider.name,
  });
  expect(config.oidc).toEqual(provider);
  return createAuth(config, db);
}

type Auth = ReturnType<typeof createOidcAuth>;

describe.each(dialects)('sign-in with OpenID Connect on %s', (dialect) => {
  let t: TestDatabase;
  let idp: OidcTestProvider;
  let dataDir: string;
  const servers: { close(): Promise<void> }[] = [];
  const mails: MailMessage[] = [];
  let app: { base: string; auth: Auth };
  let misconfigured: { base: string; auth: Auth };

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    servers.push({ close: startMailWorker(t, (m) => void mails.push(m)).stop });
    dataDir = mkdtempSync(path.join(tmpdir(), 'souq-oidc-'));
    const good = await listen();
    const bad = await listen();
    servers.push(good, bad);
    idp = await startOidcProvider({
      clients: [
        { client_id: 'souq', client_secret: 'souq-secret', redirect_uris: [`${good.base}${CALLBACK_PATH}`] },
        { client_id: 'souq-2', client_secret: 'right-secret', redirect_uris: [`${bad.base}${CALLBACK_PATH}`] },
      ],
      accounts: {
        alice: { email: 'Alice@Example.test', email_verified: true, name: 'Alice', locale: 'en-US' },
        bob: { email: 'bob@example.test', email_verified: false, name: 'Bob' },
        carol: { email: 'carol@example.test', email_verified: true, name: 'Carol OIDC' },
      },
    });
    servers.push(idp);
    const provider = (clientId: string, clientSecret: string): OidcProvider => ({
      issuer: idp.issuer,
      clientId,
      clientSecret,
      name: 'Test IdP',
      scopes: ['openid', 'email', 'profile'],
    });
    app = { base: good.base, auth: createOidcAuth(good.base, dataDir, t, provider('souq', 'souq-secret')) };
    good.mount(toNodeHandler(app.auth));
    misconfigured = {
      base: bad.base,
      auth: createOidcAuth(bad.base, dataDir, t, provider('souq-2', 'wrong-secret')),
    };
    bad.mount(toNodeHandler(misconfigured.auth));
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await t?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts the sign-in, logs in at the provider and returns the callback's answer. */
  async function signIn(
    target: { base: string },
    login: string,
    options: { consent?: boolean; errorCallbackURL?: string } = {},
  ) {
    const client = cookieClient();
    const start = await client.fetch(`${target.base}/api/auth/sign-in/social`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: target.base },
      body: JSON.stringify({ provider: 'oidc', callbackURL: '/', errorCallbackURL: options.errorCallbackURL }),
    });
    expect(start.status).toBe(200);
    const body = (await start.json()) as { url: string; redirect: boolean };
    expect(body.redirect).toBe(true);
    expect(start.headers.get('location')).toBe(body.url);
    expect(body.url.startsWith(`${idp.issuer}/`)).toBe(true);
    const authorization = new URL(body.url);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${target.base}${CALLBACK_PATH}`);

    const callback = await completeOidcLogin(client, body.url, login, { consent: options.consent });
    expect(callback.startsWith(`${target.base}${CALLBACK_PATH}?`)).toBe(true);
    const done = await client.fetch(callback);
    await done.body?.cancel();
    return {
      status: done.status,
      location: done.headers.get('location') ?? '',
      token: client.cookie('souq.session_token'),
    };
  }

  const sessionOf = (auth: Auth, token: string) =>
    auth.api.getSession({ headers: new Headers({ cookie: `souq.session_token=${token}` }) });

  const accountsOf = (userId: string) =>
    t.db
      .selectFrom('accounts')
      .select(['provider_id', 'account_id'])
      .where('user_id', '=', userId)
      .orderBy('provider_id')
      .execute();

  it('creates the member on first sign-in and signs them in', async () => {
    const result = await signIn(app, 'alice');
    expect(result.status).toBe(302);
    expect(result.location).toBe('/');
    expect(result.token).toBeTruthy();

    const session = await sessionOf(app.auth, result.token as string);
    expect(session?.user).toMatchObject({
      email: 'alice@example.test',
      name: 'Alice',
      emailVerified: true,
      locale: 'en',
      is_super_admin: false,
    });
    const userId = session?.user.id as string;
    expect(await accountsOf(userId)).toEqual([{ provider_id: 'oidc', account_id: 'alice' }]);

    // Signing in again finds the same member through the linked account.
    const again = await signIn(app, 'alice');
    expect(again.location).toBe('/');
    expect((await sessionOf(app.auth, again.token as string))?.user.id).toBe(userId);
    expect(
      await t.db.selectFrom('users').select('id').where('email', '=', 'alice@example.test').execute(),
    ).toHaveLength(1);
  });

  it('signs in a member whose provider email is unverified, and mails them a verification link', async () => {
    mails.length = 0;
    const result = await signIn(app, 'bob');
    expect(result.location).toBe('/');
    const session = await sessionOf(app.auth, result.token as string);
    expect(session?.user).toMatchObject({ email: 'bob@example.test', emailVerified: false, locale: 'ar' });
    await vi.waitFor(() => expect(mails.map((m) => m.to)).toEqual(['bob@example.test']));
  });

  it('does not link to an existing password account until its email is verified', async () => {
    const { user } = await app.auth.api.signUpEmail({
      body: { email: 'carol@example.test', password: 'correct horse battery', name: 'Carol' },
    });
    const refused = await signIn(app, 'carol');
    expect(refused.status).toBe(302);
    expect(refused.location).toBe(`${app.base}/api/auth/error?error=account_not_linked`);
    expect(refused.token).toBeUndefined();
    expect(await accountsOf(user.id)).toEqual([{ provider_id: 'credential', account_id: user.id }]);

    // With the local email verified (and the provider's too) Better Auth links implicitly.
    await t.db.updateTable('users').set({ email_verified: true }).where('id', '=', user.id).execute();
    const linked = await signIn(app, 'carol');
    expect(linked.location).toBe('/');
    const session = await sessionOf(app.auth, linked.token as string);
    expect(session?.user).toMatchObject({ id: user.id, name: 'Carol', is_super_admin: false });
    expect(await accountsOf(user.id)).toEqual([
      { provider_id: 'credential', account_id: user.id },
      { provider_id: 'oidc', account_id: 'carol' },
    ]);
  });

  it('sends a refusal at the provider to the error URL with its error code', async () => {
    const denied = await signIn(app, 'alice', { consent: false });
    expect(denied.status).toBe(302);
    expect(denied.token).toBeUndefined();
    expect(denied.location).toBe(
      `${app.base}/api/auth/error?error=access_denied&error_description=End-User+aborted+interaction`,
    );

    const toPage = await signIn(app, 'alice', { consent: false, errorCallbackURL: '/account/login' });
    expect(toPage.location).toBe('/account/login?error=access_denied&error_description=End-User+aborted+interaction');
  });

  it('reports a failed code exchange (wrong client secret) as invalid_code', async () => {
    const result = await signIn(misconfigured, 'alice', { errorCallbackURL: '/account/login' });
    expect(result.token).toBeUndefined();
    expect(result.location).toBe('/account/login?error=invalid_code');
  });

  it('turns away a banned member with the code of our session hook', async () => {
    await t.db
      .updateTable('users')
      .set({ banned_at: timestampValue(t.dialect, new Date()) })
      .where('email', '=', 'bob@example.test')
      .execute();
    const result = await signIn(app, 'bob', { errorCallbackURL: '/account/login' });
    expect(result.token).toBeUndefined();
    expect(result.location).toBe('/account/login?error=USER_DISABLED&error_description=user-disabled');
  });

  it('never lets provider claims set is_super_admin', () => {
    const mapped = mapOidcProfile({ sub: 'x', email: 'x@example.test', name: 'X', is_super_admin: true, locale: 'fr' });
    expect(mapped).toEqual({
      name: 'X',
      email: 'x@example.test',
      emailVerified: false,
      image: undefined,
      locale: 'ar',
    });
  });
});

describe('OIDC configuration from the environment', () => {
  const base = { OIDC_ISSUER: 'https://id.example.com/realms/souq/', OIDC_CLIENT_ID: 'souq', OIDC_CLIENT_SECRET: 's' };

  it('is off without OIDC_ISSUER', () => {
    expect(oidcProviderFromEnv({})).toBeUndefined();
    expect(oidcProviderFromEnv({ OIDC_ISSUER: ' ', OIDC_CLIENT_ID: 'x' })).toBeUndefined();
  });

  it('reads the provider with defaults', () => {
    expect(oidcProviderFromEnv(base)).toEqual({
      issuer: 'https://id.example.com/realms/souq',
      clientId: 'souq',
      clientSecret: 's',
      name: 'OpenID',
      scopes: ['openid', 'email', 'profile'],
    });
    expect(oidcProviderFromEnv({ ...base, OIDC_NAME: 'Example ID', OIDC_SCOPES: 'openid email' })).toMatchObject({
      name: 'Example ID',
      scopes: ['openid', 'email'],
    });
  });

  it('names the variable that is wrong', () => {
    expect(() => oidcProviderFromEnv({ ...base, OIDC_CLIENT_ID: '' })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => oidcProviderFromEnv({ ...base, OIDC_CLIENT_SECRET: undefined })).toThrow(/OIDC_CLIENT_SECRET/);
    expect(() => oidcProviderFromEnv({ ...base, OIDC_ISSUER: 'ftp://id.example.com' })).toThrow(/OIDC_ISSUER/);
    expect(() => oidcProviderFromEnv({ ...base, OIDC_ISSUER: 'not a url' })).toThrow(/OIDC_ISSUER/);
    expect(() => oidcProviderFromEnv({ ...base, OIDC_SCOPES: 'profile' })).toThrow(/OIDC_SCOPES/);
  });
});
