// Lighthouse's mobile preset (a mid-range phone on a slow 4G link, simulated) over a few pages of a
// running server, in the system Chromium: the figures and targets of docs/performance.md ("Pages on
// a phone"). Used by the e2e suite (tests/e2e/lighthouse.spec.ts) and `npm run lighthouse`.
import { createServer } from 'node:net';
import lighthouse from 'lighthouse';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { type Browser, chromium } from 'playwright-core';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/** The audits the performance score is made of (Lighthouse 12), and the bytes by kind. */
const PERFORMANCE_AUDITS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
  'resource-summary',
  'network-requests',
];

/**
 * Diagnostics that weigh nothing in any score and cost seconds a run: the back/forward cache test
 * navigates away and back, the coverage audits record every script, the screenshots are for people.
 */
const UNSCORED = [
  'bf-cache',
  'screenshot-thumbnails',
  'final-screenshot',
  'unused-javascript',
  'unused-css-rules',
  'legacy-javascript',
  'duplicated-javascript',
  'third-party-summary',
  'third-party-facades',
  'valid-source-maps',
  'script-treemap-data',
];
type Category = (typeof CATEGORIES)[number];

/** One page's figures: category scores 0–100, times in ms, sizes in bytes as transferred. */
export interface PageFigures {
  scores: Record<Category, number>;
  lcp: number;
  tbt: number;
  cls: number;
  fcp: number;
  /** Script bytes transferred on load (whatever the encoding served: brotli to Chromium). */
  scriptBytes: number;
  fontBytes: number;
  totalBytes: number;
  /** Audits of the accessibility, best-practices and SEO categories that did not pass. */
  failing: string[];
  /** What the browser's console reported as errors (their URLs, or their text). */
  consoleErrors: string[];
  /** This machine's speed before the run (Lighthouse's benchmarkIndex) and the CPU slowdown it gave. */
  benchmarkIndex: number;
  cpuSlowdown: number;
}

/** What a page is held to: category scores, times in ms, CLS, bytes. */
export type Levels = Record<Category | 'lcp' | 'tbt' | 'cls' | 'totalBytes', number>;

/** The levels a page must reach (docs/performance.md). */
export const TARGETS: Levels = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
  lcp: 2000,
  tbt: 150,
  cls: 0.02,
  totalBytes: 450 * 1024,
};

/**
 * The CPU slowdown that makes this machine the phone Lighthouse's mobile preset stands for
 * (docs/performance.md, "Pages on a phone"). The preset slows the CPU 4×, which turns the desktop
 * Lighthouse expects (a benchmarkIndex of about 1 500 and more) into a mid-range phone; on a
 * slower machine 4× makes a slower phone, and Lighthouse warns and asks for a smaller multiplier.
 * Its calibration (Lighthouse's throttling guide, "Calibrating the CPU slowdown") maps a
 * benchmarkIndex of 1 533 to 4×, 1 300 to 3×, 800 to 2× and 150 to 1×; between them, a straight
 * line. A faster machine keeps the preset's 4×, so the levels are never held more loosely than by
 * the preset itself.
 */
export function cpuSlowdownFor(benchmarkIndex: number): number {
  const points: [number, number][] = [
    [150, 1],
    [800, 2],
    [1300, 3],
    [1533, 4],
  ];
  if (!(benchmarkIndex > 150)) return 1;
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1] as [number, number];
    const [x1, y1] = points[i] as [number, number];
    if (benchmarkIndex <= x1) return Math.round((y0 + ((benchmarkIndex - x0) / (x1 - x0)) * (y1 - y0)) * 10) / 10;
  }
  return 4;
}

