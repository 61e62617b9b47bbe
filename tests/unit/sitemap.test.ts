// The sitemap's XML pieces (server/http/sitemap.ts): escaping, percent-encoding, dates, and the
// stream that reads no further than the client takes.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { escapeXml, pipeXml, urlElement, w3cDatetime } from '../../server/http/sitemap.ts';
import { checkUrlset } from '../support/sitemap-xml.ts';

describe('sitemap XML', () => {
  it('escapes the five XML characters', () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
  });

  it('dates to the second in UTC', () => {
    expect(w3cDatetime('2025-03-04T05:06:07.891Z')).toBe('2025-03-04T05:06:07Z');
    expect(w3cDatetime('2025-03-04T07:06:07.000+02:00')).toBe('2025-03-04T05:06:07Z');
  });

  it('writes a <url> with the Arabic page, its date and both languages, encoded and escaped', () => {
    const origin = "https://souq.example/a&b'";
    const url = urlElement(origin, { path: '/motors/toyota/تويوتا-كورولا-12', lastmod: '2025-01-02T03:04:05.678Z' });
    const encoded = '/motors/toyota/%D8%AA%D9%88%D9%8A%D9%88%D8%AA%D8%A7-%D9%83%D9%88%D8%B1%D9%88%D9%84%D8%A7-12';
    expect(url).toContain('https://souq.example/a&amp;b&apos;/motors');
    const [parsed] = checkUrlset(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${url}</urlset>\n`,
    );
    expect(parsed).toEqual({
      loc: `${origin}${encoded}`,
      lastmod: '2025-01-02T03:04:05Z',
      alternates: { ar: `${origin}${encoded}`, en: `${origin}/en${encoded}`, 'x-default': `${origin}${encoded}` },
    });
    expect(urlElement('https://souq.example', { path: '/', lastmod: '2025-01-02T03:04:05.678Z' })).toContain(
      'hreflang="en" href="https://souq.example/en"',
    );
  });

  it('reads no further than a slow client takes, then finishes', async () => {
    let pulled = 0;
    async function* body() {
      for (let i = 0; i < 10_000; i++) {
        pulled++;
        yield `<url>${'x'.repeat(1000)}</url>\n`;
      }
    }
    const held: (() => void)[] = [];
    let received = 0;
    const out = new Writable({
      highWaterMark: 16_384,
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        held.push(done);
      },
    });
    const finished = pipeXml(body(), out);
    // A sleep on purpose: this is about what a client that reads nothing lets happen over time. No
    // event says "the generator will not be pulled again"; a copy that ignored backpressure would run
    // through the document within this window.
    await new Promise((r) => setTimeout(r, 100));
    // The client took nothing yet: a few 64 kB pieces were read ahead, not the 10 MB document.
    expect(pulled).toBeLessThan(400);
    for (;;) {
      const done = held.shift();
      if (!done) {
        if (out.writableFinished) break;
        await new Promise((r) => setTimeout(r, 1));
        continue;
      }
      done();
    }
    await finished;
    expect(pulled).toBe(10_000);
    expect(received).toBe(10_000 * '<url></url>\n'.length + 10_000 * 1000);
  });
});
