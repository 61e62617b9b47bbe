// `npm run bench`: starts the built server on a fresh database (the seeded catalogue) and measures
// requests/s and latency of the main pages and API endpoints with autocannon, plus the server's RSS,
// then the time to process a 12 MP ad photo (scripts/bench-photos.ts).
// With `--ads N` the database first gets N ads (`npm run db:seed -- --ads N`, the bulk mode of
// server/db/seed/ads.ts) and the ad page and category pages with ads are measured too, also one
// request at a time (the server's own render time, without queueing).
// Prints a table and writes bench-results/<timestamp>.json.
//   npm run bench -- --duration 10 --connections 10 --ads 100000
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import { benchPhotos, printPhotoBench } from './bench-photos.ts';
import { startBuiltServer } from './lib/built-server.ts';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const duration = arg('duration', 5);
const connections = arg('connections', 10);
const adCount = arg('ads', 0);
if (!Number.isSafeInteger(adCount) || adCount < 0) {
  console.error('--ads needs a whole number (0: no ads)');
  process.exit(2);
}

if (!existsSync('build/server/index.js')) {
  const r = spawnSync('npx', ['react-router', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}

// With --ads: a data folder of our own, filled by the seed command's bulk mode before the server starts.
const adsDir = adCount > 0 ? mkdtempSync(path.join(tmpdir(), 'souq-bench-ads-')) : null;
let seedSeconds = 0;
if (adsDir) {
  console.log(`Seeding ${adCount} ads (npm run db:seed -- --ads ${adCount})…`);
  const started = performance.now();
  const r = spawnSync(process.execPath, ['server/db/cli.ts', 'seed', '--ads', String(adCount)], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATA_DIR: adsDir },
  });
  if (r.status !== 0) process.exit(1);
  seedSeconds = Math.round((performance.now() - started) / 100) / 10;
  console.log(`Seeded in ${seedSeconds} s.`);
}

/** The canonical path (without locale) of a published Toyota: a typical car ad with full details, a photo, similar ads. */
async function sampleAd(dataDir: string) {
  const { database } = loadConfig({ ...process.env, DATA_DIR: dataDir });
  const handle = openDatabase(database, { poolSize: 1 });
  try {
    const ad = await handle.db
      .selectFrom('ads')
      .innerJoin('categories', 'categories.id', 'ads.category_id')
      .innerJoin('taxonomies', 'taxonomies.id', 'ads.taxonomy_id')
      .select(['ads.id', 'ads.slug', 'categories.slug as category', 'taxonomies.slug as taxonomy'])
      .where('ads.status', '=', 'published')
      .where('categories.slug', '=', 'toyota')
      .orderBy('ads.id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    return encodeURI(`/${ad.taxonomy}/${ad.category}/${ad.slug}-${ad.id}`);
  } finally {
    await handle.close();
  }
}
const adPath = adsDir ? await sampleAd(adsDir) : null;

// One proxy hop is trusted so each simulated visitor of the sign-in figures has its own address.
const server = await startBuiltServer({
  LOG_LEVEL: 'silent',
  TRUST_PROXY: '1',
  ...(adsDir ? { DATA_DIR: adsDir } : {}),
});
const base = server.url;
const dataDir = adsDir ?? server.dataDir;

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
/** Pages whose cost grows with the ads: also measured one request at a time. */
const adTargets = adPath
  ? [
      ['ad page (en)', `/en${adPath}`],
      ['ad page (ar)', adPath],
      ['category page (ar)', '/motors/cars'],
      ['category page, page 2', '/en/motors/cars?page=2'],
      ['category page', '/en/motors/cars'],
    ]
  : [];
targets.splice(4, 0, ...adTargets.slice(0, 4));
/**
 * Anonymous pages come from the page cache while fresh; `Cache-Control: no-cache` (a forced reload)
 * makes the server render them again. Pages marked "rendered" are measured that way.
 */
const RENDERED = ' (rendered)';
if (adPath)
  targets.splice(4, 0, [`ad page (en)${RENDERED}`, `/en${adPath}`], [`category page${RENDERED}`, '/en/motors/cars']);
const headersFor = (name: string) => ({
  'user-agent': browser,
  'accept-encoding': 'gzip, br',
  ...(name.endsWith(RENDERED) ? { 'cache-control': 'no-cache' } : {}),
});

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
  await autocannon({ url: base + url, connections, duration: 1, headers: headersFor(name) }); // warm-up
  const r = await autocannon({ url: base + url, connections, duration, headers: headersFor(name) });
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

// Sign-in: one request at a time (each hashes a password), several kinds of attempt. The refusals
// must cost about what a success costs, so response times reveal nobody's account.
const MEMBERS = 12;
let visitor = 0;
const post = async (pathname: string, form: Record<string, string>, cookie = '') => {
  visitor++;
  const started = performance.now();
  const res = await fetch(base + pathname, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: base,
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': browser,
      'x-forwarded-for': `10.9.${Math.floor(visitor / 250)}.${(visitor % 250) + 1}`,
    },
    body: new URLSearchParams(form).toString(),
  });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status, res };
};
const register = (login: string) =>
  post('/en/register', {
    name: 'Bench',
    login,
    password: 'bench-passphrase',
    password_confirmation: 'bench-passphrase',
    terms: 'on',
  });