/** Lighthouse's own machine benchmark (about a second), in a blank page of the browser. */
async function benchmarkIndex(browser: Browser): Promise<number> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(pageFunctions.computeBenchmarkIndex);
  } finally {
    await page.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface LhResult {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    { score: number | null; numericValue?: number; scoreDisplayMode: string; details?: { items?: unknown[] } }
  >;
}

/** `ignore`: requests left out of the page weight and console errors left out of the list. */
function figuresOf(lhr: LhResult, ignore?: RegExp): Omit<PageFigures, 'benchmarkIndex' | 'cpuSlowdown'> {
  const n = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const scores = {} as Record<Category, number>;
  const failing: string[] = [];
  for (const c of CATEGORIES) {
    const cat = lhr.categories[c];
    scores[c] = cat ? Math.round((cat.score ?? 0) * 100) : Number.NaN;
    if (!cat || c === 'performance') continue;
    for (const ref of cat.auditRefs) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'notApplicable')
        failing.push(ref.id);
    }
  }
  const byType = (lhr.audits['resource-summary']?.details?.items ?? []) as {
    resourceType: string;
    transferSize: number;
  }[];
  const bytes = (t: string) => byType.find((i) => i.resourceType === t)?.transferSize ?? 0;
  const errors = (lhr.audits['errors-in-console']?.details?.items ?? []) as {
    url?: string;
    description?: string;
    sourceLocation?: { url?: string };
  }[];
  const requests = (lhr.audits['network-requests']?.details?.items ?? []) as { url: string; transferSize?: number }[];
  const ignored = ignore
    ? requests.filter((r) => ignore.test(r.url)).reduce((sum, r) => sum + (r.transferSize ?? 0), 0)
    : 0;
  return {
    // A request that failed outright (a tile server that refuses) names its URL only in the
    // message's source location.
    consoleErrors: errors
      .filter((e) => !ignore || ![e.url, e.sourceLocation?.url, e.description].some((u) => u && ignore.test(u)))
      .map((e) => e.url || e.sourceLocation?.url || e.description || ''),
    scores,
    lcp: n('largest-contentful-paint'),
    tbt: n('total-blocking-time'),
    cls: n('cumulative-layout-shift'),
    fcp: n('first-contentful-paint'),
    scriptBytes: bytes('script'),
    fontBytes: bytes('font'),
    totalBytes: bytes('total') - ignored,
    failing,
  };
}

/**
 * Measures each URL `runs` times in one Chromium (every run starts with an empty cache) and gives
 * the median of each figure. The first run scores all four categories; the others only performance,
 * the one that moves from run to run (accessibility, best practices and SEO read the same page).
 * Performance is Lighthouse's default: the load is traced unthrottled and its timings simulated
 * for a mid-range phone on slow 4G, which keeps a run short and less at the mercy of the machine.
 */
