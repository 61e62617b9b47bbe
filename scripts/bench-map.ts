// `npm run bench:map -- <souq.db | postgres://…> [--runs 40]`: the map endpoint's work
// (GET /api/posts/map without HTTP: the index's freshness check, text narrowing, the scan and the
// clustering) on an existing database, at zoom 5, 8, 11 and 14, for a few queries, over viewports of
// a 1280×800 screen centred on places across Libya. Reads only. Prints p50/p95/max per zoom and
// query (wall time, and the process's CPU time, which other work on a busy machine inflates less),
// and the size of the answer.
//   npm run bench:map -- /tmp/big/m1.db --runs 60
import { parseSearchQuery } from '../app/lib/search-query.ts';
import { openDatabase } from '../server/db/index.ts';
import { type Bbox, MAX_MAP_ITEMS, searchMap } from '../server/domain/search/map.ts';
import { resolveQuery, searchEngine } from '../server/domain/search/service.ts';

const target = process.argv[2];
if (!target) {
  console.error('usage: npm run bench:map -- <souq.db | postgres://…> [--runs N]');
  process.exit(2);
}
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 40;

const handle = openDatabase(
  /^postgres(ql)?:\/\//.test(target) ? { kind: 'postgres', url: target } : { kind: 'sqlite', file: target },
  { poolSize: 2 },
);

/** The bbox a width×height screen shows around a point at a zoom (Web Mercator). */
function viewport(lat: number, lng: number, zoom: number, width = 1280, height = 800): Bbox {
  const world = 256 * 2 ** zoom;
  const x = ((lng + 180) / 360) * world;
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * world;
  const lngOf = (px: number) => (px / world) * 360 - 180;
  const latOf = (py: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * py) / world))) * 180) / Math.PI;
  return [latOf(y + height / 2), lngOf(x - width / 2), latOf(y - height / 2), lngOf(x + width / 2)];
}

/** Where people look: the big cities, and some of the rest of the country. */
const PLACES = [
  [32.8872, 13.1913], // Tripoli
  [32.1167, 20.0667], // Benghazi
  [32.3754, 15.0925], // Misrata
  [27.0377, 14.4283], // Sabha
  [32.7627, 12.7277], // Zawiya
  [31.2089, 16.5887], // Sirte
  [32.7667, 22.6391], // Derna
  [30.5, 17.5], // the middle
] as const;

const QUERIES = [
  '',
  'category=cars',
  'taxonomy=property&price_max=500000',
  'city=tripoli',
  'photos=1&within=30',
  'q=تويوتا',
];

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const ms = (v: number) => v.toFixed(1).padStart(6);

const engine = searchEngine(handle);
let started = performance.now();
const index = await engine.index();
console.log(`Index: ${index.live} published ads, built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const catalogue = await engine.catalogue();
// The first map of an index computes every ad's pixel once.
started = performance.now();
await searchMap(handle, resolveQuery(catalogue, parseSearchQuery(new URLSearchParams())), {
  bbox: viewport(30, 17, 5),
  zoom: 5,
});
console.log(`First map (pixels of every ad): ${(performance.now() - started).toFixed(0)} ms\n`);

console.log('                                               wall time (ms)       CPU time (ms)');
console.log(
  'zoom  query                                   p50     p95     max     p50     p95   items  ads/answer  bytes',
);
const all: number[] = [];
const allCpu: number[] = [];
for (const zoom of [5, 8, 11, 14]) {
  const perZoom: number[] = [];
  const perZoomCpu: number[] = [];
  for (const q of QUERIES) {
    const resolved = resolveQuery(catalogue, parseSearchQuery(new URLSearchParams(q)));
    const times: number[] = [];
    const cpu: number[] = [];
    let items = 0;
    let total = 0;
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const [lat, lng] = PLACES[i % PLACES.length] as readonly [number, number];
      const t = performance.now();
      const c = process.cpuUsage();
      const result = await searchMap(handle, resolved, { bbox: viewport(lat, lng, zoom), zoom });
      const used = process.cpuUsage(c);
      times.push(performance.now() - t);
      cpu.push((used.user + used.system) / 1000);
      items = Math.max(items, result.clusters.length + result.markers.length);
      total = Math.max(total, result.total);
      bytes = Math.max(bytes, JSON.stringify(result).length);
      if (items > MAX_MAP_ITEMS) throw new Error(`more than ${MAX_MAP_ITEMS} items`);
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    perZoom.push(...times);
    perZoomCpu.push(...cpu);
    console.log(
      `${String(zoom).padStart(4)}  ${(q || '(none)').padEnd(36)} ${ms(pct(times, 0.5))}  ${ms(pct(times, 0.95))}  ${ms(times.at(-1) ?? 0)}  ${ms(pct(cpu, 0.5))}  ${ms(pct(cpu, 0.95))}  ${String(items).padStart(6)}  ${String(total).padStart(10)}  ${String(bytes).padStart(5)}`,
    );
  }
  perZoom.sort((a, b) => a - b);
  perZoomCpu.sort((a, b) => a - b);
  all.push(...perZoom);
  allCpu.push(...perZoomCpu);
  console.log(
    `${String(zoom).padStart(4)}  all queries                          ${ms(pct(perZoom, 0.5))}  ${ms(pct(perZoom, 0.95))}  ${ms(perZoom.at(-1) ?? 0)}  ${ms(pct(perZoomCpu, 0.5))}  ${ms(pct(perZoomCpu, 0.95))}\n`,
  );
}
all.sort((a, b) => a - b);
allCpu.sort((a, b) => a - b);
console.log(
  `All, wall: p50 ${pct(all, 0.5).toFixed(1)} ms, p95 ${pct(all, 0.95).toFixed(1)} ms, max ${(all.at(-1) ?? 0).toFixed(1)} ms`,
);
console.log(`All, CPU:  p50 ${pct(allCpu, 0.5).toFixed(1)} ms, p95 ${pct(allCpu, 0.95).toFixed(1)} ms`);
await handle.close();
