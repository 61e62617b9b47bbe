// Saved searches and email unsubscribe over the JSON API (docs/api.md, docs/product/alerts.md):
// routes of the API's table, so the XSRF check, the error format and the OpenAPI description apply.
// Transport only: the body is checked with the rules of app/lib/validation/saved-search.ts, then
// server/domain/search/saved.ts and server/domain/notification-mail/unsubscribe.ts do the work.
//   GET    /api/saved-searches            the member's saved searches with their new results
//   POST   /api/saved-searches            save a query of /posts        → 201 (200 when already saved)
//   PATCH  /api/saved-searches/:id        rename, change the alerts
//   DELETE /api/saved-searches/:id        → 204
//   POST   /api/saved-searches/:id/seen   its results are seen now (what opening it does) → 204
//   POST   /api/unsubscribe/:token        RFC 8058 one-click: stop one kind of email → 204
import { fromNodeHeaders } from 'better-auth/node';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Locale } from '../../app/i18n/config.ts';
import { i18nFor } from '../../app/i18n/resources.server.ts';
import type { TFunction } from '../../app/i18n/translator.ts';
import { parseSearchQuery } from '../../app/lib/search-query.ts';
import { translateError } from '../../app/lib/validation/error-words.ts';
import { ID_PARAMETER } from '../../app/lib/validation/id.ts';
import {
  ALERT_FREQUENCIES,
  alertFrequency,
  SAVED_SEARCH_NAME_MAX,
  savedSearchName,
} from '../../app/lib/validation/saved-search.ts';
import type { AppServices } from '../context.ts';
import { sessionUser } from '../domain/accounts.ts';
import { Invalid, NotFound } from '../domain/errors.ts';
import { readUnsubscribeToken, stopEmails } from '../domain/notification-mail/unsubscribe.ts';
import { followMovedCategory } from '../domain/search/moved-category.ts';
import {
  deleteSavedSearch,
  getSavedSearch,
  listSavedSearches,
  openSavedSearch,
  renameSavedSearch,
  SAVED_SEARCH_LIMIT,
  type SavedSearch as SavedSearchRow,
  savedSearchNameOf,
  savedSearchPath,
  saveSearch,
  setSavedSearchFrequency,
} from '../domain/search/saved.ts';
import { resolveQuery, searchEngine } from '../domain/search/service.ts';
import { type ApiRoute, apiRoute } from './api-route.ts';
import { type ApiError, listOf, one } from './api-schemas.ts';

const Frequency = z.enum(ALERT_FREQUENCIES).meta({
  description:
    'instant: told as soon as a matching ad is published; daily: one digest a day from 08:00 Libyan time; off: no alerts',
});

const SavedSearch = z
  .strictObject({
    id: z.int(),
    name: z.string(),
    query: z.string().meta({ description: 'Canonical URL parameters of /posts (and of GET /api/posts)' }),
    path: z.string().meta({ description: 'The listing of the search on the site, without the /en prefix' }),
    frequency: Frequency,
    last_seen_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'SavedSearch' });

const SavedSearchWithNews = SavedSearch.extend({
  new_results: z.int().meta({ description: 'Ads posted or reposted since the search was last seen that it lists now' }),
  new_results_exact: z.boolean().meta({ description: 'False when a very common word capped the count (more than)' }),
}).meta({ id: 'SavedSearchWithNews' });

const CreateSavedSearch = z
  .object({
    query: z.string().max(2000).meta({
      description:
        'URL parameters of /posts, e.g. `category=toyota&city=tripoli&price_max=50000`; unknown or malformed ones are dropped and the rest kept in canonical form',
    }),
    name: z.string().max(SAVED_SEARCH_NAME_MAX).optional().meta({ description: 'Default: what the query asks for' }),
    frequency: Frequency.optional().meta({ description: 'Default: daily' }),
  })
  .meta({ id: 'CreateSavedSearch', description: 'JSON or a url-encoded form' });

