// A local OpenID Connect provider (panva's oidc-provider 9) for sign-in tests: authorization code flow
// (PKCE accepted, required for public clients only), scopes openid email profile, claims
// email/email_verified/name/locale from `accounts`, in-memory state, one instance per call.
//
// How a test logs in: oidc-provider's devInteractions pages accept any login name; the account id
// (a key of `accounts`) is the login, the password is ignored.
// - Browser (Playwright), after following the authorization URL:
//     "Sign-in" page:   page.getByPlaceholder('Enter any login').fill(accountId);
//                       page.getByPlaceholder('and password').fill('x');   // required by the form, ignored
//                       page.getByRole('button', { name: 'Sign-in' }).click();
//     "Authorize" page: page.getByRole('button', { name: 'Continue' }).click();  // consent
//                       or page.getByRole('link', { name: '[ Cancel ]' }).click(); // deny: error=access_denied
//   The forms post `prompt=login&login=<id>&password=…` and `prompt=consent` to /interaction/<uid>;
//   Cancel is GET /interaction/<uid>/abort.
// - Plain HTTP: `completeOidcLogin(cookieClient(), authorizationUrl, accountId)` submits the same
//   forms and returns the URL the provider finally redirects to (the client's redirect URI with `code`,
//   or with `error`); the same cookie client then carries the app's own cookies to that callback.
// An unknown login, or an unknown client / unregistered redirect URI, ends on the provider's own error page
// (plain-text JSON such as {"error":"invalid_client",…}, status 4xx/5xx) with no redirect back to the app;
// completeOidcLogin throws with that text.
import { randomBytes } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error oidc-provider ships no type declarations (and there is no @types package for v9).
import Provider from 'oidc-provider';

export interface OidcTestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  /** Better Auth's generic OAuth plugin posts the secret in the body by default. */
  token_endpoint_auth_method?: 'client_secret_post' | 'client_secret_basic';
}

export interface OidcTestAccount {
  email: string;
  email_verified?: boolean;
  name: string;
  locale?: string;
}

export interface OidcTestProvider {
  /** http://127.0.0.1:<port>, no trailing slash. */
  issuer: string;
  close(): Promise<void>;
}

const PREFIX = 'oidc-provider ';

/** Runs `fn` with oidc-provider's console notices dropped (devInteractions, in-memory adapter, dev keys…). */
function quietly<T>(fn: () => T): T {
  const { warn, info } = console;
  const filter =
    (log: (...args: unknown[]) => void) =>
    (...args: unknown[]) =>
      typeof args[0] === 'string' && args[0].startsWith(PREFIX) ? undefined : log(...args);
  console.warn = filter(warn);
  console.info = filter(info);
  try {
    return fn();
  } finally {
    console.warn = warn;
    console.info = info;
  }
}

