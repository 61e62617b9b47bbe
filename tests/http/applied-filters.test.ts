// The applied filters of a listing (docs/product-notes.md, "Search and browse") as the server
// renders them: one chip per filter, each a link to the canonical URL without it, "clear all"
// keeping the category page, the count on the phone's Filters button and facet options without ads
// left out, in both languages. The drawer (rendered once opened) is tests/e2e/applied-filters.spec.ts's.
import { describe, expect, it } from 'vitest';
import { member, placeToyota, publish } from '../support/ads.ts';
import { browser } from '../support/http-browser.ts';

const unescapeHtml = (s: string) => s.replaceAll('&amp;', '&').replaceAll('&quot;', '"');

/** The attribute `name` of an HTML tag (its escapes undone). */
const attribute = (tag: string, name: string) => {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  return value === undefined ? undefined : unescapeHtml(value);
};

/** The chips of a page: what each removes, its accessible name and its link. */
function chips(html: string) {
  return [...html.matchAll(/<a [^>]*data-filter="[^"]*"[^>]*>/g)].map(([tag]) => ({
    filter: attribute(tag, 'data-filter'),
    name: attribute(tag, 'aria-label'),
    href: attribute(tag, 'href'),
  }));
}

const clearAll = (html: string) => attribute(/<a [^>]*data-testid="clear-all"[^>]*>/.exec(html)?.[0] ?? '', 'href');

const tag = `Chipped${Date.now()}${Math.floor(Math.random() * 1000)}`;

describe('applied filters', () => {
  it('shows a chip per filter, each removing only itself, and counts them on the Filters button', async () => {
    const seller = await member('chips');
    const ads = [
      await placeToyota(seller, `${tag} corolla one`, {
        price: '20000',
        'attrs.year': '2012',
        'attrs.condition': 'used',
      }),
      await placeToyota(seller, `${tag} corolla two`, {
        price: '30000',
        'attrs.year': '2016',
        'attrs.condition': 'used',
      }),
    ];
    for (const ad of ads) publish(ad.id);
    const query = `q=${tag}&city=tripoli&price_min=1000&price_max=50000&f.condition=used&f.year.min=2010`;
    const res = await browser().get(`/en/motors/cars?${query}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const base = '/en/motors/cars?';
    expect(chips(html)).toEqual([
      {
        filter: 'q',
        name: `Remove filter: “${tag}”`,
        href: `${base}city=tripoli&price_min=1000&price_max=50000&f.condition=used&f.year.min=2010`,
      },
      {
        filter: 'city',
        name: 'Remove filter: Tripoli',
        href: `${base}q=${tag}&price_min=1000&price_max=50000&f.condition=used&f.year.min=2010`,
      },
      {
        filter: 'price',
        name: 'Remove filter: Price: 1,000–50,000 LYD',
        href: `${base}q=${tag}&city=tripoli&f.condition=used&f.year.min=2010`,
      },
      {
        filter: 'f.condition.used',
        name: 'Remove filter: Used',
        href: `${base}q=${tag}&city=tripoli&price_min=1000&price_max=50000&f.year.min=2010`,
      },
      {
        filter: 'f.year',
        name: 'Remove filter: Year: 2010 or more',
        href: `${base}q=${tag}&city=tripoli&price_min=1000&price_max=50000&f.condition=used`,
      },
    ]);
    // "Clear all" stays on the category page; every link is already canonical (no redirect).
    expect(clearAll(html)).toBe('/en/motors/cars');
    for (const { href } of chips(html)) expect((await browser().get(href as string)).status, href).toBe(200);
    expect(html).toContain('aria-label="Filters, 5 applied"');
    expect(html).toMatch(/data-testid="filters-count">5</);
    // Makes with ads are offered; those without are left out.
    expect(html).toContain(`/en/motors/toyota?q=${tag}`);
    expect(html).not.toContain(`/en/motors/kia?q=${tag}`);
  });

  it('names the category of /posts as a chip and counts with Arabic plurals', async () => {
    const html = await (await browser().get('/posts?category=cars&city=tripoli&within=7')).text();
    expect(chips(html)).toEqual([
      { filter: 'category', name: 'إزالة المرشح: سيارات', href: '/posts?city=tripoli&within=7' },
      { filter: 'city', name: 'إزالة المرشح: طرابلس', href: '/posts?category=cars&within=7' },
      { filter: 'within', name: 'إزالة المرشح: آخر 7 أيام', href: '/posts?category=cars&city=tripoli' },
    ]);
    expect(clearAll(html)).toBe('/posts');
    expect(html).toContain('aria-label="التصفية، 3 مرشحات مطبّقة"');
  });

  it('shows no chips, count or "clear all" on a listing without filters', async () => {
    const html = await (await browser().get('/en/motors/cars')).text();
    expect(chips(html)).toEqual([]);
    expect(clearAll(html)).toBeUndefined();
    expect(html).not.toContain('data-testid="filters-count"');
  });
});