const UpdateSavedSearch = z
  .object({ name: z.string().max(SAVED_SEARCH_NAME_MAX).optional(), frequency: Frequency.optional() })
  .meta({ id: 'UpdateSavedSearch', description: 'At least one of name and frequency; JSON or a url-encoded form' });

const searchId = z.object({ id: ID_PARAMETER });
const unsubscribeToken = z.object({ token: z.string().min(1).max(600) });

const rowOf = <S extends SavedSearchRow>(s: S) => ({ ...s, path: savedSearchPath(s) });

/** 422 in the API's error format: each field's rule codes in the request's words. */
function refuse(res: Response, t: TFunction, errors: Record<string, string[]>): undefined {
  res.status(422).json({
    message: t('validation:invalid'),
    errors: Object.fromEntries(
      Object.entries(errors).map(([field, codes]) => [field, codes.map((c) => translateError(t, c, field))]),
    ),
  } satisfies ApiError);
}

/** The fields of a body through their form rules: values, or each refused field's codes. */
function readFields(
  body: Record<string, unknown>,
  fields: Record<string, z.ZodType>,
): { values: Record<string, unknown>; errors: Record<string, string[]> } {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const [name, schema] of Object.entries(fields)) {
    if (body[name] === undefined) continue;
    const parsed = schema.safeParse(body[name]);
    if (parsed.success) values[name] = parsed.data;
    else errors[name] = parsed.error.issues.map((i) => i.message);
  }
  return { values, errors };
}

const bodyOf = (req: Request): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};

