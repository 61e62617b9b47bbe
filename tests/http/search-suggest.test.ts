// GET /api/search/suggest and the category chips of a results page against the built server (demo
// ads seeded): categories with their published ads and canonical links in the language asked,
// Arabic read as search reads it, garbage answered with an empty list or a 4xx (never a 5xx), and
// the answer cacheable; `named_categories` in GET /api/posts.
import { describe, expect, inject, it } from 'vitest';
import enValidation from '../../app/i18n/locales/en/validation.json' with { type: 'json' };
import type { Suggestion } from '../../server/domain/search/suggest.ts';
import { browser } from '../support/http-browser.ts';

const suggest = async (q: string, locale?: string) => {
  const params = new URLSearchParams({ q, ...(locale ? { locale } : {}) });
  const res = await browser().get(`/api/search/suggest?${params}`);
  return { res, body: res.status === 200 ? ((await res.json()) as { data: Suggestion[] }) : null };
};

describe('suggestions while typing', () => {
  it('offers a category with its ads and completions, Arabic spellings alike', async () => {
    for (const typed of ['ايفون', 'آيفون', 'أيفون']) {
      const { res, body } = await suggest(typed, 'ar');
      expect(res.status, typed).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      const data = body?.data ?? [];
      expect(data.length).toBeGreaterThan(1);
      expect(data.length).toBeLessThanOrEqual(8);
      expect(data[0]).toMatchObject({ kind: 'category', href: '/electronics/iphone' });
      expect(data[0]?.count).toBeGreaterThan(0);
      expect(data.filter((s) => s.kind === 'query').every((s) => s.text.startsWith('آيفون'))).toBe(true);
    }
  });

  it('answers in the language asked, its links under /en', async () => {
    const { body } = await suggest('toyo', 'en');
    expect(body?.data[0]).toMatchObject({
      kind: 'category',
      label: 'Toyota',
      context: 'Cars',
      href: '/en/motors/toyota',
    });
    // A completion leads to the canonical search for its text.
    const one = (await suggest('t', 'en')).body?.data.find((s) => s.kind === 'query');
    expect(one?.href).toBe(`/en/posts?${new URLSearchParams({ q: one?.text ?? '' })}`);
    // The page it leads to answers as it is (no redirect to another form).
    const page = await browser().get(one?.href ?? '/');
    expect(page.status).toBe(200);
  });

  it('takes the locale from the request without the parameter', async () => {
    const res = await fetch(`${inject('baseUrl')}/api/search/suggest?q=toyo`, { headers: { 'x-locale': 'en' } });
    expect(((await res.json()) as { data: Suggestion[] }).data[0]?.label).toBe('Toyota');
  });

  it('answers garbage with an empty list or a translated 422, never a 5xx', async () => {
    for (const q of ['', '   ', '😀😀', '!!!', '%%', '__proto__', 'constructor', 'toString']) {
      const { res, body } = await suggest(q, 'ar');
      expect(res.status, q).toBe(200);
      expect(Array.isArray(body?.data), q).toBe(true);
    }
    expect((await suggest('😀', 'ar')).body?.data).toEqual([]);
    const none = await browser().get('/api/search/suggest');
    expect(none.status).toBe(200);
    expect(((await none.json()) as { data: unknown[] }).data).toEqual([]);
    // Errors speak the language of the request (X-Locale, Accept-Language), as every API error does.
    const long = await fetch(
      `${inject('baseUrl')}/api/search/suggest?${new URLSearchParams({ q: 'س'.repeat(1000) })}`,
      { headers: { 'x-locale': 'en' } },
    );
    expect(long.status).toBe(422);
    expect(((await long.json()) as { errors: { q: string[] } }).errors.q).toEqual([enValidation['search-too-long']]);
    const bad = await suggest('toyo', 'xx');
    expect(bad.res.status).toBe(200);
  });
});

describe('categories a query names', () => {
  it('lists them in GET /api/posts and as chips on the results page', async () => {
    const res = await browser().get(`/api/posts?q=${encodeURIComponent('تويوتا')}`);
    const { meta } = (await res.json()) as {
      meta: { total: number; named_categories: { slug: string; taxonomy: string; count: number }[] };
    };
    expect(meta.named_categories[0]).toMatchObject({ slug: 'toyota', taxonomy: 'motors' });
    expect(meta.named_categories[0]?.count).toBeGreaterThan(0);
    expect(meta.named_categories[0]?.count).toBeLessThanOrEqual(meta.total);
    const html = await (await browser().get('/en/posts?q=toyota')).text();
    expect(html).toContain('href="/en/motors/toyota?q=toyota"');
    expect(html).toContain('Toyota in Cars');
    // Already in the category: no chip for it.
    const within = await (await browser().get('/en/motors/toyota?q=toyota')).text();
    expect(within).not.toContain('Toyota in Cars');
    // No text, no chips.
    const plain = (await (await browser().get('/api/posts?category=cars')).json()) as {
      meta: { named_categories: unknown[] };
    };
    expect(plain.meta.named_categories).toEqual([]);
  });
});
