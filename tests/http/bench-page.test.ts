// The serving limit of `npm run bench` (BENCH_PAGE_FILE): an HTML file answered from memory at
// /__bench/page through the middleware of pages (compression, security headers); absent otherwise.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningTestServer, startBuiltServer } from '../../scripts/lib/built-server.ts';

let plain: RunningTestServer;
let bench: RunningTestServer;
const html = `<!doctype html><html><body>${'<p>سوق</p>'.repeat(500)}</body></html>`;

beforeAll(async () => {
  plain = await startBuiltServer({ SEED_DEMO: 'false' });
  const file = path.join(plain.dataDir, 'page.html');
  writeFileSync(file, html);
  bench = await startBuiltServer({ SEED_DEMO: 'false', BENCH_PAGE_FILE: file });
});
afterAll(async () => {
  await bench?.stop();
  await plain?.stop();
});

it('answers the file from memory, compressed, with the security headers', async () => {
  const res = await fetch(`${bench.url}/__bench/page`, { headers: { 'accept-encoding': 'br' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('content-encoding')).toBe('br');
  expect(res.headers.get('content-security-policy')).toBeTruthy();
  expect(await res.text()).toBe(html);
});

it('is not there without BENCH_PAGE_FILE', async () => {
  const res = await fetch(`${plain.url}/__bench/page`);
  expect(res.status).toBe(404);
});