export function savedSearchRoutes(services: AppServices, localeOf: (req: Request) => Locale): ApiRoute[] {
  const { db } = services.database;
  const member = async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    const user = await sessionUser(services.auth, db, fromNodeHeaders(req.headers));
    if (!user) {
      res.status(401).json({ message: i18nFor(localeOf(req)).t('errors:sign-in-required') } satisfies ApiError);
    }
    return user;
  };
  const signedInErrors = { 401: 'Not signed in' } as const;

  return [
    apiRoute({
      method: 'get',
      path: '/saved-searches',
      summary: "The member's saved searches, newest first, each with its new results since it was last seen",
      ok: { status: 200, description: 'Saved searches', schema: listOf(SavedSearchWithNews) },
      errors: signedInErrors,
      handler: async (req, res) => {
        const user = await member(req, res);
        if (!user) return;
        const list = await listSavedSearches(services.database, user.id);
        return { data: list.map(rowOf) };
      },
    }),
    apiRoute({
      method: 'post',
      path: '/saved-searches',
      summary: 'Save a query of /posts for the member (the same query twice is kept once)',
      description: `At most ${SAVED_SEARCH_LIMIT} per member. Answers 201 with the new search, or 200 with the one already saved for an equal query.`,
      body: { contentType: 'application/json', schema: CreateSavedSearch },
      ok: { status: 201, description: 'Saved', schema: one(SavedSearch) },
      errors: {
        ...signedInErrors,
        422: `Bad name, frequency or query, or ${SAVED_SEARCH_LIMIT} saved searches already`,
      },
      handler: async (req, res) => {
        const user = await member(req, res);
        if (!user) return;
        const t = i18nFor(localeOf(req)).t;
        const body = bodyOf(req);
        const { values, errors } = readFields(body, { name: savedSearchName(), frequency: alertFrequency() });
        const query = body.query;
        if (typeof query !== 'string' || query.length > 2000) errors.query = ['in'];
        if (Object.keys(errors).length > 0) return refuse(res, t, errors);
        const catalogue = await searchEngine(services.database).catalogue();
        // A category named by an old slug is saved with its slug now (server/domain/search/moved-category.ts).
        const parsed = await followMovedCategory(db, catalogue, parseSearchQuery(new URLSearchParams(query as string)));
        const resolved = resolveQuery(catalogue, parsed);
        const name =
          (values.name as string | undefined) ??
          savedSearchNameOf(catalogue, resolved.query, localeOf(req), t('search:title-all'));
        try {
          const saved = await saveSearch(db, user.id, resolved, name, values.frequency as never);
          const body = { data: rowOf(await getSavedSearch(db, user.id, saved.id)) };
          // An equal query already saved: 200 with it.
          if (!saved.created) return void res.status(200).json(body);
          return body;
        } catch (error) {
          if (error instanceof Invalid) return refuse(res, t, error.errors);
          throw error;
        }
      },
    }),
    apiRoute({
      method: 'patch',
      path: '/saved-searches/:id',
      summary: "Rename one of the member's saved searches, or change how often it alerts",
      params: searchId,
      body: { contentType: 'application/json', schema: UpdateSavedSearch },
      ok: { status: 200, description: 'Changed', schema: one(SavedSearch) },
      errors: {
        ...signedInErrors,
        404: "Unknown id, or someone else's search",
        422: 'Bad or missing name and frequency',
      },
      handler: async (req, res, { id }) => {
        const user = await member(req, res);
        if (!user) return;
        const t = i18nFor(localeOf(req)).t;
        const { values, errors } = readFields(bodyOf(req), { name: savedSearchName(), frequency: alertFrequency() });
        if (Object.keys(errors).length > 0) return refuse(res, t, errors);
        if (values.name === undefined && values.frequency === undefined) return refuse(res, t, { form: ['required'] });
        await getSavedSearch(db, user.id, id);
        if (values.name !== undefined) await renameSavedSearch(db, user.id, id, values.name as string);
        if (values.frequency !== undefined) await setSavedSearchFrequency(db, user.id, id, values.frequency as never);
        return { data: rowOf(await getSavedSearch(db, user.id, id)) };
      },
    }),
    apiRoute({
      method: 'delete',
      path: '/saved-searches/:id',
      summary: "Delete one of the member's saved searches",
      params: searchId,
      ok: { status: 204, description: 'Deleted' },
      errors: { ...signedInErrors, 404: "Unknown id, or someone else's search" },
      handler: async (req, res, { id }) => {
        const user = await member(req, res);
        if (!user) return;
        await deleteSavedSearch(db, user.id, id);
        return undefined;
      },
    }),
    apiRoute({
      method: 'post',
      path: '/saved-searches/:id/seen',
      summary: 'Mark the results of a saved search seen now (what opening it on the site does)',
      params: searchId,
      ok: { status: 204, description: 'Seen' },
      errors: { ...signedInErrors, 404: "Unknown id, or someone else's search" },
      handler: async (req, res, { id }) => {
        const user = await member(req, res);
        if (!user) return;
        await openSavedSearch(db, user.id, id);
        return undefined;
      },
    }),
    apiRoute({
      method: 'post',
      path: '/unsubscribe/:token',
      summary: 'One-click unsubscribe (RFC 8058): stop one kind of notification email',
      description:
        "The address of every notification email's List-Unsubscribe header, posted by mail programs with `List-Unsubscribe=One-Click` (List-Unsubscribe-Post). The signed token in the path is the whole authorisation: no session, no X-XSRF-TOKEN. It stops the member's emails of that notification type, as their settings would. Tokens work for 90 days.",
      params: unsubscribeToken,
      xsrf: false,
      ok: { status: 204, description: 'Stopped (or already stopped)' },
      errors: { 404: 'Not a token of this site, or the member is gone', 410: 'The token has expired' },
      handler: async (req, res, { token }) => {
        res.setHeader('Cache-Control', 'no-store');
        const t = i18nFor(localeOf(req)).t;
        const found = readUnsubscribeToken(services.config.authSecret, token);
        if (found === null) throw new NotFound('errors.not-found');
        if (found === 'expired') {
          return void res.status(410).json({ message: t('errors:link-expired') } satisfies ApiError);
        }
        if (!(await stopEmails(db, found))) throw new NotFound('errors.not-found');
        return undefined;
      },
    }),
  ];
}
