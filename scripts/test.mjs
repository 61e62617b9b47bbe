// `npm test`: the whole suite.
//   1. unit + data-layer tests (data layer also on PostgreSQL when TEST_DATABASE_URL is set);
//   2. a production build, then the HTTP suite against the built server;
//   3. end-to-end tests in the system Chromium when it is found (otherwise said and skipped).
// Ends with one line "tests: N passed, N failed[, N skipped]".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
mkdirSync('test-results', { recursive: true });
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

function addVitest(file) {
  if (!existsSync(file)) return;
  const j = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += j.numPassedTests ?? 0;
  totals.failed += j.numFailedTests ?? 0;
  totals.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
}

function addPlaywright(file) {
  if (!existsSync(file)) return;
  const s = JSON.parse(readFileSync(file, 'utf8')).stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
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
  vitest('unit and data-layer tests', ['unit', 'db'], 'test-results/unit.json');
  addVitest('test-results/unit.json');
}

const built = run('production build', 'npx', ['react-router', 'build']);
if (built && !e2eOnly) {
  vitest('HTTP tests against the built server', ['http'], 'test-results/http.json');
  addVitest('test-results/http.json');
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!built) {
  console.log('\nBuild failed: HTTP and end-to-end tests not run.');
} else if (existsSync(chromium)) {
  run('end-to-end tests in Chromium', 'npx', ['playwright', 'test']);
  addPlaywright('test-results/e2e.json');
} else {
  console.log(
    `\nChromium not found at ${chromium}: end-to-end tests SKIPPED (apt-get install chromium, or set CHROMIUM_PATH).`,
  );
}

console.log(
  `\ntests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
process.exit(failedSteps > 0 || totals.failed > 0 ? 1 : 0);
