import { defineConfig, devices } from '@playwright/test';

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

const LIGHTHOUSE = /lighthouse\.spec\.ts$/;

// Each worker runs its spec files one after another against a site of its own: the built server on a
// free port with a fresh database, and the OpenID Connect provider it signs in with
// (tests/e2e/support/test.ts). Lighthouse measures alone, after every other spec has finished, so no
// other browser or server shares the two cores with the pages it times.
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    launchOptions: chromium,
    // Recording a trace costs each spec about a third more time, so only a retry records one (CI
    // retries a failed spec once); `--trace retain-on-failure` records them on the command line.
    trace: 'on-first-retry',
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromium }, testIgnore: LIGHTHOUSE },
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions: chromium }, grep: /@phone/, testIgnore: LIGHTHOUSE },
    {
      name: 'lighthouse',
      use: { ...devices['Desktop Chrome'], launchOptions: chromium },
      testMatch: LIGHTHOUSE,
      dependencies: ['desktop', 'phone'],
    },
  ],
});