export async function measurePages(
  urls: string[],
  options: { runs?: number; executablePath?: string; log?: (line: string) => void; ignore?: RegExp } = {},
): Promise<Map<string, PageFigures>> {
  const runs = options.runs ?? 3;
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--remote-debugging-port=${port}`],
  });
  const out = new Map<string, PageFigures>();
  try {
    for (const url of urls) {
      const all: PageFigures[] = [];
      for (let i = 0; i < runs; i++) {
        // The first run scores every category; the others only the performance figures.
        const only = i === 0 ? { onlyCategories: [...CATEGORIES] } : { onlyAudits: PERFORMANCE_AUDITS };
        // Lighthouse's trace sometimes comes back unusable on a busy machine (NO_NAVSTART, NO_FCP, a
        // metric missing):
        // such a run is taken again, twice at most.
        let lhr: LhResult | undefined;
        let machine = { benchmarkIndex: 0, cpuSlowdown: 4 };
        for (let attempt = 0; !lhr; attempt++) {
          const index = await benchmarkIndex(browser);
          machine = { benchmarkIndex: index, cpuSlowdown: cpuSlowdownFor(index) };
          const result = await lighthouse(url, {
            port,
            output: 'json',
            logLevel: 'error',
            ...only,
            skipAudits: UNSCORED,
            disableFullPageScreenshot: true,
            // Half of Lighthouse's waits for a quiet page (1 s each): these pages settle well within.
            pauseAfterFcpMs: 500,
            pauseAfterLoadMs: 500,
            networkQuietThresholdMs: 500,
            cpuQuietThresholdMs: 500,
            // The rest of the preset's throttling (slow 4G) stays as it is.
            throttling: { cpuSlowdownMultiplier: machine.cpuSlowdown },
          });
          // A run whose metrics could not all be computed scores performance null: taken again too.
          const error = !result
            ? { code: 'NO_RESULT', message: '' }
            : (result.lhr.runtimeError ??
              (result.lhr.categories.performance?.score == null
                ? { code: 'NO_PERFORMANCE_SCORE', message: '' }
                : undefined));
          if (!error) lhr = result?.lhr as unknown as LhResult;
          else if (attempt >= 2) throw new Error(`Lighthouse on ${url}: ${error.code} ${error.message}`);
          else options.log?.(`${url}: ${error.code}, measured again`);
        }
        all.push({ ...figuresOf(lhr, options.ignore), ...machine });
      }
      const first = all[0];
      const med = (f: (p: PageFigures) => number) => median(all.map(f));
      const figures: PageFigures = {
        scores: { ...first.scores, performance: med((p) => p.scores.performance) },
        lcp: med((p) => p.lcp),
        tbt: med((p) => p.tbt),
        cls: med((p) => p.cls),
        fcp: med((p) => p.fcp),
        scriptBytes: med((p) => p.scriptBytes),
        fontBytes: med((p) => p.fontBytes),
        totalBytes: med((p) => p.totalBytes),
        failing: first.failing,
        consoleErrors: first.consoleErrors,
        benchmarkIndex: med((p) => p.benchmarkIndex),
        cpuSlowdown: med((p) => p.cpuSlowdown),
      };
      out.set(url, figures);
      options.log?.(`${url}: performance ${all.map((p) => p.scores.performance).join(', ')}`);
    }
  } finally {
    await browser.close();
  }
  return out;
}

/** What a page misses of TARGETS (or of the lower levels given), one line each; empty when none. */
export function shortfalls(f: PageFigures, targets: Levels = TARGETS): string[] {
  const out: string[] = [];
  for (const c of CATEGORIES) if (!(f.scores[c] >= targets[c])) out.push(`${c} ${f.scores[c]} < ${targets[c]}`);
  if (!(f.lcp <= targets.lcp)) out.push(`LCP ${Math.round(f.lcp)} ms > ${targets.lcp}`);
  if (!(f.tbt <= targets.tbt)) out.push(`TBT ${Math.round(f.tbt)} ms > ${targets.tbt}`);
  if (!(f.cls <= targets.cls)) out.push(`CLS ${f.cls.toFixed(3)} > ${targets.cls}`);
  if (!(f.totalBytes <= targets.totalBytes)) out.push(`page ${kb(f.totalBytes)} KB > ${kb(targets.totalBytes)}`);
  if (f.failing.length) out.push(`failing audits: ${f.failing.join(', ')}`);
  return out;
}

const kb = (b: number) => Math.round(b / 1024);

/** The medians as a table, one row per page. */
export function table(figures: Map<string, PageFigures>, origin = ''): string {
  const head = [
    'page',
    'perf',
    'a11y',
    'bp',
    'seo',
    'FCP ms',
    'LCP ms',
    'TBT ms',
    'CLS',
    'JS KB',
    'font KB',
    'total KB',
    'bench',
    'CPU ×',
  ];
  const rows = [...figures].map(([url, f]) => [
    url.replace(origin, '') || '/',
    ...CATEGORIES.map((c) => String(f.scores[c])),
    String(Math.round(f.fcp)),
    String(Math.round(f.lcp)),
    String(Math.round(f.tbt)),
    f.cls.toFixed(3),
    String(kb(f.scriptBytes)),
    String(kb(f.fontBytes)),
    String(kb(f.totalBytes)),
    String(Math.round(f.benchmarkIndex)),
    f.cpuSlowdown.toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

/**
 * The pages measured, as paths: home, search, the category and page of the newest published ad
 * (with a photo when there is one) and the map, in Arabic and then English.
 */
export async function pagesOf(origin: string): Promise<string[]> {
  const res = await fetch(`${origin}/api/posts?per_page=24`);
  const ads = ((await res.json()) as { data: AdCard[] }).data;
  const ad = ads.find((a) => a.photo) ?? ads[0];
  if (!ad) throw new Error(`${origin} has no published ad to measure`);
  const category = `/${ad.taxonomy_slug}/${ad.category_slug}`;
  const paths = ['/', '/posts', category, `${category}/${encodeURIComponent(ad.slug)}-${ad.id}`, '/posts/map'];
  return [...paths, ...paths.map((p) => (p === '/' ? '/en' : `/en${p}`))];
}

interface AdCard {
  id: number;
  slug: string;
  taxonomy_slug: string;
  category_slug: string;
  photo: unknown;
}
