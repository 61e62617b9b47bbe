// A small in-memory cache of rendered pages for anonymous visitors (ADR 0007; the ad page must
// serve 300 requests/s: docs/performance.md). Pages opt in: only a 200 answer whose Cache-Control
// says `public` and that sets no cookie is kept, keyed by host and URL (the locale is in the path).
// Requests carrying a session cookie (or a flash message) never see a cached page. Each kept page has tags
// (`X-Souq-Cache-Tags`, never sent to the visitor); a committed ad change drops the pages tagged
// with that ad, its category, taxonomy or owner, and a banner change those showing its placement; a
// committed change of the catalogue (places, categories: server/domain/catalogue-changes.ts) drops
// them all. Entries live at most `ttlMs` (other processes of a cluster are not told of changes).
//
// An entry is compressed once (brotli and gzip, off the request path) when it is first answered from
// memory, and later hits answer the form the client accepts as it is (ADR 0011). A render that no
// visitor asks for again (the long tail of ad pages, a forced reload) is never compressed: the
// render itself stays as cheap as without a cache. For that its bytes must not change per response: the CSP
// nonce of the render is taken out of the stored HTML, and cached answers carry a CSP that allows
// the page's own inline scripts by their SHA-256 hashes instead.
import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { CACHE_TAGS_HEADER, COUNT_VIEW_HEADER } from '../../app/lib/page-cache.ts';
import { type AdChange, onAdChange, onPagesChange, tagsOf } from '../domain/ad-changes.ts';
import { onBannersChange } from '../domain/banners/changes.ts';
import { onCatalogueChange } from '../domain/catalogue-changes.ts';
import { type Coding, chooseCoding, compressVariants, PAGE_BROTLI_QUALITY } from './encoding.ts';

/** A page answered from memory: the same bytes for every visitor, compressed once. */
export interface StoredPage {
  status: number;
  headers: [string, string][];
  /** The CSP of this body (its inline scripts by hash), or null to keep the response's own. */
  csp: string | null;
  /** Content hash of the body; each form's ETag adds its coding. */
  hash: string;
  forms: { identity: Buffer; br?: Buffer; gzip?: Buffer };
  /** The compressed forms are made (until then a hit is compressed per answer, and has no ETag). */
  ready: boolean;
  /** The compressed forms are being made. */
  compressing?: boolean;
}

interface Entry extends StoredPage {
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
  /**
   * Cookies that make a page personal for this one request (the flash message of a completed
   * action: app/lib/flash.server.ts): a request with one passes by, so its message is shown and
   * never stored.
   */
  passCookies?: string[];
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

/** `body` without its ` nonce="<nonce>"` attributes. */
export function withoutNonce(body: Buffer, nonce: string): Buffer {
  const marker = Buffer.from(` nonce="${nonce}"`);
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(marker); at !== -1; at = body.indexOf(marker, from)) {
    parts.push(body.subarray(from, at));
    from = at + marker.length;
  }
  if (parts.length === 0) return body;
  parts.push(body.subarray(from));
  return Buffer.concat(parts);
}

/**
 * CSP sources (`'sha256-…'`) of the inline scripts of an HTML page: the text between `<script …>`
 * and `</script`, as the browser hashes it (line breaks normalised, NUL replaced as the parser
 * does). Scripts with `src` are left out: `'self'` allows them.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  const open = /<script\b([^>]*)>/gi;
  const close = /<\/script/gi;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    close.lastIndex = open.lastIndex;
    const end = close.exec(html);
    if (!end) break;
    const text = html.slice(open.lastIndex, end.index).replace(/\r\n?/g, '\n').replaceAll('\0', '\uFFFD');
    if (text && !/\ssrc\s*=/i.test(m[1] ?? '')) {
      hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
    }
    open.lastIndex = end.index;
  }
  return [...hashes];
}

/** Makes the compressed forms of `page` (in libuv's thread pool); a form not smaller is left out. */
async function compress(page: StoredPage): Promise<void> {
  const forms = await compressVariants(page.forms.identity, PAGE_BROTLI_QUALITY);
  if (forms.br) page.forms.br = forms.br;
  if (forms.gzip) page.forms.gzip = forms.gzip;
  page.ready = true;
}