const emails: string[] = [];
const phones: string[] = [];
for (let i = 0; i < MEMBERS; i++) {
  const email = `bench-${Date.now()}-${i}@example.ly`;
  if ((await register(email)).status === 302) emails.push(email);
  const phone = `+21894${String(Date.now() % 1e5).padStart(5, '0')}${String(i).padStart(2, '0')}`;
  const signup = await register(phone);
  const cookie = signup.res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const smsDir = path.join(dataDir, 'sms');
  const sms = existsSync(smsDir)
    ? readdirSync(smsDir)
        .map((f) => JSON.parse(readFileSync(path.join(smsDir, f), 'utf8')) as { to: string; text: string })
        .find((m) => m.to === phone)
    : undefined;
  const code = /\b(\d{6})\b/.exec(sms?.text ?? '')?.[1];
  if (
    code &&
    (
      await post(
        `/en/account/phone-verification?phone=${encodeURIComponent(phone)}&sent=1`,
        { intent: 'verify', phone, code },
        cookie,
      )
    ).status === 302
  ) {
    phones.push(phone);
  }
}
const kinds: [string, (i: number) => Record<string, string>, number][] = [
  ['sign-in: email, right password', (i) => ({ login: emails[i], password: 'bench-passphrase' }), 302],
  ['sign-in: email, wrong password', (i) => ({ login: emails[i], password: 'not-the-password' }), 422],
  [
    'sign-in: unknown email',
    (i) => ({ login: `nobody-${i}-${Date.now()}@example.ly`, password: 'bench-passphrase' }),
    422,
  ],
  ['sign-in: phone, right password', (i) => ({ login: phones[i], password: 'bench-passphrase' }), 302],
  ['sign-in: phone, wrong password', (i) => ({ login: phones[i], password: 'not-the-password' }), 422],
  [
    'sign-in: unknown phone',
    (i) => ({ login: `+21895${String(i).padStart(7, '0')}`, password: 'bench-passphrase' }),
    422,
  ],
];
const signIns: { name: string; p50_ms: number; max_ms: number; unexpected: number }[] = [];
for (const [name, form, expected] of kinds) {
  const times: number[] = [];
  let unexpected = 0;
  for (let i = 0; i < Math.min(emails.length, phones.length); i++) {
    const r = await post('/en/login', form(i));
    times.push(r.ms);
    if (r.status !== expected) unexpected++;
  }
  times.sort((a, b) => a - b);
  signIns.push({
    name,
    p50_ms: Math.round(times[Math.floor(times.length / 2)] ?? 0),
    max_ms: Math.round(times[times.length - 1] ?? 0),
    unexpected,
  });
}
// The server's render time of the pages with ads: one request at a time, so no queueing, and
// rendered every time (not from the page cache).
const single: { name: string; url: string; rps: number; p50_ms: number; p99_ms: number; errors: number }[] = [];
for (const [name, url] of adTargets) {
  const r = await autocannon({
    url: base + url,
    connections: 1,
    duration,
    headers: headersFor(`${name}${RENDERED}`),
  });
  single.push({
    name,
    url,
    rps: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    errors: r.errors + r.non2xx,
  });
}
await server.stop();
if (adsDir) rmSync(adsDir, { recursive: true, force: true });

// Ad photo processing, in this process (what one upload costs the server).
const photo = await benchPhotos(5);

const limit = rows.find((r) => r.url === '/favicon.svg')?.rps ?? 1;
console.log(
  `\nSouq bench: ${connections} connections, ${duration} s per target, one process, SQLite, seeded catalogue` +
    `${adCount ? `, ${adCount} ads (seeded in ${seedSeconds} s)` : ''}\n`,
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
if (single.length) {
  console.log(`\nPages with ads, one request at a time (server render time): ${adCount} ads\n`);
  console.log(['target'.padEnd(30), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8)].join(' '));
  for (const r of single) {
    console.log(
      [r.name.padEnd(30), String(r.rps).padStart(8), String(r.p50_ms).padStart(8), String(r.p99_ms).padStart(8)].join(
        ' ',
      ),
    );
  }
}
console.log(`\nSign-in requests, one at a time (${Math.min(emails.length, phones.length)} members of each kind)\n`);
console.log(['attempt'.padEnd(34), 'p50 ms'.padStart(8), 'max ms'.padStart(8), 'wrong status'.padStart(13)].join(' '));
for (const r of signIns) {
  console.log(
    [
      r.name.padEnd(34),
      String(r.p50_ms).padStart(8),
      String(r.max_ms).padStart(8),
      String(r.unexpected).padStart(13),
    ].join(' '),
  );
}
printPhotoBench(photo);
mkdirSync('bench-results', { recursive: true });
const file = `bench-results/${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
writeFileSync(
  file,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      duration,
      connections,
      ads: adCount,
      seed_seconds: seedSeconds,
      node: process.version,
      rows,
      single,
      signIns,
      photo,
    },
    null,
    2,
  ),
);
console.log(`\nwritten to ${file}`);
