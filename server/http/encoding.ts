// Content codings chosen once, not per request: which coding a client accepts (Accept-Encoding),
// and the compressions done ahead of time, for the build's files (scripts/precompress.ts, served by
// server/http/static-files.ts) and for the page cache's entries (server/http/page-cache.ts).
// ADR 0011 says why.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type Coding = 'br' | 'gzip' | 'identity';

/** The file suffix of each stored coding, beside the original (`app.js.br`, `app.js.gz`). */
export const CODING_SUFFIX = { br: '.br', gzip: '.gz' } as const;

/**
 * The coding to answer with among those available (identity always is), by the client's
 * Accept-Encoding: the highest q-value wins, brotli before gzip before identity on a tie. Without
 * the header, or with one that does not parse, identity. Never throws.
 */
export function chooseCoding(header: string | undefined, available: { br?: unknown; gzip?: unknown }): Coding {
  if (!header || (!available.br && !available.gzip)) return 'identity';
  const q = new Map<string, number>();
  for (const item of header.slice(0, 1000).toLowerCase().split(',')) {
    const [name = '', ...params] = item.split(';').map((s) => s.trim());
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^q=([01](?:\.\d{0,3})?)$/.exec(p);
      if (p.startsWith('q=')) weight = m ? Math.min(1, Number(m[1])) : 0;
    }
    q.set(name, weight);
  }
  const star = q.get('*');
  const weightOf = (name: string) => q.get(name) ?? (name === 'gzip' ? q.get('x-gzip') : undefined) ?? star ?? 0;
  let best: Coding = 'identity';
  // Identity not named is acceptable but comes after any coding the client names (a refused
  // identity is still the fallback when nothing else is available).
  let bestWeight = q.get('identity') ?? 0.0001;
  for (const name of ['gzip', 'br'] as const) {
    if (!available[name]) continue;
    const w = weightOf(name);
    if (w > 0 && w >= bestWeight) {
      best = name;
      bestWeight = w;
    }
  }
  return best;
}

/** Brotli quality of the build's files: the best, paid once per build. */
export const FILE_BROTLI_QUALITY = zlib.constants.BROTLI_MAX_QUALITY;
/**
 * Brotli quality of cached pages, compressed once per entry (at most a minute old) off the request
 * path: 6 is within ~8 % of 11's size at about a tenth of its time (≈ 15–50 ms for 100–200 KB).
 */
export const PAGE_BROTLI_QUALITY = 6;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The brotli and gzip forms of `body`, each only when smaller than the body itself (a client is
 * never sent more bytes than identity would be). Runs in libuv's thread pool.
 */
export async function compressVariants(
  body: Buffer,
  quality: number,
  text = true,
): Promise<{ br: Buffer | null; gzip: Buffer | null }> {
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [zlib.constants.BROTLI_PARAM_MODE]: text ? zlib.constants.BROTLI_MODE_TEXT : zlib.constants.BROTLI_MODE_GENERIC,
      },
    }),
    gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  return { br: br.length < body.length ? br : null, gzip: gz.length < body.length ? gz : null };
}
