import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3917);
/** The local OpenID Connect provider the app signs in with (tests/support/oidc-provider-server.ts). */
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? 3918);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'souq-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

/** The system Chromium (README.md, "Quick start"): never a downloaded browser. */
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromium,
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromium } },
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions: chromium }, grep: /@phone/ },
  ],
  webServer: [
    {
      command: 'node tests/support/oidc-provider-server.ts',
      url: `http://127.0.0.1:${oidcPort}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { E2E_OIDC_PORT: String(oidcPort), E2E_PORT: String(port) },
    },
    {
      command: 'node server/main.ts',
      url: `http://127.0.0.1:${port}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NODE_ENV: 'production',
        SEED_DEMO: 'true',
        // The journeys create what they check (pending queue, empty allowances); no demo ads.
        SEED_DEMO_ADS: 'false',
        PORT: String(port),
        HOST: '127.0.0.1',
        // The provider knows the app by this address (its registered redirect URI).
        APP_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // One proxy hop is trusted, so a journey can sign up members from addresses of their own
        // (tests/e2e/support/helpers.ts, signUpMember); a browser's requests carry no such header.
        TRUST_PROXY: '1',
        OIDC_ISSUER: `http://127.0.0.1:${oidcPort}`,
        OIDC_CLIENT_ID: 'souq-e2e',
        OIDC_CLIENT_SECRET: 'souq-e2e-secret',
        OIDC_NAME: 'Test SSO',
        // No map tiles from the internet in tests: a local port nothing listens on, so every tile
        // fails at once and pages show what they show when tiles cannot load.
        MAP_TILE_URL: 'http://127.0.0.1:9/e2e-no-tiles/{z}/{x}/{y}.png',
      },
    },
  ],
});
