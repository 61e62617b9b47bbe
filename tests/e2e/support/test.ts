// The end-to-end suite's `test`: Playwright's, with a site of its own for each worker. A worker starts
// the built server (the production start, `node server/main.ts`) on a free port with a fresh DATA_DIR,
// and the local OpenID Connect provider it signs in with, then runs its spec files one after another
// against them; `baseURL` is that server. So workers run side by side without sharing a database, a
// mail folder or a rate limit, and whatever a spec leaves behind (ads, members, notifications) is seen
// only by the later specs of its own worker. The helpers find the worker's mail, texts and database
// through E2E_DATA_DIR (./helpers.ts), set here.
import { type ChildProcess, spawn } from 'node:child_process';
import { test as base } from '@playwright/test';
import {
  freePort,
  type RunningTestServer,
  startBuiltServer,
  stopChild,
  waitUntilAnswering,
} from '../../../scripts/lib/built-server.ts';

export type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
export { expect } from '@playwright/test';

interface Site {
  url: string;
}

/** The OpenID Connect provider (tests/support/oidc-provider-server.ts) for the app on `appPort`. */
async function startOidc(port: number, appPort: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['tests/support/oidc-provider-server.ts'], {
    env: { ...process.env, E2E_OIDC_PORT: String(port), E2E_PORT: String(appPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitUntilAnswering(
    child,
    `http://127.0.0.1:${port}/.well-known/openid-configuration`,
    30_000,
    'the OIDC provider',
  );
  return child;
}

export const test = base.extend<Record<never, never>, { site: Site }>({
  site: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const port = await freePort();
      const oidcPort = await freePort();
      const oidc = await startOidc(oidcPort, port);
      let server: RunningTestServer | undefined;
      try {
        server = await startBuiltServer(
          {
            SEED_DEMO: 'true',
            // The journeys create what they check (pending queue, empty allowances); no demo ads.
            SEED_DEMO_ADS: 'false',
            APP_URL: `http://127.0.0.1:${port}`,
            // One proxy hop is trusted, so a journey can sign up members from addresses of their own
            // (./helpers.ts, signUpMember); a browser's requests carry no such header.
            TRUST_PROXY: '1',
            OIDC_ISSUER: `http://127.0.0.1:${oidcPort}`,
            OIDC_CLIENT_ID: 'souq-e2e',
            OIDC_CLIENT_SECRET: 'souq-e2e-secret',
            OIDC_NAME: 'Test SSO',
            // No map tiles from the internet in tests: a local port nothing listens on, so every tile
            // fails at once and pages show what they show when tiles cannot load.
            MAP_TILE_URL: 'http://127.0.0.1:9/e2e-no-tiles/{z}/{x}/{y}.png',
          },
          { port },
        );
        process.env.E2E_DATA_DIR = server.dataDir;
        await use({ url: server.url });
      } finally {
        await server?.stop();
        await stopChild(oidc);
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ site }, use) => {
    await use(site.url);
  },
});
