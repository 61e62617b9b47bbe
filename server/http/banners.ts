// What banners did (docs/product/back-office.md, "Banners"):
//   POST /api/banners/impressions {ids: [1, 2]} (or the form `ids=1,2`) → 204: the banners a page
//     showed and a visitor saw, reported by the browser (navigator.sendBeacon, which sends no custom header, hence no XSRF
//     check: it reads no session and changes nothing but counters). Rate-limited per address.
//   GET /b/{id} and /en/b/{id} → 302 to that banner's own stored link (never anything from the
//     request), counting a click; an English page's site links stay in English.
// Counted in the browser, not when a page is rendered: pages come from the page cache (ADR 0007).
import { type Request, Router } from 'express';
import { isbot } from 'isbot';
import { z } from 'zod';
import { localizePath } from '../../app/i18n/config.ts';
import { IMPRESSIONS_MAX_IDS } from '../../app/lib/banner-impressions.ts';
import { parseId } from '../../app/lib/ids.ts';
import type { AppServices } from '../context.ts';
import { countImpressions, followBanner } from '../domain/banners/public.ts';
import { Invalid, TooManyRequests } from '../domain/errors.ts';
import { hitRateLimit } from '../domain/rate-limit.ts';
import { type ApiRoute, apiRoute } from './api-route.ts';

/** A page reports once or twice (its banners as they come into view): a minute's browsing, generously. */
export const IMPRESSIONS_LIMIT = { name: 'banner-impressions', limit: 60, windowSeconds: 60 } as const;
/** Clicks counted per address and minute; past it the visitor is still sent on, uncounted. */
export const CLICKS_LIMIT = { name: 'banner-clicks', limit: 20, windowSeconds: 60 } as const;

const ImpressionsRequest = z
  .strictObject({
    ids: z
      .array(z.number().int().positive().max(2_147_483_647))
      .min(1)
      .max(IMPRESSIONS_MAX_IDS)
      .meta({ description: `The banners seen (1 to ${IMPRESSIONS_MAX_IDS} ids)` }),
  })
  .meta({
    id: 'BannerImpressions',
    description: 'JSON, or a url-encoded form with the ids comma-separated (`ids=1,2`)',
  });

export function bannerRoutes(services: AppServices): ApiRoute[] {
  const { db } = services.database;
  return [
    apiRoute({
      method: 'post',
      path: '/banners/impressions',
      summary: 'Report banners a visitor saw',
      description:
        'Sent by the pages with navigator.sendBeacon once banners come into view. Ids of banners not shown now are ignored.',
      body: { contentType: 'application/json', schema: ImpressionsRequest },
      ok: { status: 204, description: 'Counted' },
      errors: { 400: 'Not JSON', 415: 'Not JSON', 422: 'Not a list of banner ids', 429: 'Too many reports' },
      xsrf: false,
      handler: async (req) => {
        // Beacons send a form, `ids=1,2` (no JSON without asking the browser's permission first).
        const body = req.body as { ids?: unknown } | undefined;
        const form = req.is('application/x-www-form-urlencoded') !== false;
        const ids =
          form && typeof body?.ids === 'string' && /^\d{1,10}(,\d{1,10})*$/.test(body.ids)
            ? body.ids.split(',').map(Number)
            : body?.ids;
        const parsed = ImpressionsRequest.safeParse({ ...body, ids });
        if (!parsed.success) throw new Invalid({ ids: ['invalid'] });
        await hitRateLimit(db, IMPRESSIONS_LIMIT, req.ip || 'unknown');
        if (!isbot(req.get('user-agent') ?? '')) await countImpressions(db, parsed.data.ids);
        return undefined;
      },
    }),
  ];
}

/** Whether this click counts: a person (not a crawler following links), within the per-address limit. */
async function countable(services: AppServices, req: Request): Promise<boolean> {
  if (isbot(req.get('user-agent') ?? '')) return false;
  try {
    await hitRateLimit(services.database.db, CLICKS_LIMIT, req.ip || 'unknown');
    return true;
  } catch (error) {
    if (error instanceof TooManyRequests) return false;
    throw error;
  }
}

/** The tracked redirect `/b/{id}` (and `/en/b/{id}`); anything else goes on to the pages (404). */
export function bannerClickRouter(services: AppServices): Router {
  const router = Router();
  router.get(['/b/:id', '/en/b/:id'], async (req, res, next) => {
    try {
      const id = parseId(req.params.id);
      if (id === null) return next();
      const link = await followBanner(services.database.db, id, await countable(services, req));
      if (link === null) return next();
      const english = req.path.startsWith('/en/');
      // A site path in the page's language; an outside address as it was stored.
      const target = link.startsWith('/') && english ? localizePath(link, 'en') : link;
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Robots-Tag', 'noindex');
      res.redirect(302, target);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
