// Helpers for loaders and actions: services, request info, locale and translation.
import type { MiddlewareFunction, RouterContextProvider } from 'react-router';
import { localeOfPath } from '~/i18n/config.ts';
import { i18nFor } from '~/i18n/resources.server.ts';
import { parseId } from '~/lib/ids.ts';
import { requestContext, servicesContext } from '../../server/context.ts';

export function services(context: Readonly<RouterContextProvider>) {
  return context.get(servicesContext);
}

export function requestInfo(context: Readonly<RouterContextProvider>) {
  return context.get(requestContext);
}

export function db(context: Readonly<RouterContextProvider>) {
  return context.get(servicesContext).database.db;
}

export function localeOf(request: Request) {
  return localeOfPath(new URL(request.url).pathname);
}

/** The server-side `t` of the request's language. */
export function tFor(request: Request) {
  return i18nFor(localeOf(request)).t;
}

/** 404 with the status text of docs/product/site.md: `Page not found: {path}`. */
export function notFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return new Response(null, { status: 404, statusText: `Page not found: ${pathname}` });
}

/** The id a path names (`/admin/posts/{id}`), or the translated 404 when it is not one. */
export function pathId(request: Request, value: string | undefined): number {
  const id = parseId(value);
  if (id === null) throw notFound(request);
  return id;
}

/** The same on a form that also creates (`/admin/badges/new` has no id): null there. */
export function pathIdOrNew(request: Request, value: string | undefined): number | null {
  return value === undefined ? null : pathId(request, value);
}

/**
 * Root middleware: a body its route cannot take (too large, not a form, a form that does not parse:
 * server/http/pages.ts) reaches no loader or action; the translated error page answers.
 */
export const refuseUnreadableBody: MiddlewareFunction<Response> = ({ request, context }) => {
  const status = context.get(requestContext).bodyRefusal;
  if (!status) return;
  // The text is what a route without a page (sign-out) answers; pages render the error page.
  const t = tFor(request);
  const text =
    status === 413
      ? t('common:error-page.request-too-large-description')
      : t('common:error-page.bad-request-description');
  throw new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
