// Arabic pages write Western digits only (docs/decisions/0012-western-digits.md): prices, counts,
// dates and relative times as rendered by the built server. What members wrote may hold any digits
// (other test files place ads titled "كورولا ٢٠١٥"): it renders with dir="auto" and is left out,
// as are tags, their attributes, scripts and the document's title.
import { describe, expect, inject, it } from 'vitest';

const base = inject('baseUrl');
const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';
const page = async (path: string) => {
  const res = await fetch(base + path, { headers: { 'user-agent': BROWSER } });
  expect(res.status, path).toBe(200);
  return res.text();
};
const OTHER_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]+/g;

/** The page's own words: without members' text (dir="auto"), scripts, the title and the tags. */
const siteText = (html: string) =>
  html
    .replace(/<(script|style|title)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<(\w+)\b[^>]*\bdir="auto"[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]*>/g, ' ');

interface Card {
  id: number;
  slug: string;
  taxonomy_slug: string;
  category_slug: string;
  price: number | null;
  user_id?: number;
}

describe('Arabic pages', () => {
  it('home, /posts, a taxonomy, a category and an ad write prices, counts and dates in Western digits', async () => {
    const { data } = (await (await fetch(`${base}/api/posts?taxonomy=motors`)).json()) as { data: Card[] };
    // An ad with a price (other test files place ads without one), so its category page shows one.
    const ad = data.find((a) => a.price !== null) as Card;
    const paths = [
      '/',
      '/posts',
      '/posts?page=2',
      `/${ad.taxonomy_slug}`,
      `/${ad.taxonomy_slug}/${ad.category_slug}`,
      `/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`,
    ];
    for (const path of paths) {
      const html = await page(path);
      expect(siteText(html).match(OTHER_DIGITS), path).toBeNull();
      // …and it does write numbers: a price in dinars with its thousands comma.
      expect(html, path).toMatch(/\d{1,3}(,\d{3})* د\.ل/);
    }
  });

  it('the ad page dates its ad with the month in words and counts its views with a label', async () => {
    const { data } = (await (await fetch(`${base}/api/posts`)).json()) as { data: Card[] };
    const ad = data[0] as Card;
    const html = await page(`/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`);
    expect(html).toMatch(
      /نُشر في \d{1,2} (يناير|فبراير|مارس|أبريل|مايو|يونيو|يوليو|أغسطس|سبتمبر|أكتوبر|نوفمبر|ديسمبر) \d{4}/,
    );
    // A numeric date (26/11/2026), not the year and month of a photo's path (/2026/11/5868ab…).
    expect(html).not.toMatch(/(?<![\d/])\d{1,2}\/\d{1,2}\/\d{4}(?!\w)/);
  });
});
