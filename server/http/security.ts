import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** Security headers; the CSP carries a fresh nonce per request (res.locals.nonce). */
export function securityHeaders(opts: { development: boolean; mapTileUrl: string }) {
  let tileOrigin = '';
  try {
    tileOrigin = new URL(opts.mapTileUrl.replace(/\{s\}/, 'a')).origin;
  } catch {
    tileOrigin = '';
  }
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = randomBytes(16).toString('base64');
    res.locals.nonce = nonce;
    const scriptSrc = opts.development ? `'self' 'unsafe-inline' 'unsafe-eval'` : `'self' 'nonce-${nonce}'`;
    const csp = [
      `default-src 'self'`,
      `script-src ${scriptSrc}`,
      `style-src 'self' 'unsafe-inline'`,
      `img-src 'self' data: blob:${tileOrigin ? ` ${tileOrigin.replace('//a.', '//*.')}` : ''}`,
      `font-src 'self' data:`,
      `connect-src 'self' ws: wss:`,
      `object-src 'none'`,
      `base-uri 'self'`,
      // The ad page's WhatsApp button is a form whose answer sends the browser on to WhatsApp.
      `form-action 'self' https://wa.me https://api.whatsapp.com`,
      `frame-ancestors 'none'`,
    ];
    res.setHeader('Content-Security-Policy', csp.join('; '));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(self), payment=()');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  };
}

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function newXsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Anti-forgery for the JSON API (docs/api.md): a state-changing request must echo the XSRF cookie in
 * the X-XSRF-TOKEN header. Mismatch → 419.
 */
export function apiXsrfMismatch(req: Request): boolean {
  if (SAFE_METHODS.has(req.method)) return false;
  const cookie = readCookie(req, XSRF_COOKIE);
  const header = req.get(XSRF_HEADER);
  return !cookie || !header || !sameToken(cookie, header);
}

/**
 * Anti-forgery for page forms: strict Origin checking. A state-changing request must come from a
 * page of this site (Origin, or Referer when Origin is absent, names this host).
 */
export function pageOriginMismatch(req: Request, allowedOrigins: string[]): boolean {
  if (SAFE_METHODS.has(req.method)) return false;
  const origin = req.get('origin') ?? refererOrigin(req.get('referer'));
  if (!origin) return true;
  const own = `${req.protocol}://${req.get('host')}`;
  return origin !== own && !allowedOrigins.includes(origin);
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
