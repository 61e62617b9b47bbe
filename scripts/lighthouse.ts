// `npm run lighthouse -- <origin> [--runs 3]`: Lighthouse's mobile preset on the pages held to the
// targets of docs/performance.md ("Pages on a phone") — home, /posts, a category, an ad and the map,
// in Arabic and English — on a running server (`npm start` seeds the demo ads). Prints the medians
// and each page's shortfalls; exits 1 when a page misses a target.
//   PORT=3000 npm start &  npm run lighthouse -- http://127.0.0.1:3000
import { measurePages, pagesOf, shortfalls, table } from './lib/lighthouse.ts';

const origin = process.argv[2]?.replace(/\/$/, '');
if (!origin || !/^https?:\/\//.test(origin)) {
  console.error('usage: npm run lighthouse -- <origin, e.g. http://127.0.0.1:3000> [--runs N]');
  process.exit(2);
}
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 3;

const started = Date.now();
const urls = (await pagesOf(origin)).map((p) => origin + p);
const figures = await measurePages(urls, { runs, log: (l) => console.log(l) });
console.log(`\nmedians of ${runs} runs (${Math.round((Date.now() - started) / 1000)} s)\n${table(figures, origin)}`);
let missed = 0;
for (const [url, f] of figures) {
  const s = shortfalls(f);
  if (s.length) {
    missed++;
    console.log(`${url.replace(origin, '')}: ${s.join('; ')}`);
  }
}
process.exit(missed ? 1 : 0);
