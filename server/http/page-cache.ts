// A small in-memory cache of rendered pages for anonymous visitors (ADR 0007; the ad page must
// serve 300 requests/s: docs/performance.md). Pages opt in: only a 200 answer whose Cache-Control
// says `public` and that sets no cookie is kept, keyed by host and URL (the locale is in the path).
// Requests carrying a session cookie never see a cached page. Each kept page has tags
// (`X-Souq-Cache-Tags`, never sent to the visitor); a committed ad change drops the pages tagged
// with that ad, its category, taxonomy or owner. Entries live at most `ttlMs` (other processes of a
// cluster are not told of changes). The CSP nonce of the stored HTML is swapped for the fresh one
// of each response.
import type { NextFunction, Request, Response } from 'express';
import { CACHE_TAGS_HEADER, COUNT_VIEW_HEADER } from '../../app/lib/page-cache.ts';
import { type AdChange, onAdChange, tagsOf } from '../domain/ad-changes.ts';

interface Entry {
  status: number;
  headers: [string, string][];
  /** The body cut at each `nonce="…"` value: the fresh nonce goes between the parts. */
  parts: Buffer[];
  tags: string[];
  viewOf: number | null;
  expires: number;
}

export interface PageCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  maxBytes?: number;
  /** The session cookie's name prefix: a request with it is a member's and passes by. */
  sessionCookie: string;
  /** Counts the view of an ad page served from the cache (bots are the caller's to skip). */
  countView?: (adId: number, req: Request) => Promise<void>;
}

/** Headers of the rendered answer that are not stored (per response, per encoding, or private). */
const NOT_STORED = new Set([
  'set-cookie',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'content-security-policy',
  'x-request-id',
  'date',
  'etag',
  'connection',
  CACHE_TAGS_HEADER,
  COUNT_VIEW_HEADER,
]);

/** `body` cut around every `nonce="<nonce>"` value (the value itself left out). */
function splitAround(body: Buffer, nonce: Buffer | null): Buffer[] {
  if (!nonce || nonce.length === 0) return [body];
  const marker = Buffer.concat([Buffer.from('nonce="'), nonce, Buffer.from('"')]);
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(marker); at !== -1; at = body.indexOf(marker, from)) {
    parts.push(body.subarray(from, at + 7));
    from = at + 7 + nonce.length;
  }
  parts.push(body.subarray(from));
  return parts;
}

/** The parts joined with `nonce` between each two (cheaper than decoding and replacing text). */
function joinAround(parts: Buffer[], nonce: Buffer): Buffer {
  if (parts.length === 1) return parts[0] as Buffer;
  const list: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) list.push(nonce);
    list.push(part);
  });
  return Buffer.concat(list);
}

export function createPageCache(options: PageCacheOptions) {
  const ttlMs = options.ttlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 1000;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const entries = new Map<string, Entry>();
  const byTag = new Map<string, Set<string>>();
  const stats = { hits: 0, misses: 0, stored: 0, invalidated: 0 };

  function drop(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    for (const tag of entry.tags) {
      const keys = byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) byTag.delete(tag);
    }
  }

  function store(key: string, entry: Entry) {
    drop(key);
    // Oldest first out (a Map keeps insertion order; a hit re-inserts its key).
    while (entries.size >= maxEntries) drop(entries.keys().next().value as string);
    entries.set(key, entry);
    for (const tag of entry.tags) {
      const keys = byTag.get(tag) ?? new Set<string>();
      keys.add(key);
      byTag.set(tag, keys);
    }
    stats.stored++;
  }

  function invalidate(tags: string[]) {
    for (const tag of tags) {
      for (const key of [...(byTag.get(tag) ?? [])]) {
        drop(key);
        stats.invalidated++;
      }
    }
  }

  const unsubscribe = onAdChange((change: AdChange) => invalidate(tagsOf(change)));

  async function middleware(req: Request, res: Response, next: NextFunction) {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.endsWith('.data')) return next();
    if ((req.headers.cookie ?? '').includes(options.sessionCookie)) return next();
    const key = `${req.protocol}://${req.get('host') ?? ''}${req.originalUrl}`;
    const nonce = res.locals.nonce as string | undefined;
    // `Cache-Control: no-cache` from the client (a forced reload) asks for a fresh render, which is
    // then kept for the next visitors.
    const fresh = /\bno-cache\b/.test(req.get('cache-control') ?? '');
    const hit = fresh ? undefined : entries.get(key);
    if (hit && hit.expires > Date.now()) {
      stats.hits++;
      entries.delete(key);
      entries.set(key, hit);
      for (const [name, value] of hit.headers) res.setHeader(name, value);
      res.setHeader('X-Page-Cache', 'hit');
      if (hit.viewOf !== null) await options.countView?.(hit.viewOf, req);
      res.status(hit.status).send(joinAround(hit.parts, Buffer.from(nonce ?? '')));
      return;
    }
    if (hit) drop(key);
    stats.misses++;

    // Keep a copy of what the renderer writes, and decide at the end whether it may be shared.
    const chunks: Buffer[] = [];
    let size = 0;
    let keep = true;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const take = (chunk: unknown, encoding?: unknown) => {
      if (!keep || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buf = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      size += buf.length;
      if (size > maxBytes) keep = false;
      else chunks.push(buf);
    };
    // Headers are final once the renderer starts writing: the tags are read, then hidden.
    let tags: string[] | null = null;
    let viewOf: number | null = null;
    const readHeaders = () => {
      if (tags !== null) return;
      const raw = res.getHeader(CACHE_TAGS_HEADER);
      tags = typeof raw === 'string' ? raw.split(/\s+/).filter(Boolean) : [];
      const view = Number(res.getHeader(COUNT_VIEW_HEADER));
      viewOf = Number.isSafeInteger(view) && view > 0 ? view : null;
      if (!res.headersSent) {
        res.removeHeader(CACHE_TAGS_HEADER);
        res.removeHeader(COUNT_VIEW_HEADER);
      }
    };
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    res.writeHead = ((...args: unknown[]) => {
      readHeaders();
      return writeHead(...args);
    }) as typeof res.writeHead;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      take(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      take(chunk, rest[0]);
      readHeaders();
      const cacheControl = String(res.getHeader('cache-control') ?? '');
      if (
        keep &&
        res.statusCode === 200 &&
        /\bpublic\b/.test(cacheControl) &&
        !res.getHeader('set-cookie') &&
        (tags?.length ?? 0) > 0
      ) {
        const headers: [string, string][] = [];
        for (const [name, value] of Object.entries(res.getHeaders())) {
          if (value === undefined || NOT_STORED.has(name)) continue;
          headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
        }
        store(key, {
          status: res.statusCode,
          headers,
          parts: splitAround(Buffer.concat(chunks), nonce ? Buffer.from(nonce) : null),
          tags: tags ?? [],
          viewOf,
          expires: Date.now() + ttlMs,
        });
      }
      return end(chunk, ...rest);
    }) as typeof res.end;
    next();
  }

  return { middleware, invalidate, stats, size: () => entries.size, close: unsubscribe };
}
