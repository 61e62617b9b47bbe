// Precompressed files and the choice of coding (server/http/encoding.ts, server/http/static-files.ts),
// and the hashes that stand for a cached page's CSP nonce (server/http/page-cache.ts).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseCoding } from '../../server/http/encoding.ts';
import { inlineScriptHashes, withoutNonce } from '../../server/http/page-cache.ts';
import { byteRange, precompressDirectory, staticFiles } from '../../server/http/static-files.ts';
import { rawGet } from '../support/raw-http.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'souq-static-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('chooseCoding', () => {
  const both = { br: true, gzip: true };
  it.each([
    ['br, gzip', both, 'br'],
    ['gzip, deflate, br, zstd', both, 'br'],
    ['gzip', both, 'gzip'],
    ['GZIP', both, 'gzip'],
    ['x-gzip', both, 'gzip'],
    ['br;q=0.5, gzip;q=0.8', both, 'gzip'],
    ['br;q=0, *', both, 'gzip'],
    ['*', both, 'br'],
    ['identity', both, 'identity'],
    ['br, gzip', { gzip: true }, 'gzip'],
    ['br', {}, 'identity'],
    ['br;q=0, gzip;q=0', both, 'identity'],
    ['br;q=2', both, 'identity'],
    ['identity;q=1, br;q=0.9', both, 'identity'],
    [undefined, both, 'identity'],
    ['', both, 'identity'],
    [',;;=,', both, 'identity'],
  ] as const)('%s with %o → %s', (header, available, coding) => {
    expect(chooseCoding(header, available)).toBe(coding);
  });
});

describe('byteRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=90-500', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=9-0', 100, null],
    ['bytes=0-1,3-4', 100, null],
    ['bytes=-', 100, null],
    ['items=0-1', 100, null],
  ] as const)('%s of %i', (header, size, expected) => {
    expect(byteRange(header, size)).toEqual(expected);
  });
});

describe('precompressed files', () => {
  it('are written only when smaller than the original, and only for kinds worth it', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'app.js'), 'console.log("سوق");\n'.repeat(400));
    writeFileSync(path.join(dir, 'noise.js'), randomBytes(4000));
    writeFileSync(path.join(dir, 'font.woff2'), 'a'.repeat(4000));
    await precompressDirectory(dir);
    expect(existsSync(path.join(dir, 'app.js.br'))).toBe(true);
    expect(existsSync(path.join(dir, 'app.js.gz'))).toBe(true);
    expect(existsSync(path.join(dir, 'noise.js.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'noise.js.gz'))).toBe(false);
    expect(existsSync(path.join(dir, 'font.woff2.br'))).toBe(false);
  });

  it('are never sent when bigger than the original or older than it', async () => {
    const dir = tempDir();
    const text = Buffer.from('body { color: red }\n'.repeat(200));
    writeFileSync(path.join(dir, 'a.css'), text);
    writeFileSync(path.join(dir, 'a.css.br'), Buffer.alloc(text.length + 1, 1));
    writeFileSync(path.join(dir, 'b.css'), text);
    writeFileSync(path.join(dir, 'b.css.gz'), Buffer.alloc(10, 1));
    // b.css rebuilt after its gzip form was written: the form is stale.
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(dir, 'b.css'), later, later);
    const app = express().use(staticFiles(dir, { cacheControl: 'no-cache' }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const file of ['/a.css', '/b.css']) {
        const res = await rawGet(url + file, { 'accept-encoding': 'br, gzip' });
        expect(res.headers['content-encoding'], file).toBeUndefined();
        expect(res.body.equals(text)).toBe(true);
      }
      expect((await rawGet(`${url}/a.css.br`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe('cached pages: hashes instead of the nonce', () => {
  const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
  it('hashes each inline script once, not scripts with src', () => {
    const html =
      '<html><head><script>a()</script><script type="module">import "x";\r\nb()</script>' +
      '<script src="/assets/x.js"></script><SCRIPT>a()</SCRIPT></head><body><script>c("</p>")</script></body></html>';
    expect(inlineScriptHashes(html)).toEqual([sha('a()'), sha('import "x";\nb()'), sha('c("</p>")')]);
  });

  it('takes the nonce attributes out of the HTML', () => {
    const body = Buffer.from('<script nonce="abc+/=">x</script><style nonce="abc+/="></style><p>nonce="abc+/="</p>');
    expect(withoutNonce(body, 'abc+/=').toString()).toBe('<script>x</script><style></style><p>nonce="abc+/="</p>');
  });
});