/** A page answered from memory, its compressed forms made before it resolves (`npm run bench`). */
export async function storedPage(body: Buffer, headers: [string, string][]): Promise<StoredPage> {
  const page: StoredPage = {
    status: 200,
    headers,
    csp: null,
    hash: hashOf(body),
    forms: { identity: body },
    ready: false,
  };
  await compress(page);
  return page;
}

const hashOf = (body: Buffer) => createHash('sha256').update(body).digest('base64url').slice(0, 27);
const ETAG_SUFFIX: Record<Coding, string> = { identity: '', br: '-br', gzip: '-gz' };

/**
 * Answers `page` in the coding the client accepts, with its length and a strong ETag per form (a
 * matching If-None-Match gets a 304). The compression middleware leaves an encoded answer alone.
 */
export function answerFromMemory(req: Request, res: Response, page: StoredPage): void {
  const coding = chooseCoding(req.get('accept-encoding'), page.forms);
  const body = page.forms[coding] ?? page.forms.identity;
  for (const [name, value] of page.headers) res.setHeader(name, value);
  if (page.csp) res.setHeader('Content-Security-Policy', page.csp);
  res.vary('Accept-Encoding');
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
  res.status(page.status);
  if (page.ready) {
    res.setHeader('ETag', `"${page.hash}${ETAG_SUFFIX[coding]}"`);
    if (req.fresh) return void res.status(304).end();
  }
  res.setHeader('Content-Length', String(body.length));
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function createPageCache(options: PageCacheOptions) {
  const ttlMs = options.ttlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 1000;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const entries = new Map<string, Entry>();
  const byTag = new Map<string, Set<string>>();
  const stats = { hits: 0, misses: 0, stored: 0, invalidated: 0, compressed: 0 };

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

  /** Every page goes: a catalogue change (names, order, places) shows on most of them. */
  function clear() {
    stats.invalidated += entries.size;
    entries.clear();
    byTag.clear();
  }

  const unsubscribers = [
    onAdChange((change: AdChange) => invalidate(tagsOf(change))),
    // A banner created, edited, switched or deleted drops the pages showing its placement.
    onBannersChange(invalidate),
    // Pages dropped by tag (a company's page, its badges, its members' ads).
    onPagesChange(invalidate),
    onCatalogueChange(clear),
  ];
  const unsubscribe = () => {
    for (const off of unsubscribers) off();
  };

  async function middleware(req: Request, res: Response, next: NextFunction) {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.endsWith('.data')) return next();
    const cookies = req.headers.cookie ?? '';
    if ([options.sessionCookie, ...(options.passCookies ?? [])].some((name) => cookies.includes(name))) return next();
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
      res.setHeader('X-Page-Cache', 'hit');
      if (hit.viewOf !== null) await options.countView?.(hit.viewOf, req);
      answerFromMemory(req, res, hit);
      if (!hit.ready && !hit.compressing) {
        // The first hit: this answer is compressed per response; the next ones send stored forms.
        hit.compressing = true;
        stats.compressed++;
        compress(hit).catch(() => {
          // Left uncompressed: hits are compressed per answer, as without forms.
        });
      }
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
        const rendered = Buffer.concat(chunks);
        const body = nonce ? withoutNonce(rendered, nonce) : rendered;
        // The render's CSP with its nonce replaced by the hashes of the page's inline scripts; a
        // CSP without that nonce (development) stays the fresh one of each response.
        const renderedCsp = String(res.getHeader('content-security-policy') ?? '');
        const nonceSource = ` 'nonce-${nonce}'`;
        const csp =
          nonce && renderedCsp.includes(nonceSource)
            ? renderedCsp.replace(
                nonceSource,
                inlineScriptHashes(body.toString('utf8'))
                  .map((h) => ` ${h}`)
                  .join(''),
              )
            : null;
        const entry: Entry = {
          status: res.statusCode,
          headers,
          csp,
          hash: hashOf(body),
          forms: { identity: body },
          ready: false,
          tags: tags ?? [],
          viewOf,
          expires: Date.now() + ttlMs,
        };
        store(key, entry);
      }
      return end(chunk, ...rest);
    }) as typeof res.end;
    next();
  }

  return { middleware, invalidate, clear, stats, size: () => entries.size, close: unsubscribe };
}
