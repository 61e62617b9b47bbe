// `npm run bench`: starts the built server on a fresh database (the seeded catalogue) and measures
// requests/s and latency of the main pages and API endpoints with autocannon, plus the server's RSS.
// Prints a table and writes bench-results/<timestamp>.json.
//   npm run bench -- --duration 10 --connections 10
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { startBuiltServer } from './lib/built-server.ts';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const duration = arg('duration', 5);
const connections = arg('connections', 10);

if (!existsSync('build/server/index.js')) {
  const r = spawnSync('npx', ['react-router', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}

const server = await startBuiltServer({ LOG_LEVEL: 'silent' });
const base = server.url;

const rssMb = () => {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

const browser =
  'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';
const targets = [
  ['home (ar)', '/'],
  ['home (en)', '/en'],
  ['taxonomy page', '/motors'],
  ['category page', '/en/motors/cars'],
  ['info page (faq)', '/faq'],
  ['API taxonomies', '/api/taxonomies'],
  ['API category attributes', '/api/categories/toyota/attributes'],
  ['API cities', '/api/cities'],
  ['static asset (serving limit)', '/favicon.svg'],
  ['health check', '/healthz'],
];

const rows: {
  name: string;
  url: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  rss_mb: number;
}[] = [];
for (const [name, url] of targets) {
  await autocannon({ url: base + url, connections, duration: 1, headers: { 'user-agent': browser } }); // warm-up
  const r = await autocannon({
    url: base + url,
    connections,
    duration,
    headers: { 'user-agent': browser, 'accept-encoding': 'gzip, br' },
  });
  rows.push({
    name,
    url,
    rps: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    errors: r.errors + r.non2xx,
    rss_mb: rssMb(),
  });
}
await server.stop();

const limit = rows.find((r) => r.url === '/favicon.svg')?.rps ?? 1;
console.log(
  `\nSouq bench: ${connections} connections, ${duration} s per target, one process, SQLite, seeded catalogue\n`,
);
console.log(
  [
    'target'.padEnd(30),
    'req/s'.padStart(8),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    '% limit'.padStart(8),
    'RSS MB'.padStart(8),
    'errors'.padStart(7),
  ].join(' '),
);
for (const r of rows) {
  console.log(
    [
      r.name.padEnd(30),
      String(r.rps).padStart(8),
      String(r.p50_ms).padStart(8),
      String(r.p99_ms).padStart(8),
      `${Math.round((100 * r.rps) / limit)}%`.padStart(8),
      String(r.rss_mb).padStart(8),
      String(r.errors).padStart(7),
    ].join(' '),
  );
}
mkdirSync('bench-results', { recursive: true });
const file = `bench-results/${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
writeFileSync(
  file,
  JSON.stringify({ date: new Date().toISOString(), duration, connections, node: process.version, rows }, null, 2),
);
console.log(`\nwritten to ${file}`);
