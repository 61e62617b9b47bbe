// The JSON API under /api (docs/api.md). Transport only: parse, call the domain, map the result. The
// routes are a table (apiRoutes) that the router is built from and /api/openapi.json is generated from.

import { fromNodeHeaders } from 'better-auth/node';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { isLocale, type Locale, localeFromAcceptLanguage } from '../../app/i18n/config.ts';
import { i18nFor } from '../../app/i18n/resources.server.ts';
import {
  ATTRIBUTE_PARAMETERS,
  PAGE_PARAMETER,
  parsePage,
  parseSearchQuery,
  QUERY_MAX_LENGTH,
  type QueryParameter,
  RESULTS_PAGE_SIZE,
  SEARCH_PARAMETERS,
  searchParamsOf,
} from '../../app/lib/search-query.ts';
import { translateError } from '../../app/lib/validation/error-words.ts';
import { ID_PARAMETER } from '../../app/lib/validation/id.ts';
import type { AppServices } from '../context.ts';
import { sessionUser } from '../domain/accounts.ts';
import { cardsByIds, publishedCard } from '../domain/ads/cards.ts';
import * as catalog from '../domain/catalog.ts';
import { DomainError, Invalid, NotFound, TooManyRequests } from '../domain/errors.ts';
import { parseViewport, searchMap, VIEWPORT_PARAMETERS } from '../domain/search/map.ts';
import { followMovedCategory } from '../domain/search/moved-category.ts';
import { resolveQuery, search, searchEngine } from '../domain/search/service.ts';
import { suggest } from '../domain/search/suggest.ts';
import { adImageRoutes } from './ad-images.ts';
import { type ApiRoute, apiRoute, mountApiRoutes } from './api-route.ts';
import {
  AdCard,
  AdMap,
  type ApiError,
  Attribute,
  Category,
  City,
  listOf,
  one,
  SearchResults,
  SessionState,
  SUGGEST_PARAMETERS,
  Suggestion,
  slugPath,
  TaxonomyWithCategories,
} from './api-schemas.ts';
import { exposedAuthOperations } from './auth-endpoints.ts';
import { bannerRoutes } from './banners.ts';
import { API_BODY_LIMIT, apiBodies, discardRest } from './body.ts';
import { broadcastingRoutes } from './broadcasting.ts';
import { chatRoutes } from './chats.ts';
import { favoriteRoutes } from './favorites.ts';
import { openApiDocument } from './openapi.ts';
import { savedSearchRoutes } from './saved-searches.ts';
import { apiXsrfMismatch, newXsrfToken, XSRF_COOKIE } from './security.ts';

/** The API's locale: the X-Locale header (what the web client sends), else Accept-Language. */
export function apiLocale(req: Request): Locale {
  const header = req.get('x-locale')?.trim().toLowerCase().slice(0, 2);
  return isLocale(header) ? header : localeFromAcceptLanguage(req.get('accept-language'));
}

/** `PUT`, `PATCH` or `DELETE` may arrive as `POST` with `_method` in form data (docs/api.md). */
export function methodOverride(req: Request, _res: Response, next: NextFunction) {
  const override = req.method === 'POST' && req.body && typeof req.body === 'object' ? req.body._method : undefined;
  if (typeof override === 'string' && ['PUT', 'PATCH', 'DELETE'].includes(override.toUpperCase())) {
    req.method = override.toUpperCase();
    delete req.body._method;
  }
  next();
}

const taxonomySlug = z.object({ slug: slugPath('Taxonomy slug') });
const categorySlug = z.object({ slug: slugPath('Category slug (unique across taxonomies)') });
const adId = z.object({ id: ID_PARAMETER });
const SEARCH_DESCRIPTION =
  'Every parameter is optional; a malformed or unknown one is dropped (see meta.query for what was applied, meta.canonical for its canonical form). When a text matches more than 10 000 ads, the newest 10 000 are searched and total_exact is false.';