export async function startOidcProvider(options: {
  clients: OidcTestClient[];
  accounts: Record<string, OidcTestAccount>;
  /** 0 (default) lets the OS pick a free port; the e2e run fixes one so the app knows the issuer. */
  port?: number;
}): Promise<OidcTestProvider> {
  // Listen first: the issuer URL must carry the port.
  let listener: RequestListener = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ttl = (seconds: number) => () => seconds;

  const provider = quietly(
    () =>
      new Provider(issuer, {
        clients: options.clients.map((client) => ({
          token_endpoint_auth_method: 'client_secret_post',
          grant_types: ['authorization_code'],
          response_types: ['code'],
          ...client,
        })),
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'locale'] },
        // The claims' keys email and profile become scopes too; no offline_access (no refresh tokens).
        scopes: ['openid'],
        findAccount: (_ctx: unknown, id: string) => {
          const account = Object.hasOwn(options.accounts, id) ? options.accounts[id] : undefined;
          if (!account) return undefined;
          return {
            accountId: id,
            claims: () => ({ sub: id, ...account }),
          };
        },
        features: { devInteractions: { enabled: true } },
        cookies: { keys: [randomBytes(32).toString('base64url')] },
        // Explicit lifetimes and error page: the defaults log a notice when first used.
        ttl: {
          AccessToken: ttl(600),
          AuthorizationCode: ttl(60),
          IdToken: ttl(600),
          Interaction: ttl(600),
          Session: ttl(600),
          Grant: ttl(600),
        },
        // Plain text, so a test driving it over HTTP can show why the provider refused.
        renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
          ctx.type = 'text';
          ctx.body = JSON.stringify(out);
        },
      }),
  );
  listener = provider.callback();

  return {
    issuer,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export interface CookieClient {
  /** fetch without following redirects; stores Set-Cookie answers and sends the cookies that apply. */
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
  /** The current value of a cookie (any path), if set. */
  cookie(name: string): string | undefined;
}

/**
 * A minimal cookie jar over fetch. Like a browser it ignores ports (both servers run on 127.0.0.1) and
 * honours Path, Max-Age and Expires; it ignores Domain, Secure and SameSite.
 */
export function cookieClient(): CookieClient {
  const jar = new Map<string, { name: string; value: string; path: string }>();
  const pathMatches = (cookiePath: string, requestPath: string) =>
    requestPath === cookiePath || requestPath.startsWith(cookiePath.endsWith('/') ? cookiePath : `${cookiePath}/`);

  const store = (setCookie: string) => {
    const [pair, ...attributes] = setCookie.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    let path = '/';
    let expired = false;
    for (const attribute of attributes) {
      const [key, ...rest] = attribute.split('=');
      const v = rest.join('=').trim();
      switch (key.trim().toLowerCase()) {
        case 'path':
          path = v || '/';
          break;
        case 'max-age':
          expired = Number(v) <= 0;
          break;
        case 'expires':
          expired ||= Date.parse(v) <= Date.now();
          break;
      }
    }
    const key = `${name};${path}`;
    if (expired) jar.delete(key);
    else jar.set(key, { name, value, path });
  };

  return {
    async fetch(url, init = {}) {
      const target = new URL(url);
      const headers = new Headers(init.headers);
      const cookies = [...jar.values()]
        .filter((c) => pathMatches(c.path, target.pathname))
        // Longer paths first, as browsers send them.
        .sort((a, b) => b.path.length - a.path.length)
        .map((c) => `${c.name}=${c.value}`);
      if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
      const response = await fetch(target, { ...init, headers, redirect: 'manual' });
      for (const setCookie of response.headers.getSetCookie()) store(setCookie);
      return response;
    },
    cookie(name) {
      for (const c of jar.values()) if (c.name === name) return c.value;
      return undefined;
    },
  };
}

/**
 * Drives the provider's login and consent pages over HTTP from an authorization URL until the provider
 * redirects away from itself; returns that URL (redirect URI with `code`, or with `error`).
 * `consent: false` presses Cancel on the consent page, which answers `error=access_denied`.
 */
export async function completeOidcLogin(
  client: CookieClient,
  authorizationUrl: string,
  login: string,
  options: { consent?: boolean } = {},
): Promise<string> {
  const issuerOrigin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  let init: RequestInit | undefined;
  let loggedIn = false;
  for (let step = 0; step < 20; step++) {
    const response = await client.fetch(url, init);
    init = undefined;
    const location = response.headers.get('location');
    if (location) {
      await response.body?.cancel();
      const next = new URL(location, url);
      if (next.origin !== issuerOrigin) return next.href;
      url = next.href;
      continue;
    }
    const html = await response.text();
    if (!response.ok) throw new Error(`OIDC provider answered ${response.status} at ${url}: ${html}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!prompt || !action) throw new Error(`Unexpected OIDC provider page at ${url}: ${html.slice(0, 500)}`);
    // The provider shows the login page again when findAccount does not know the login.
    if (prompt === 'login' && loggedIn) throw new Error(`OIDC provider refused the login "${login}"`);
    loggedIn ||= prompt === 'login';
    if (prompt === 'consent' && options.consent === false) {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
      if (!abort) throw new Error('No Cancel link on the consent page');
      url = new URL(abort, url).href;
      continue;
    }
    const form: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
    url = new URL(action, url).href;
    init = { method: 'POST', body: new URLSearchParams(form) };
  }
  throw new Error('OIDC login did not finish within 20 requests');
}
