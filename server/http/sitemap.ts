// /sitemap.xml (docs/product/site.md): a sitemap index of /sitemaps/pages.xml (home, info
// pages, contact), /sitemaps/catalog.xml (taxonomies and categories), /sitemaps/companies.xml
// (company pages) and /sitemaps/ads-{n}.xml (the
// published ads of the n-th range of ids, server/domain/sitemap.ts). Every <url> gives the Arabic
// page as <loc>, its ar / en / x-default alternates and <lastmod>. Ads are streamed as they are
// read, a batch at a time, at the pace the client (and compression) takes them: flat memory at any
// number of ads.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type Response, type Router } from 'express';
import { type Locale, localizePath } from '../../app/i18n/config.ts';
import type { Config } from '../config.ts';
import type { AppServices } from '../context.ts';
import {
  adChunks,
  adEntries,
  adPathPrefixes,
  catalogSitemap,
  companyEntries,
  newestOf,
  type SitemapEntry,
  staticEntries,
} from '../domain/sitemap.ts';

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The absolute origin of links: APP_URL, else the request's (the root loader's rule for canonical URLs). */
export function siteOrigin(config: Pick<Config, 'appUrl'>, req: Request): string {
  return config.appUrl ?? `${req.protocol}://${req.host}`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);

/** A W3C datetime to the second, in UTC: `2025-11-22T02:29:00Z`. */
export const w3cDatetime = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** One <url>: the Arabic page, its last change and the page in each language (x-default: Arabic). */
export function urlElement(origin: string, entry: SitemapEntry): string {
  const path = encodeURI(entry.path);
  const at = (locale: Locale) => escapeXml(origin + localizePath(path, locale));
  const ar = at('ar');
  return (
    `<url><loc>${ar}</loc><lastmod>${w3cDatetime(entry.lastmod)}</lastmod>` +
    `<xhtml:link rel="alternate" hreflang="ar" href="${ar}"/>` +
    `<xhtml:link rel="alternate" hreflang="en" href="${at('en')}"/>` +
    `<xhtml:link rel="alternate" hreflang="x-default" href="${ar}"/></url>\n`
  );
}

const URLSET_OPEN = `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="${XHTML_NS}">\n`;
const URLSET_CLOSE = '</urlset>\n';

/** Joins small strings into pieces of about 64 kB, so the response is written in few large chunks. */
async function* coalesce(parts: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  for await (const part of parts) {
    buffer += part;
    if (buffer.length >= 65_536) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}

/**
 * Writes the pieces to `out` as it takes them: at most two pieces of about 64 kB wait beside the
 * one being written, so a slow client holds the generator (and the database reads) back instead of
 * the document piling up in memory.
 */
export function pipeXml(body: AsyncIterable<string>, out: NodeJS.WritableStream): Promise<void> {
  return pipeline(Readable.from(coalesce(body), { objectMode: true, highWaterMark: 2 }), out);
}

/**
 * Answers 200 with the XML the generator yields. `pipeline` writes a piece only when the response
 * (through compression) has room for it, and ends the generator when the client goes away.
 */
async function sendXml(req: Request, res: Response, body: AsyncIterable<string>): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'application/xml; charset=utf-8');
  res.setHeader('Cache-Control', 'public, max-age=3600');
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  try {
    await pipeXml(body, res);
  } catch (err) {
    // A client that leaves early is not an error; anything else has cut the XML short.
    if ((err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    res.locals.logger?.error({ err, url: req.originalUrl }, 'sitemap cut short');
  }
}

async function* urlset(origin: string, batches: AsyncIterable<SitemapEntry[]>): AsyncGenerator<string> {
  yield URLSET_OPEN;
  for await (const entries of batches) {
    for (const entry of entries) yield urlElement(origin, entry);
  }
  yield URLSET_CLOSE;
}

async function* once<T>(value: T): AsyncGenerator<T> {
  yield value;
}

const notFound = (res: Response) => res.status(404).type('text/plain').send('Not Found');

export function sitemapRouter(services: AppServices): Router {
  const { database, config } = services;
  const db = database.db;
  const router = express.Router();

  router.get('/sitemap.xml', async (req, res, next) => {
    try {
      const origin = siteOrigin(config, req);
      const [catalog, chunks, companies] = await Promise.all([catalogSitemap(db), adChunks(db), companyEntries(db)]);
      const pages = staticEntries(services.build.time, catalog.newestAd);
      const children: SitemapEntry[] = [
        { path: '/sitemaps/pages.xml', lastmod: newestOf(pages) },
        ...(catalog.entries.length ? [{ path: '/sitemaps/catalog.xml', lastmod: newestOf(catalog.entries) }] : []),
        ...(companies.length ? [{ path: '/sitemaps/companies.xml', lastmod: newestOf(companies) }] : []),
        ...chunks.map((c) => ({ path: `/sitemaps/ads-${c.n}.xml`, lastmod: c.lastmod })),
      ];
      await sendXml(
        req,
        res,
        (async function* () {
          yield `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n`;
          for (const c of children) {
            yield `<sitemap><loc>${escapeXml(origin + c.path)}</loc><lastmod>${w3cDatetime(c.lastmod)}</lastmod></sitemap>\n`;
          }
          yield '</sitemapindex>\n';
        })(),
      );
    } catch (err) {
      next(err);
    }
  });

  router.get('/sitemaps/pages.xml', async (req, res, next) => {
    try {
      const { newestAd } = await catalogSitemap(db);
      await sendXml(req, res, urlset(siteOrigin(config, req), once(staticEntries(services.build.time, newestAd))));
    } catch (err) {
      next(err);
    }
  });

  router.get('/sitemaps/catalog.xml', async (req, res, next) => {
    try {
      const { entries } = await catalogSitemap(db);
      if (entries.length === 0) return notFound(res);
      await sendXml(req, res, urlset(siteOrigin(config, req), once(entries)));
    } catch (err) {
      next(err);
    }
  });

  router.get('/sitemaps/companies.xml', async (req, res, next) => {
    try {
      const entries = await companyEntries(db);
      if (entries.length === 0) return notFound(res);
      await sendXml(req, res, urlset(siteOrigin(config, req), once(entries)));
    } catch (err) {
      next(err);
    }
  });

  router.get(/^\/sitemaps\/ads-([1-9]\d{0,8})\.xml$/, async (req, res, next) => {
    try {
      const n = Number((req.params as Record<string, string>)[0]);
      const batches = adEntries(db, n, { paths: await adPathPrefixes(db) });
      // The first batch is read before answering: a chunk without a published ad is not a sitemap
      // (a <urlset> needs at least one <url>) and is not listed in the index either.
      const first = await batches.next();
      if (first.done) return notFound(res);
      const rest = (async function* () {
        yield first.value;
        yield* batches;
      })();
      await sendXml(req, res, urlset(siteOrigin(config, req), rest));
    } catch (err) {
      next(err);
    }
  });

  return router;
}
