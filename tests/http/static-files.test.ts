// The build's files served in the form written at build time (scripts/precompress.ts, ADR 0011):
// brotli, gzip or identity by Accept-Encoding, with their length, Vary, a strong ETag per form,
// immutable caching, conditional requests, byte ranges and HEAD.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { rawGet } from '../support/raw-http.ts';

const base = inject('baseUrl');
const dir = path.resolve('build/client/assets');
let url: string;
let original: Buffer;
let br: Buffer;
let gz: Buffer;

beforeAll(() => {
  // The largest script: the one phones wait for.
  const name = readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort((a, b) => readFileSync(path.join(dir, b)).length - readFileSync(path.join(dir, a)).length)[0] as string;
  expect(existsSync(path.join(dir, `${name}.br`)), 'npm run build writes the .br forms').toBe(true);
  url = `${base}/assets/${name}`;
  original = readFileSync(path.join(dir, name));
  br = readFileSync(path.join(dir, `${name}.br`));
  gz = readFileSync(path.join(dir, `${name}.gz`));
});

describe('hashed assets', () => {
  it('are written smaller beside the original: brotli at its best quality under gzip -9', () => {
    expect(br.length).toBeLessThan(gz.length);
    expect(gz.length).toBeLessThan(original.length);
    expect(brotliDecompressSync(br).equals(original)).toBe(true);
    expect(gunzipSync(gz).equals(original)).toBe(true);
  });

  it('are sent as brotli to a browser (br, gzip), the stored bytes as they are', async () => {
    const res = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-length']).toBe(String(br.length));
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.etag).toMatch(/^"[\w-]+-br"$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body.equals(br)).toBe(true);
  });

  it('are sent as gzip when brotli is not accepted, or weighed lower', async () => {
    for (const accept of ['gzip', 'gzip, deflate', 'br;q=0.5, gzip', 'br;q=0, *']) {
      const res = await rawGet(url, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.headers['content-length']).toBe(String(gz.length));
      expect(res.headers.etag).toMatch(/-gz"$/);
      expect(res.body.equals(gz)).toBe(true);
    }
  });

  it('are sent as they are to clients that accept neither, or send nonsense', async () => {
    for (const accept of [
      undefined,
      'identity',
      'deflate',
      'br;q=0, gzip;q=0',
      'br;q=banana',
      ';;,,',
      'x'.repeat(4000),
    ]) {
      const res = await rawGet(url, accept === undefined ? {} : { 'accept-encoding': accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['content-length']).toBe(String(original.length));
      expect(res.body.equals(original)).toBe(true);
    }
  });

  it('answer a revalidation with 304 per form, and HEAD without a body', async () => {
    const first = await rawGet(url, { 'accept-encoding': 'br' });
    const etag = first.headers.etag as string;
    expect((await rawGet(url, { 'accept-encoding': 'br', 'if-none-match': etag })).status).toBe(304);
    // The brotli form's tag does not stand for the gzip form.
    expect((await rawGet(url, { 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(200);
    const since = first.headers['last-modified'] as string;
    expect((await rawGet(url, { 'accept-encoding': 'br', 'if-modified-since': since })).status).toBe(304);
    const head = await rawGet(url, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(br.length));
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body.length).toBe(0);
  });

  it('serve one byte range of the form sent; refuse one past the end; ignore what does not parse', async () => {
    const part = await rawGet(url, { 'accept-encoding': 'identity', range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${original.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.body.equals(original.subarray(100, 200))).toBe(true);
    const tail = await rawGet(url, { 'accept-encoding': 'br', range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.headers['content-encoding']).toBe('br');
    expect(tail.body.equals(br.subarray(br.length - 10))).toBe(true);
    const past = await rawGet(url, { range: `bytes=${original.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${original.length}`);
    for (const range of ['bytes=5-2', 'bytes=0-1,5-6', 'lines=1-2', 'bytes=abc', 'bytes=99999999999999999999999-']) {
      const res = await rawGet(url, { range });
      expect([200, 416], range).toContain(res.status);
    }
    // A changed file (another ETag in If-Range) gets the whole of it.
    const stale = await rawGet(url, { range: 'bytes=0-9', 'if-range': '"other"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(original.length);
  });
});

describe('files outside /assets', () => {
  it('are precompressed too, cached an hour; files compressed already are sent as they are', async () => {
    const svg = await rawGet(`${base}/favicon.svg`, { 'accept-encoding': 'br, gzip' });
    expect(svg.status).toBe(200);
    expect(svg.headers['cache-control']).toBe('public, max-age=3600');
    if (existsSync('build/client/favicon.svg.br')) expect(svg.headers['content-encoding']).toBe('br');
    const font = readdirSync(dir).find((f) => f.endsWith('.woff2')) as string;
    const woff = await rawGet(`${base}/assets/${font}`, { 'accept-encoding': 'br, gzip' });
    expect(woff.status).toBe(200);
    expect(woff.headers['content-type']).toBe('font/woff2');
    expect(woff.headers['content-encoding']).toBeUndefined();
    expect(woff.body.equals(readFileSync(path.join(dir, font)))).toBe(true);
  });
});
