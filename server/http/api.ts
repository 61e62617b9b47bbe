// The JSON API under /api (docs/api.md). Transport only: parse, call the domain, map the result.

import { fromNodeHeaders } from 'better-auth/node';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { isLocale, type Locale, localeFromAcceptLanguage } from '../../app/i18n/config.ts';
import { i18nFor } from '../../app/i18n/resources.server.ts';
import type { AppServices } from '../context.ts';
import { sessionUser } from '../domain/accounts.ts';
import { publishedCard } from '../domain/ad-view.ts';
import * as catalog from '../domain/catalog.ts';
import { DomainError, Invalid, NotFound, TooManyRequests } from '../domain/errors.ts';
import { parseViewport, searchMap } from '../domain/search/map.ts';
import { resolveQuery, searchEngine } from '../domain/search/service.ts';
import { adImagesRouter } from './ad-images.ts';
import { API_BODY_LIMIT, apiBodies, discardRest } from './body.ts';
import { openApiDocument } from './openapi.ts';
import { apiXsrfMismatch, newXsrfToken, XSRF_COOKIE } from './security.ts';

/** The API's locale: the X-Locale header (what the web client sends), else Accept-Language. */
export function apiLocale(req: Request): Locale {
  const header = req.get('x-locale')?.trim().toLowerCase().slice(0, 2);
  return isLocale(header) ? header : localeFromAcceptLanguage(req.get('accept-language'));
}

import { parseId } from '../../app/lib/ids.ts';
import { SLUG_PATTERN as slugPattern } from '../../app/lib/slug.ts';

/** `PUT`, `PATCH` or `DELETE` may arrive as `POST` with `_method` in form data (docs/api.md). */
export function methodOverride(req: Request, _res: Response, next: NextFunction) {
  const override = req.method === 'POST' && req.body && typeof req.body === 'object' ? req.body._method : undefined;
  if (typeof override === 'string' && ['PUT', 'PATCH', 'DELETE'].includes(override.toUpperCase())) {
    req.method = override.toUpperCase();
    delete req.body._method;
  }
  next();
}

import { parsePage, parseSearchQuery, RESULTS_PAGE_SIZE, searchParamsOf } from '../../app/lib/search-query.ts';
import { cardsByIds } from '../domain/ad-view.ts';
import { search } from '../domain/search/service.ts';

