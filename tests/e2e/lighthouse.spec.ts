// Speed on a phone: Lighthouse's mobile preset (scripts/lib/lighthouse.ts) on home, /posts, a
// category, an ad and the map, in Arabic and English, three runs each in one Chromium, held to the
// levels of docs/performance.md ("Pages on a phone") by the median run (of five for a page measured
// again). Prints the medians.

import { measurePages, type PageFigures, pagesOf, shortfalls, TARGETS, table } from '../../scripts/lib/lighthouse.ts';
import { placeAdAsAdmin } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/**
 * The levels held here are the targets themselves (docs/performance.md, "Pages on a phone"). On a
 * quiet machine on 2026-11-27 the medians were LCP 1.50–1.95 s, TBT 0–23 ms and performance 98–100.
 * Total Blocking Time is the page's long tasks as this machine runs them, with the server and
 * Chromium on the same two cores, at the CPU slowdown calibrated to the machine's speed before each
 * run (`cpuSlowdownFor`): with other work running beside them the map page measured up to
 * 199 ms. LIGHTHOUSE_RELAXED=1 holds LCP at 2.2 s, TBT at 300 ms and performance at 90, for a
 * development machine busy with other work; CI runs on a quiet one.
 */
const LEVELS = process.env.LIGHTHOUSE_RELAXED === '1' ? { ...TARGETS, lcp: 2200, tbt: 300, performance: 90 } : TARGETS;

/**
 * The e2e server serves no map tiles (tests/e2e/support/test.ts): the map's requests for them answer with
 * the 404 page. They are left out of the page weight and of the console errors, and the
 * best-practices score they alone cost is not counted.
 */
const TILES = /\/e2e-no-tiles\//;

function withoutTileErrors(f: PageFigures): PageFigures {
  if (f.consoleErrors.length > 0 || !f.failing.includes('errors-in-console')) return f;
  const failing = f.failing.filter((a) => a !== 'errors-in-console');
  return failing.length ? { ...f, failing } : { ...f, failing, scores: { ...f.scores, 'best-practices': 100 } };
}

test('home, search, a category, an ad and the map load fast on a phone, in both languages', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(20 * 60_000);
  // The e2e server has no demo ads: two published ads give the listings, the category and the ad page.
  for (const title of ['Toyota Corolla 2015 lighthouse one', 'Toyota Corolla 2015 lighthouse two'])
    await placeAdAsAdmin(browser, baseURL, { title, approve: true });
  const origin = baseURL as string;
  const started = Date.now();
  const urls = (await pagesOf(origin)).map((p) => origin + p);
  const figures = await measurePages(urls, { runs: 3, ignore: TILES });
  console.log(
    `Lighthouse, mobile preset, medians of 3 runs (${Math.round((Date.now() - started) / 1000)} s):\n${table(figures, origin)}`,
  );
  const missesOf = (measured: Map<string, PageFigures>) =>
    [...measured].flatMap(([url, f]) =>
      shortfalls(withoutTileErrors(f), LEVELS).map((s) => `${url.replace(origin, '') || '/'}: ${s}`),
    );
  // A page that misses is measured once more, five runs this time, and must reach the levels then:
  // one busy moment of the shared machine (a long task in Total Blocking Time) is not the page's
  // speed, a page whose median of five misses is.
  const missed = [...figures].filter(([, f]) => shortfalls(withoutTileErrors(f), LEVELS).length > 0).map(([u]) => u);
  if (missed.length > 0) {
    console.log(`measured again: ${missed.map((u) => u.replace(origin, '') || '/').join(', ')}`);
    const again = await measurePages(missed, { runs: 5, ignore: TILES });
    console.log(table(again, origin));
    expect(missesOf(again)).toEqual([]);
  }
});