/** The operations served under /api, in the order the router tries them. */
export function apiRoutes(services: AppServices): ApiRoute[] {
  const { db } = services.database;
  const routes: ApiRoute[] = [
    apiRoute({
      method: 'get',
      path: '/csrf-cookie',
      summary: 'Set the anti-forgery cookie XSRF-TOKEN',
      ok: {
        status: 204,
        description: 'Cookie set',
        headers: { 'Set-Cookie': { description: 'XSRF-TOKEN=…; readable by scripts', schema: z.string() } },
      },
      handler: (req, res) => {
        res.cookie(XSRF_COOKIE, newXsrfToken(), { sameSite: 'lax', secure: req.secure, path: '/', httpOnly: false });
        res.setHeader('Cache-Control', 'no-store');
        return undefined;
      },
    }),
    // Who is signed in: the client asks once per app load.
    apiRoute({
      method: 'get',
      path: '/is-logged-in',
      summary: 'Whether the session cookie belongs to a signed-in member, and who',
      ok: { status: 200, description: 'Session state', schema: SessionState },
      handler: async (req, res) => {
        res.setHeader('Cache-Control', 'no-store');
        const user = await sessionUser(services.auth, db, fromNodeHeaders(req.headers));
        return { logged_in: user !== null, user };
      },
    }),
    apiRoute({
      method: 'get',
      path: '/taxonomies',
      summary: 'Active taxonomies in display order, with their counts and top-level categories',
      ok: { status: 200, description: 'Taxonomies', schema: listOf(TaxonomyWithCategories) },
      handler: async () => ({ data: await catalog.listTaxonomiesWithCategories(db) }),
    }),
    apiRoute({
      method: 'get',
      path: '/cities',
      summary: 'Cities in display order with their areas',
      ok: { status: 200, description: 'Cities', schema: listOf(City) },
      handler: async () => ({ data: await catalog.listCities(db) }),
    }),
    // The map of search results (/posts/map): the query of /posts plus the viewport, as clusters and
    // markers. The same for everyone (published ads only), so browsers and shared caches may keep it
    // briefly while the map is panned back and forth.
    apiRoute({
      method: 'get',
      path: '/posts/map',
      summary: 'The ads of a search in a map viewport, clustered on the server',
      description: `${SEARCH_DESCRIPTION} Ads are grouped in a grid of about 60-pixel cells in Web-Mercator at the zoom; a cell of one ad is a marker, and from zoom 16 a cell of at most 10 ads comes as their markers. At most 400 clusters and markers together. Positions are approximate (never the owner’s pin). Cacheable for 30 seconds.`,
      query: { ...VIEWPORT_PARAMETERS, ...mapQueryParameters() },
      ok: { status: 200, description: 'Clusters and markers', schema: AdMap },
      handler: async (req, res) => {
        const params = new URL(req.originalUrl, 'http://x').searchParams;
        const catalogue = await searchEngine(services.database).catalogue();
        // A category named by an old slug answers for the category as it is now.
        const query = await followMovedCategory(db, catalogue, parseSearchQuery(params));
        const resolved = resolveQuery(catalogue, query);
        const map = await searchMap(services.database, resolved, parseViewport(params));
        res.setHeader('Cache-Control', 'public, max-age=30');
        return map;
      },
    }),
    // One published ad's card (the map's marker preview).
    apiRoute({
      method: 'get',
      path: '/posts/:id/card',
      summary: 'The card of one published ad (photo, price, title, place), as lists and the map preview show it',
      params: adId,
      ok: { status: 200, description: 'The card', schema: one(AdCard) },
      errors: { 404: 'No published ad with this id' },
      handler: async (_req, res, { id }) => {
        const card = await publishedCard(db, id);
        if (!card) throw new NotFound('errors.not-found');
        res.setHeader('Cache-Control', 'public, max-age=60');
        return { data: card };
      },
    }),
    apiRoute({
      method: 'get',
      path: '/taxonomies/:slug/categories',
      summary: 'Active top-level categories of a taxonomy, in display order',
      params: taxonomySlug,
      ok: { status: 200, description: 'Categories', schema: listOf(Category) },
      errors: { 404: 'Unknown taxonomy' },
      handler: async (_req, _res, { slug }) => {
        const taxonomy = await catalog.getTaxonomy(db, slug);
        return { data: await catalog.listChildren(db, taxonomy.id, null) };
      },
    }),
    apiRoute({
      method: 'get',
      path: '/taxonomies/:slug/attributes',
      summary: 'Attributes defined on a taxonomy (carried by every ad in it)',
      params: taxonomySlug,
      ok: { status: 200, description: 'Attributes', schema: listOf(Attribute) },
      errors: { 404: 'Unknown taxonomy' },
      handler: async (_req, _res, { slug }) => ({ data: await catalog.listTaxonomyAttributes(db, slug) }),
    }),
    apiRoute({
      method: 'get',
      path: '/categories/:slug/children',
      summary: 'Active child categories of a category, in display order',
      params: categorySlug,
      ok: { status: 200, description: 'Child categories', schema: listOf(Category) },
      errors: { 404: 'Unknown category' },
      handler: async (_req, _res, { slug }) => {
        const category = await catalog.getCategory(db, slug);
        return { data: await catalog.listChildren(db, category.taxonomy_id, category.id) };
      },
    }),
    apiRoute({
      method: 'get',
      path: '/categories/:slug/attributes',
      summary: 'Every attribute an ad in the category carries: taxonomy, ancestors, own; in position order',
      params: categorySlug,
      ok: { status: 200, description: 'Attributes', schema: listOf(Attribute) },
      errors: { 404: 'Unknown category' },
      handler: async (_req, _res, { slug }) => ({ data: await catalog.listCategoryAttributes(db, slug) }),
    }),
    // Search: the parameters of /posts; invalid ones are dropped, never an error.
    apiRoute({
      method: 'get',
      path: '/posts',
      summary: 'Search published ads: the parameters of the /posts page',
      description: `${SEARCH_DESCRIPTION} Facets: categories one level below the query (taxonomies without one), cities (ignoring the city filter) and areas of the chosen city.`,
      query: schemasOf({ ...SEARCH_PARAMETERS, ...ATTRIBUTE_PARAMETERS, page: PAGE_PARAMETER }),
      ok: { status: 200, description: 'One page of ad cards, with the count and facets', schema: SearchResults },
      errors: { 404: 'A page past the last (or past page 50), or not a page number' },
      handler: async (req, res) => {
        const url = new URL(req.originalUrl, 'http://x');
        const page = parsePage(url.searchParams);
        if (page === null) throw new NotFound('errors.not-found');
        // A category named by an old slug (renamed or moved) answers for the category as it is now;
        // `meta.query` and `meta.canonical` name its slug now (server/domain/search/moved-category.ts).
        const catalogue = await searchEngine(services.database).catalogue();
        const query = await followMovedCategory(db, catalogue, parseSearchQuery(url.searchParams));
        const found = await search(services.database, query, { page });
        if (page > found.pages) throw new NotFound('errors.not-found');
        const ads = await cardsByIds(db, found.ids);
        res.setHeader('Cache-Control', 'public, max-age=30');
        return {
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
            named_categories: found.namedCategories,
          },
        };
      },
    }),
    // Suggestions while a search box is typed in: from memory only (the catalogue snapshot, the ad
    // index's counts, the counted title words), the same for everyone.
    apiRoute({
      method: 'get',
      path: '/search/suggest',
      summary: 'Up to 8 suggestions for a search being typed: categories, then completions of its last word',
      description:
        'Categories whose names the last word starts (with their published ads when the text says nothing else), then completions from the names of categories, the labels of attribute options and the frequent words of published ad titles (used by at least 3 ads; never what people typed). Arabic is read as search reads it (آيفون, أيفون and ايفون are one word). Text without letters or digits answers an empty list; more than 100 characters answers 422. Cacheable for 60 seconds.',
      query: SUGGEST_PARAMETERS,
      ok: { status: 200, description: 'Suggestions, best first', schema: listOf(Suggestion) },
      errors: { 422: 'The text is longer than 100 characters' },
      handler: async (req, res) => {
        const url = new URL(req.originalUrl, 'http://x');
        const q = url.searchParams.get('q') ?? '';
        if (q.length > QUERY_MAX_LENGTH) throw new Invalid({ q: ['validation.search-too-long'] });
        const asked = url.searchParams.get('locale');
        const locale = isLocale(asked) ? asked : apiLocale(req);
        res.setHeader('Cache-Control', 'public, max-age=60');
        return { data: await suggest(services.database, q, locale) };
      },
    }),
    ...adImageRoutes(services, apiLocale),
    ...savedSearchRoutes(services, apiLocale),
    ...broadcastingRoutes(services, apiLocale),
    ...chatRoutes(services, apiLocale),
    ...favoriteRoutes(services, apiLocale),
    ...bannerRoutes(services),
  ];
  let document: ReturnType<typeof openApiDocument> | undefined;
  routes.push(
    apiRoute({
      method: 'get',
      path: '/openapi.json',
      summary: 'This document',
      ok: { status: 200, description: 'OpenAPI 3.1', schema: z.looseObject({ openapi: z.literal('3.1.0') }) },
      handler: (req) => {
        document ??= openApiDocument([...routes, ...exposedAuthOperations(services.config)]);
        const origin = services.config.appUrl ?? `${req.protocol}://${req.get('host')}`;
        return { ...document, servers: [{ url: `${origin}/api` }] };
      },
    }),
  );
  return routes;
}

