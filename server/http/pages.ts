// Pages: Express requests handed to React Router, and its answers written back. Our own adapter (in
// place of @react-router/express) because two rules apply to every page before React Router sees it:
//   - the body is read under the size limit of the route it is for (a route module may raise it
//     with `handle.bodyLimit`, see app/lib/body-limit.ts); a body past it reaches no action: the
//     root route's middleware answers 413 with the translated error page;
//   - domain errors thrown by any loader or action (server/domain/errors.ts) become their HTTP
//     status (NotFound → 404 …) in one place, `withDomainErrors`, instead of a 500.

import { writeReadableStreamToWritable } from '@react-router/node';
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from 'express';
import {
  createRequestHandler,
  data,
  matchRoutes,
  type RouteObject,
  type RouterContextProvider,
  type ServerBuild,
} from 'react-router';
import { type BodyLimitHandle, FORM_BODY_LIMIT } from '../../app/lib/body-limit.ts';
import { DomainError, NotFound, TooManyRequests } from '../domain/errors.ts';
import { discardRest, mediaType, readBodyWithin } from './body.ts';

type BuildRoute = NonNullable<ServerBuild['routes'][string]>;
type RouteModule = BuildRoute['module'];
type DataFunction = (args: { request: Request }) => unknown;

export interface PageHandlerOptions {
  build: ServerBuild;
  mode: 'production' | 'development';
  getLoadContext: (
    req: ExpressRequest,
    res: ExpressResponse,
    body: { tooLarge: boolean; refusal: BodyRefusal },
  ) => RouterContextProvider;
}

/** The answer a domain error gets on a page (status, and the status text the error page shows). */
function domainErrorResponse(error: DomainError, request: Request): Response | ReturnType<typeof data> {
  if (error instanceof NotFound) {
    const { pathname } = new URL(request.url);
    return new Response(null, { status: 404, statusText: `Page not found: ${pathname}` });
  }
  const headers: HeadersInit = error instanceof TooManyRequests ? { 'Retry-After': String(error.retryAfter) } : {};
  return data({ message: error.message }, { status: error.status, headers });
}

function mapErrors(fn: DataFunction): DataFunction {
  return async (args) => {
    try {
      return await fn(args);
    } catch (error) {
      if (error instanceof DomainError) throw domainErrorResponse(error, args.request);
      throw error;
    }
  };
}

/** The build with every route's loader and action passing domain errors through `domainErrorResponse`. */
export function withDomainErrors(build: ServerBuild): ServerBuild {
  const routes: ServerBuild['routes'] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const module = { ...route.module } as RouteModule & { loader?: DataFunction; action?: DataFunction };
    if (typeof module.loader === 'function') module.loader = mapErrors(module.loader);
    if (typeof module.action === 'function') module.action = mapErrors(module.action);
    routes[id] = { ...route, module };
  }
  return { ...build, routes };
}

/** The route tree of the build, for finding which route a path is for before React Router runs. */
function routeTree(build: ServerBuild): RouteObject[] {
  const children = new Map<string | undefined, BuildRoute[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const list = children.get(route.parentId) ?? [];
    list.push(route);
    children.set(route.parentId, list);
  }
  const tree = (parentId: string | undefined): RouteObject[] =>
    (children.get(parentId) ?? []).map((route: BuildRoute) => {
      const below = tree(route.id);
      return route.index
        ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
        : {
            id: route.id,
            path: route.path,
            caseSensitive: route.caseSensitive,
            children: below.length ? below : undefined,
          };
    });
  return tree(undefined);
}

/** The body rules of the deepest route matching `pathname` (a `.data` request is for its page). */
export function bodyRulesFor(build: ServerBuild): (pathname: string) => Required<BodyLimitHandle> {
  const tree = routeTree(build);
  return (pathname) => {
    const page = pathname.endsWith('/_.data') ? pathname.slice(0, -6) || '/' : pathname.replace(/\.data$/, '');
    const leaf = matchRoutes(tree, page)?.at(-1)?.route.id;
    const handle = (leaf ? build.routes[leaf]?.module.handle : undefined) as BodyLimitHandle | undefined;
    return {
      bodyLimit: handle?.bodyLimit ?? FORM_BODY_LIMIT,
      answersOversizedBody: handle?.answersOversizedBody ?? false,
    };
  };
}

type BodyRefusal = 400 | 413 | 415 | null;

/**
 * Page actions read forms: a body of another type is a 415, a multipart body that does not parse a
 * 400 (a url-encoded one always parses), so no action ever meets a form it cannot read.
 */
async function formRefusal(contentType: string | undefined, body: Uint8Array<ArrayBuffer>): Promise<BodyRefusal> {
  const type = mediaType(contentType);
  if (type === 'application/x-www-form-urlencoded') return null;
  if (type === 'multipart/form-data') {
    try {
      await new Response(body, { headers: { 'content-type': contentType ?? '' } }).formData();
      return null;
    } catch {
      return 400;
    }
  }
  return body.byteLength === 0 ? null : 415;
}

/** Request headers as Fetch headers (repeated headers appended). */
function fetchHeaders(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v);
  }
  return headers;
}

/** The public URL of the request (the Host header is the client's word: only its name and port are used). */
function requestUrl(req: ExpressRequest): string {
  const [, port] = /:(\d{1,5})$/.exec(req.get('host') ?? '') ?? [];
  const host = (req.hostname || 'localhost').split(/[\\/?#@\s]/)[0] || 'localhost';
  return `${req.protocol}://${host}${port ? `:${port}` : ''}${req.originalUrl}`;
}

async function send(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (!response.body) return void res.end();
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!(res.destroyed || res.writableEnded)) throw error;
  }
}

export function createPageHandler({ build, mode, getLoadContext }: PageHandlerOptions) {
  const mapped = withDomainErrors(build);
  const handle = createRequestHandler(mapped, mode);
  const bodyRules = bodyRulesFor(build);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      let body: Uint8Array<ArrayBuffer> | undefined;
      let tooLarge = false;
      let refusal: BodyRefusal = null;
      if (hasBody) {
        const rules = bodyRules(req.path);
        const read = await readBodyWithin(req, rules.bodyLimit);
        if (read.kind === 'aborted') return void res.destroy();
        if (read.kind === 'too-large') {
          tooLarge = true;
          refusal = rules.answersOversizedBody ? null : 413;
          if (!read.drained) discardRest(req, res);
        } else {
          body = read.body;
          refusal = await formRefusal(req.get('content-type'), body);
        }
      }
      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const request = new Request(requestUrl(req), {
        method: req.method,
        headers: fetchHeaders(req),
        signal: controller.signal,
        ...(hasBody ? { body: body ?? new Uint8Array(0) } : {}),
      });
      await send(res, await handle(request, getLoadContext(req, res, { tooLarge, refusal })));
    } catch (error) {
      next(error);
    }
  };
}
