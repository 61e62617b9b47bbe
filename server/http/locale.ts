import type { NextFunction, Request, Response } from 'express';
import { isLocale, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, localizePath } from '../../app/i18n/config.ts';
import { localPath } from '../../app/lib/local-path.ts';
import { readCookie } from './security.ts';

/**
 * Locale routing outside React Router:
 * - `/ar` and `/ar/…` → 301 to the unprefixed path (Arabic has no prefix);
 * - `/` with the locale cookie set to English → 302 to `/en`;
 * - `/locale/{ar|en}?redirect=…` is the language switch: it stores the choice for 365 days and
 *   goes to the same page in the chosen language.
 */
export function localeRouting() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path;
    const qi = req.originalUrl.indexOf('?');
    const query = qi >= 0 ? req.originalUrl.slice(qi) : '';
    if (path === '/ar' || path.startsWith('/ar/')) {
      return res.redirect(301, (path.slice(3) || '/') + query);
    }
    if (path === '/' && readCookie(req, LOCALE_COOKIE) === 'en') {
      res.setHeader('Vary', 'Cookie');
      return res.redirect(302, `/en${query}`);
    }
    const m = /^\/locale\/([a-z]{2})\/?$/.exec(path);
    if (m) {
      const locale = m[1];
      if (!isLocale(locale)) return next();
      const redirect = localPath(req.query.redirect);
      const q = redirect.indexOf('?');
      const target = localizePath(q >= 0 ? redirect.slice(0, q) : redirect, locale) + (q >= 0 ? redirect.slice(q) : '');
      res.cookie(LOCALE_COOKIE, locale, {
        maxAge: LOCALE_COOKIE_MAX_AGE * 1000,
        sameSite: 'lax',
        secure: req.secure,
        path: '/',
      });
      res.setHeader('Cache-Control', 'no-store');
      return res.redirect(303, target);
    }
    next();
  };
}