/** The query parameters of the map: those of the search but its order and page. */
function mapQueryParameters() {
  const { sort: _sort, ...rest } = SEARCH_PARAMETERS;
  return schemasOf({ ...rest, ...ATTRIBUTE_PARAMETERS });
}

/** The schemas the document describes the search's parameters with (their readers parse them). */
function schemasOf(parameters: Record<string, QueryParameter<unknown>>): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(parameters).map(([name, p]) => [name, p.schema(z)]));
}

export function apiRouter(services: AppServices): Router {
  const router = Router();

  router.use(apiBodies({ limit: API_BODY_LIMIT, multipart: true }));
  router.use(methodOverride);
  const routes = apiRoutes(services);
  router.use((_req, res, next) => {
    res.setHeader('Vary', 'Accept-Language, X-Locale');
    next();
  });
  // Writes authorised by a token of their own (no session cookie to forge with) come before the check.
  mountApiRoutes(
    router,
    routes.filter((r) => r.xsrf === false),
  );
  router.use((req, res, next) => {
    if (apiXsrfMismatch(req)) {
      const t = i18nFor(apiLocale(req)).t;
      return void res.status(419).json({ message: t('errors:csrf-mismatch') } satisfies ApiError);
    }
    next();
  });

  mountApiRoutes(
    router,
    routes.filter((r) => r.xsrf !== false),
  );

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
      const body: ApiError = {
        message: t(err.message.includes('.') ? err.message.replace('.', ':') : `errors:${err.message}`),
      };
      if (err instanceof Invalid) {
        body.errors = Object.fromEntries(
          Object.entries(err.errors).map(([field, keys]) => [
            field,
            // A message key (`validation.required`), or a rule's code (`max:2000`) as forms have them.
            keys.map((k) =>
              k.includes('.')
                ? t(k.replace('.', ':'), { field: t(`validation:fields.${field}`) })
                : translateError(t, k, field),
            ),
          ]),
        );
      }
      return void res.status(err.status).json(body);
    }
    // The body parsers' refusals (server/http/body.ts): the rest of the body is not kept.
    const status = (err as { status?: number; statusCode?: number })?.status ?? 500;
    if (status === 413 || status === 415) {
      discardRest(req, res);
      const message = t(
        status === 413 ? 'common:error-page.request-too-large-description' : 'errors:unsupported-media-type',
      );
      return void res.status(status).json({ message } satisfies ApiError);
    }
    if (status === 400) return void res.status(400).json({ message: t('errors:bad-request') });
    services.logger.error({ err, url: req.originalUrl }, 'API error');
    res.status(500).json({ message: t('errors:internal') });
  };
}
