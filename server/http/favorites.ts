// A member's favorites over the JSON API (docs/api.md, docs/product/favorites.md): routes of the
// API's table (server/http/api.ts), so the XSRF check on writes (419), the error format and the
// OpenAPI description apply. Transport only: server/domain/favorites.ts decides.
//   GET    /api/favorites[?before=<id>]  → {data: [Favorite], meta: {next}}
//   POST   /api/favorites {ad_id}        → 200 {data: {ad_id, favorited: true, added}}
//   DELETE /api/favorites/:id (an ad id) → 204
import { fromNodeHeaders } from 'better-auth/node';
import type { Response as ExpressResponse, Request } from 'express';
import { z } from 'zod';
import type { Locale } from '../../app/i18n/config.ts';
import { i18nFor } from '../../app/i18n/resources.server.ts';
import { parseId } from '../../app/lib/ids.ts';
import { ID_PARAMETER } from '../../app/lib/validation/id.ts';
import type { AppServices } from '../context.ts';
import { sessionUser } from '../domain/accounts.ts';
import { Invalid, NotFound } from '../domain/errors.ts';
import { addFavorite, FAVORITES_PAGE_SIZE, listFavorites, removeFavorite } from '../domain/favorites.ts';
import { type ApiRoute, apiRoute } from './api-route.ts';
import { type ApiError, ImageUrls } from './api-schemas.ts';
import { discardRest } from './body.ts';

const named = { name_ar: z.string(), name_en: z.string() };
const int = () => z.number().int();

const Price = z.strictObject({
  price: z.number().nullable().meta({ description: 'Whole currency units; null for free, on request, exchange' }),
  currency: z.string(),
  price_type: z.string(),
});

const Favorite = z
  .strictObject({
    id: int().meta({ description: 'The favorite’s id (the list’s `before`)' }),
    saved_at: z.string().meta({ format: 'date-time' }),
    ad: z.strictObject({
      id: int(),
      slug: z.string(),
      title: z.string(),
      status: z.string().meta({ description: 'published, sold, expired, deleted, or another status nobody may see' }),
      price: z.number().nullable(),
      currency: z.string(),
      price_type: z.string(),
      taxonomy_slug: z.string(),
      category_slug: z.string(),
      city: z.strictObject(named),
      area: z.strictObject(named).nullable(),
      photo: ImageUrls.nullable(),
    }),
    saved: Price.meta({ description: 'The price when the member saved it' }),
    price_changed: z.boolean(),
    price_direction: z.enum(['down', 'up']).nullable().meta({ description: 'In the same currency; else null' }),
    public: z.boolean().meta({ description: 'Anyone may open its page (published, sold, expired)' }),
  })
  .meta({ id: 'Favorite' });

const FavoriteList = z.strictObject({
  data: z.array(Favorite),
  meta: z.strictObject({
    next: int().nullable().meta({ description: 'The `before` of the next (older) page; null on the last' }),
    per_page: int(),
  }),
});

const FavoriteRequest = z
  .object({ ad_id: z.union([int(), z.string()]).meta({ description: 'The ad to save (a number, or its digits)' }) })
  .meta({ id: 'FavoriteRequest', description: 'JSON or a url-encoded form' });

const FavoriteState = z.strictObject({
  data: z.strictObject({
    ad_id: int(),
    favorited: z.literal(true),
    added: z.boolean().meta({ description: 'False when it was already saved (nothing changed)' }),
  }),
});

export function favoriteRoutes(services: AppServices, localeOf: (req: Request) => Locale): ApiRoute[] {
  const { db } = services.database;
  const member = (req: Request) => sessionUser(services.auth, db, fromNodeHeaders(req.headers));
  const signInRequired = (req: Request, res: ExpressResponse) =>
    void res.status(401).json({ message: i18nFor(localeOf(req)).t('errors:sign-in-required') } satisfies ApiError);

  return [
    apiRoute({
      method: 'get',
      path: '/favorites',
      summary: "The signed-in member's saved ads, the most recently saved first, 20 a page",
      description:
        'Each with the price when it was saved and what changed since (price_changed, price_direction), and its status (sold, expired, deleted…). Older pages by keyset: `before` = the previous page’s `meta.next`.',
      query: { before: ID_PARAMETER.optional() },
      ok: { status: 200, description: 'One page of favorites', schema: FavoriteList },
      errors: { 401: 'Not signed in', 404: '`before` is not an id' },
      handler: async (req, res) => {
        res.setHeader('Cache-Control', 'no-store');
        const user = await member(req);
        if (!user) return signInRequired(req, res);
        const param = new URL(req.originalUrl, 'http://x').searchParams.get('before');
        const before = param === null ? null : parseId(param);
        if (param !== null && before === null) throw new NotFound('errors.not-found');
        const page = await listFavorites(db, user.id, { before });
        return { data: page.items, meta: { next: page.next, per_page: FAVORITES_PAGE_SIZE } };
      },
    }),
    apiRoute({
      method: 'post',
      path: '/favorites',
      summary: 'Save a published ad to the signed-in member’s favorites (saving it again changes nothing)',
      body: { contentType: 'application/json', schema: FavoriteRequest },
      ok: { status: 200, description: 'Saved', schema: FavoriteState },
      errors: {
        401: 'Not signed in',
        404: 'No ad anyone may see with this id',
        415: 'A body that is neither JSON nor a url-encoded form',
        419: 'Anti-forgery token missing or wrong',
        422: 'ad_id missing or not an id; or the ad is sold or expired (errors.ad)',
      },
      handler: async (req, res) => {
        res.setHeader('Cache-Control', 'no-store');
        // The API's parsers read JSON and forms; a multipart body is left unread.
        if (req.is('multipart/form-data')) {
          discardRest(req, res);
          const t = i18nFor(localeOf(req)).t;
          return void res.status(415).json({ message: t('errors:unsupported-media-type') } satisfies ApiError);
        }
        const user = await member(req);
        if (!user) return signInRequired(req, res);
        const body: Record<string, unknown> =
          req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
        const raw = body.ad_id;
        if (raw === undefined || raw === null || raw === '') throw new Invalid({ ad_id: ['validation.required'] });
        const adId = parseId(typeof raw === 'number' && Number.isInteger(raw) ? String(raw) : raw);
        if (adId === null) throw new Invalid({ ad_id: ['validation.in'] });
        const added = await addFavorite(db, user.id, adId);
        return { data: { ad_id: adId, favorited: true as const, added } };
      },
    }),
    apiRoute({
      method: 'delete',
      path: '/favorites/:id',
      summary: 'Remove an ad from the signed-in member’s favorites (whatever its status; not saved: no change)',
      params: z.object({ id: ID_PARAMETER.meta({ description: 'The ad’s id' }) }),
      ok: { status: 204, description: 'Not (or no longer) saved' },
      errors: { 401: 'Not signed in', 404: 'Not an id', 419: 'Anti-forgery token missing or wrong' },
      handler: async (req, res, { id }) => {
        res.setHeader('Cache-Control', 'no-store');
        const user = await member(req);
        if (!user) return signInRequired(req, res);
        await removeFavorite(db, user.id, id);
        return undefined;
      },
    }),
  ];
}