export function apiRouter(services: AppServices): Router {
  const router = Router();
  const { db } = services.database;

  router.use(apiBodies({ limit: API_BODY_LIMIT, multipart: true }));
  router.use(methodOverride);
  router.use((req, res, next) => {
    res.setHeader('Vary', 'Accept-Language, X-Locale');
    if (apiXsrfMismatch(req)) {
      const t = i18nFor(apiLocale(req)).t;
      return void res.status(419).json({ message: t('errors:csrf-mismatch') });
    }
    next();
  });

  router.get('/csrf-cookie', (req, res) => {
    res.cookie(XSRF_COOKIE, newXsrfToken(), { sameSite: 'lax', secure: req.secure, path: '/', httpOnly: false });
    res.setHeader('Cache-Control', 'no-store');
    res.status(204).end();
  });

  // Who is signed in: the client asks once per app load (docs/api.md).
  router.get('/is-logged-in', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const user = await sessionUser(services.auth, db, fromNodeHeaders(req.headers));
    res.json({ logged_in: user !== null, user });
  });

  router.get('/taxonomies', async (_req, res) => {
    res.json({ data: await catalog.listTaxonomies(db) });
  });

  router.get('/cities', async (_req, res) => {
    res.json({ data: await catalog.listCities(db) });
  });

  // The map of search results (/posts/map): the query of /posts plus the viewport, as clusters and
  // markers. The same for everyone (published ads only), so browsers and shared caches may keep it
  // briefly while the map is panned back and forth.
  router.get('/posts/map', async (req, res) => {
    const params = new URL(req.originalUrl, 'http://x').searchParams;
    const engine = searchEngine(services.database);
    const resolved = resolveQuery(await engine.catalogue(), parseSearchQuery(params));
    const map = await searchMap(services.database, resolved, parseViewport(params));
    res.setHeader('Cache-Control', 'public, max-age=30');
    res.json(map);
  });

  // One published ad's card (the map's marker preview).
  router.get('/posts/:id/card', async (req, res) => {
    const id = parseId(req.params.id);
    const card = id === null ? null : await publishedCard(db, id);
    if (!card) throw new NotFound('errors.not-found');
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.json({ data: card });
  });

  router.param('slug', (_req, _res, next, value) => {
    if (typeof value !== 'string' || !slugPattern.test(value)) return next(new NotFound('errors.not-found'));
    next();
  });

  router.get('/taxonomies/:slug/categories', async (req, res) => {
    const taxonomy = await catalog.getTaxonomy(db, req.params.slug as string);
    res.json({ data: await catalog.listChildren(db, taxonomy.id, null) });
  });

  router.get('/taxonomies/:slug/attributes', async (req, res) => {
    res.json({ data: await catalog.listTaxonomyAttributes(db, req.params.slug as string) });
  });

  router.get('/categories/:slug/children', async (req, res) => {
    const category = await catalog.getCategory(db, req.params.slug as string);
    res.json({ data: await catalog.listChildren(db, category.taxonomy_id, category.id) });
  });

  router.get('/categories/:slug/attributes', async (req, res) => {
    res.json({ data: await catalog.listCategoryAttributes(db, req.params.slug as string) });
  });

  // Search (docs/product/search.md): the parameters of /posts; invalid ones are dropped, never an error.
  router.get('/posts', async (req, res) => {
    const url = new URL(req.originalUrl, 'http://x');
    const page = parsePage(url.searchParams);
    if (page === null) throw new NotFound('errors.not-found');
    const found = await search(services.database, parseSearchQuery(url.searchParams), { page });
    if (page > found.pages) throw new NotFound('errors.not-found');
    const ads = await cardsByIds(db, found.ids);
    res.setHeader('Cache-Control', 'public, max-age=30');
    res.json({
      data: ads,
      meta: {
        query: found.resolved.query,
        canonical: searchParamsOf(found.resolved.query).toString(),
        page,
        pages: found.pages,
        per_page: RESULTS_PAGE_SIZE,
        total: found.total,
        total_exact: found.exact,
        facets: found.facets,
      },
    });
  });

  router.use('/ad-images', adImagesRouter(services, apiLocale));

  router.get('/openapi.json', (req, res) => {
    res.json(openApiDocument(services.config.appUrl ?? `${req.protocol}://${req.get('host')}`));
  });

  router.use((_req, _res, next) => next(new NotFound('errors.not-found')));
  router.use(apiErrorHandler(services));
  return router;
}

/** Maps errors to the API error format `{message, errors?}` in the request's language. */
export function apiErrorHandler(services: AppServices) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const t = i18nFor(apiLocale(req)).t;
    if (err instanceof DomainError) {
      if (err instanceof TooManyRequests) res.setHeader('Retry-After', String(err.retryAfter));
      const body: { message: string; errors?: Record<string, string[]> } = {
        message: t(err.message.includes('.') ? err.message.replace('.', ':') : `errors:${err.message}`),
      };
      if (err instanceof Invalid) {
        body.errors = Object.fromEntries(
          Object.entries(err.errors).map(([field, keys]) => [
            field,
            keys.map((k) => t(k.replace('.', ':'), { field: t(`validation:fields.${field}`) })),
          ]),
        );
      }
      return void res.status(err.status).json(body);
    }
    // The body parsers' refusals (server/http/body.ts): the rest of the body is not kept.
    const status = (err as { status?: number; statusCode?: number })?.status ?? 500;
    if (status === 413 || status === 415) {
      discardRest(req, res);
      const message = t(status === 413 ? 'errors:request-too-large-description' : 'errors:unsupported-media-type');
      return void res.status(status).json({ message });
    }
    if (status === 400) return void res.status(400).json({ message: t('errors:bad-request') });
    services.logger.error({ err, url: req.originalUrl }, 'API error');
    res.status(500).json({ message: t('errors:internal') });
  };
}
