// The page cache compresses an entry when it is first answered from memory, never at render time
// (server/http/page-cache.ts, ADR 0011): a render nobody asks for again costs no compression.
import { get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_TAGS_HEADER } from '../../app/lib/page-cache.ts';
import { createPageCache } from '../../server/http/page-cache.ts';

const page = `<!doctype html><html><body>${'<p>سيارة تويوتا كامري نظيفة للبيع</p>'.repeat(200)}</body></html>`;

describe('page cache compression', () => {
  const cache = createPageCache({ sessionCookie: 'souq.session_token', ttlMs: 60_000 });
  let renders = 0;
  let base = '';
  let close = () => {};

  beforeAll(async () => {
    const app = express();
    app.use(cache.middleware);
    app.get('/page', (_req, res) => {
      renders++;
      res.setHeader('Cache-Control', 'public, max-age=0');
      res.setHeader(CACHE_TAGS_HEADER, 'ad:1');
      res.type('html').end(page);
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => {
    cache.close();
    close();
  });

  const get = (headers: Record<string, string> = {}) =>
    fetch(`${base}/page`, { headers: { 'accept-encoding': 'br', ...headers } });

  it('renders without compressing, and compresses once on the first hit', async () => {
    // Forced reloads render afresh each time and replace the entry: none of them compresses.
    for (let i = 0; i < 3; i++) await (await get({ 'cache-control': 'no-cache' })).arrayBuffer();
    expect(renders).toBe(3);
    expect(cache.stats.stored).toBe(3);
    expect(cache.stats.compressed).toBe(0);

    // The first hit answers from memory and starts the one compression.
    const first = await get();
    expect(first.headers.get('x-page-cache')).toBe('hit');
    expect(await first.text()).toBe(page);
    expect(cache.stats.compressed).toBe(1);

    // Later hits send the stored brotli form (with its ETag) once it is made; none compresses again.
    let etag: string | null = null;
    for (let i = 0; i < 50 && !etag; i++) {
      const res = await fetch(`${base}/page`, { headers: { 'accept-encoding': 'br' }, redirect: 'manual' });
      etag = res.headers.get('etag');
      await res.arrayBuffer();
      if (!etag) await new Promise((r) => setTimeout(r, 20));
    }
    expect(etag).toMatch(/-br"$/);
    expect(cache.stats.compressed).toBe(1);
    expect(renders).toBe(3);

    // The stored form is the page.
    const raw = await new Promise<Buffer>((resolve, reject) => {
      httpGet(`${base}/page`, { headers: { 'accept-encoding': 'br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
      }).on('error', reject);
    });
    expect(brotliDecompressSync(raw).toString('utf8')).toBe(page);
  });
});
