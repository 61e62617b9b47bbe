// The build's files (build/client) served from memory, each in the coding the client accepts:
// brotli and gzip forms are written beside the originals at build time (scripts/precompress.ts,
// ADR 0011) and read here once, so no request compresses anything. Answers carry Content-Length,
// Vary: Accept-Encoding (when a file has other forms), a strong ETag per form, Last-Modified, and
// honour conditional requests, one byte range (of the form sent) and HEAD.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { CODING_SUFFIX, type Coding, chooseCoding, compressVariants, FILE_BROTLI_QUALITY } from './encoding.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/vnd.microsoft.icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Kinds of file worth compressing (fonts in woff2 and images are compressed already). */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.json', '.map', '.webmanifest', '.txt', '.xml', '.svg']);

/** The file `npm run bench` serves as a static file of a page's size, beside BENCH_PAGE_FILE. */
export const BENCH_STATIC = 'bench-static.html';

export function compressible(file: string): boolean {
  return COMPRESSIBLE.has(path.extname(file).toLowerCase());
}

function walk(dir: string, base = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...walk(dir, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** Whether `file` is the stored brotli or gzip form of another file of the list. */
function isVariant(file: string, all: Set<string>): boolean {
  return Object.values(CODING_SUFFIX).some((s) => file.endsWith(s) && all.has(file.slice(0, -s.length)));
}

/**
 * Writes `<file>.br` (brotli at its best quality) and `<file>.gz` (gzip -9) beside each compressible
 * file of `dir` whose form is smaller than the original; a form that would not be is not written.
 */
export async function precompressDirectory(dir: string, only?: (file: string) => boolean) {
  const files = walk(dir);
  const all = new Set(files);
  const report = { files: 0, bytes: 0, br: 0, gzip: 0 };
  const todo = files.filter((f) => compressible(f) && !isVariant(f, all) && (!only || only(f)));
  // Two at a time: brotli at quality 11 is CPU-bound, and the machine may be shared.
  const next = async (): Promise<void> => {
    const file = todo.shift();
    if (!file) return;
    const body = readFileSync(path.join(dir, file));
    const forms = await compressVariants(body, FILE_BROTLI_QUALITY);
    report.files++;
    report.bytes += body.length;
    for (const coding of ['br', 'gzip'] as const) {
      const form = forms[coding];
      if (!form) continue;
      await writeFile(path.join(dir, file + CODING_SUFFIX[coding]), form);
      report[coding] += form.length;
    }
    return next();
  };
  await Promise.all([next(), next()]);
  return report;
}

interface StaticFile {
  type: string;
  lastModified: string;
  lastModifiedMs: number;
  /** Content hash of the original; each form's ETag adds its coding. */
  hash: string;
  forms: { identity: Buffer; br?: Buffer; gzip?: Buffer };
}

function loadFiles(dir: string, only?: (file: string) => boolean): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  let list: string[];
  try {
    list = walk(dir);
  } catch {
    return files;
  }
  const all = new Set(list);
  for (const rel of list) {
    if (isVariant(rel, all) || (only && !only(rel))) continue;
    const full = path.join(dir, rel);
    const stat = statSync(full);
    const identity = readFileSync(full);
    const file: StaticFile = {
      type: TYPES[path.extname(rel).toLowerCase()] ?? 'application/octet-stream',
      lastModified: new Date(Math.floor(stat.mtimeMs / 1000) * 1000).toUTCString(),
      lastModifiedMs: Math.floor(stat.mtimeMs / 1000) * 1000,
      hash: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
      forms: { identity },
    };
    for (const coding of ['br', 'gzip'] as const) {
      const name = rel + CODING_SUFFIX[coding];
      if (!all.has(name)) continue;
      // A form older than its original is stale (the file was rebuilt without it); one that is not
      // smaller is never sent.
      if (statSync(path.join(dir, name)).mtimeMs < stat.mtimeMs) continue;
      const form = readFileSync(path.join(dir, name));
      if (form.length < identity.length) file.forms[coding] = form;
    }
    files.set(`/${rel}`, file);
  }
  return files;
}

const ETAG_SUFFIX: Record<Coding, string> = { identity: '', br: '-br', gzip: '-gz' };

/** Whether an If-None-Match list names `etag` (weak comparison, as RFC 9110 asks for it). */
function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/** One byte range of `size` bytes: the range, 'unsatisfiable', or null (no range, or one to ignore). */
export function byteRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

export interface StaticFilesOptions {
  /** Cache-Control of every answer. */
  cacheControl: string;
  /** Serve only the files this accepts (paths relative to the directory). */
  only?: (file: string) => boolean;
  /** Read the directory at the first request instead of now. */
  lazy?: boolean;
}

/** Serves the files of `dir` (read once) at their paths; other requests go on. */
export function staticFiles(dir: string, options: StaticFilesOptions) {
  let files = options.lazy ? null : loadFiles(dir, options.only);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    files ??= loadFiles(dir, options.only);
    const file = files.get(req.path);
    if (!file) return next();
    const coding = chooseCoding(req.get('accept-encoding'), file.forms);
    const body = file.forms[coding] ?? file.forms.identity;
    const etag = `"${file.hash}${ETAG_SUFFIX[coding]}"`;
    res.setHeader('Content-Type', file.type);
    res.setHeader('Cache-Control', options.cacheControl);
    if (file.forms.br || file.forms.gzip) res.setHeader('Vary', 'Accept-Encoding');
    if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
    res.setHeader('ETag', etag);
    res.setHeader('Last-Modified', file.lastModified);
    res.setHeader('Accept-Ranges', 'bytes');

    const ifNoneMatch = req.get('if-none-match');
    const ifModifiedSince = ifNoneMatch === undefined ? Date.parse(req.get('if-modified-since') ?? '') : Number.NaN;
    if ((ifNoneMatch !== undefined && noneMatch(ifNoneMatch, etag)) || file.lastModifiedMs <= ifModifiedSince) {
      res.statusCode = 304;
      res.removeHeader('Content-Type');
      return void res.end();
    }

    const rangeHeader = req.method === 'GET' ? req.get('range') : undefined;
    const ifRange = req.get('if-range')?.trim();
    const rangeApplies =
      rangeHeader !== undefined &&
      (ifRange === undefined || ifRange === etag || Date.parse(ifRange) === file.lastModifiedMs);
    const range = rangeApplies ? byteRange(rangeHeader, body.length) : null;
    if (range === 'unsatisfiable') {
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${body.length}`);
      res.setHeader('Content-Length', '0');
      return void res.end();
    }
    if (range) {
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${body.length}`);
      res.setHeader('Content-Length', String(range.end - range.start + 1));
      return void res.end(body.subarray(range.start, range.end + 1));
    }
    res.statusCode = 200;
    res.setHeader('Content-Length', String(body.length));
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
