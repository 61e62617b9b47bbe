// The serving limit of `npm run bench` (BENCH_PAGE_FILE): an HTML file answered from memory at
// /__bench/page as a cached page is (compressed once, security headers), and the same HTML as a
// static file precompressed as the build's files are (/__bench/static/…); absent otherwise.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningTestServer, startBuiltServer } from '../../scripts/lib/built-server.ts';
import { BENCH_STATIC, precompressDirectory } from '../../server/http/static-files.ts';
import { rawGet } from '../support/raw-http.ts';

let plain: RunningTestServer;
let bench: RunningTestServer;
const html = `<!doctype html><html><body>${'<p>سوق</p>'.repeat(500)}</body></html>`;

beforeAll(async () => {
  plain = await startBuiltServer({ SEED_DEMO: 'false' });
  const file = path.join(plain.dataDir, 'page.html');
  writeFileSync(file, html);
  writeFileSync(path.join(plain.dataDir, BENCH_STATIC), html);
  await precompressDirectory(plain.dataDir, (f) => f === BENCH_STATIC);
  bench = await startBuiltServer({ SEED_DEMO: 'false', BENCH_PAGE_FILE: file });
});
afterAll(async () => {
  await bench?.stop();
  await plain?.stop();
});

it('answers the file from memory, compressed once, with the security headers', async () => {
  const res = await rawGet(`${bench.url}/__bench/page`, { 'accept-encoding': 'br' });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers['content-encoding']).toBe('br');
  expect(res.headers['content-length']).toBe(String(res.body.length));
  expect(res.headers['content-security-policy']).toBeTruthy();
  expect(brotliDecompressSync(res.body).toString()).toBe(html);
  const again = await rawGet(`${bench.url}/__bench/page`, { 'accept-encoding': 'br' });
  expect(again.body.equals(res.body)).toBe(true);
});

it('answers the same HTML as a precompressed static file', async () => {
  const res = await rawGet(`${bench.url}/__bench/static/${BENCH_STATIC}`, { 'accept-encoding': 'br' });
  expect(res.status).toBe(200);
  expect(res.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(res.body).toString()).toBe(html);
  expect((await rawGet(`${bench.url}/__bench/static/souq.db`)).status).toBe(404);
});

it('is not there without BENCH_PAGE_FILE', async () => {
  expect((await fetch(`${plain.url}/__bench/page`)).status).toBe(404);
  expect((await fetch(`${plain.url}/__bench/static/${BENCH_STATIC}`)).status).toBe(404);
});
