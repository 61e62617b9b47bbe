// `npm test`: the whole suite.
//   1. unit + data-layer + realtime tests (data layer also on PostgreSQL when TEST_DATABASE_URL is set,
//      realtime across two servers over Redis when TEST_REDIS_URL is set);
//   2. a production build, then the HTTP suite against the built server;
//   3. end-to-end tests in the system Chromium when it is found (otherwise said and skipped).
// Ends with one line "tests: N passed, N failed[, N skipped]".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
mkdirSync('test-results', { recursive: true });
// Reports of an earlier run must never be counted for this one.
for (const f of ['unit.json', 'http.json', 'e2e.json']) rmSync(path.join('test-results', f), { force: true });
const args = new Set(process.argv.slice(2));
const e2eOnly = args.has('--e2e-only');
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = 0;

function run(label, cmd, cmdArgs, env = {}) {
  console.log(`\n▶ ${label}`);
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) failedSteps++;
  return r.status === 0;
}

/** Adds a step's counts; a failed step that reported no failing test counts as one failure. */
function count(ok, passed, failed, skipped) {
  totals.passed += passed;
  totals.skipped += skipped;
  totals.failed += failed === 0 && !ok ? 1 : failed;
}

function addVitest(ok, file) {
  const j = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  count(ok, j.numPassedTests ?? 0, j.numFailedTests ?? 0, (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0));
}

function addPlaywright(ok, file) {
  const s = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).stats ?? {}) : {};
  count(ok, (s.expected ?? 0) + (s.flaky ?? 0), s.unexpected ?? 0, s.skipped ?? 0);
}

const vitest = (label, projects, out) =>
  run(label, 'npx', [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);

if (!e2eOnly) {
  if (!process.env.TEST_DATABASE_URL)
    console.log('TEST_DATABASE_URL is not set: the data-layer suites run on SQLite only.');
  if (!process.env.TEST_REDIS_URL)
    console.log('TEST_REDIS_URL is not set: the realtime Redis adapter tests are skipped.');
  addVitest(
    vitest('unit, data-layer and realtime tests', ['unit', 'db', 'realtime'], 'test-results/unit.json'),
    'test-results/unit.json',
  );
}

// The build as `npm run build` makes it: React Router's, then the client files' brotli and gzip
// forms (scripts/precompress.ts), which the HTTP suite checks are served, then the realtime
// server's native fan-out writer (scripts/build-native.ts).
const built =
  run('production build', 'npx', ['react-router', 'build']) &&
  run('precompressed client files', process.execPath, ['scripts/precompress.ts']) &&
  run('native fan-out writer', process.execPath, ['scripts/build-native.ts']);
if (!built) totals.failed++;
if (built && !e2eOnly) {
  addVitest(
    vitest('HTTP tests against the built server', ['http'], 'test-results/http.json'),
    'test-results/http.json',
  );
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!built) {
  console.log('\nBuild failed: HTTP and end-to-end tests not run.');
} else if (existsSync(chromium)) {
  // Each Playwright worker starts a site of its own on free ports (tests/e2e/support/test.ts).
  const ok = run('end-to-end tests in Chromium', 'npx', ['playwright', 'test']);
  addPlaywright(ok, 'test-results/e2e.json');
} else {
  console.log(
    `\nChromium not found at ${chromium}: end-to-end tests SKIPPED (apt-get install chromium, or set CHROMIUM_PATH).`,
  );
}

console.log(
  `\ntests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
process.exit(failedSteps > 0 || totals.failed > 0 ? 1 : 0);
