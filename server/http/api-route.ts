// One API operation as data: its method and path, the Zod schemas of its input and answers, and
// (for our own routes) the handler. The API router is built from these (mountApiRoutes) and
// /api/openapi.json is generated from the same list (server/http/openapi.ts), so a route cannot be
// served without a description, nor described with parameters it does not read.
import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { NotFound } from '../domain/errors.ts';

/** Error statuses an operation may answer, every one with the API's error body (ApiError). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 410 | 413 | 415 | 419 | 422 | 429;

export interface ApiHeaderDoc {
  description: string;
  schema: z.ZodType;
}

export interface ApiOperation {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Express path below /api (`/posts/:id/card`). */
  path: string;
  summary: string;
  description?: string;
  /** Path parameters. A value the schema refuses answers 404: no such resource. */
  params?: z.ZodObject;
  /**
   * Query parameters, by name. The handler reads them through these same schemas, but for the
   * search's: those are read by the plain readers declared next to these schemas
   * (app/lib/search-query.ts), which drop a value they refuse instead of failing.
   */
  query?: Record<string, z.ZodType>;
  body?: { contentType: 'application/json' | 'multipart/form-data'; schema: z.ZodType };
  ok: {
    status: 200 | 201 | 204 | 302;
    description: string;
    schema?: z.ZodType;
    headers?: Record<string, ApiHeaderDoc>;
  };
  errors?: Partial<Record<ErrorStatus, string>>;
  /**
   * `false`: a write authorised by a token in its own path, not by the session cookie (an email's
   * one-click unsubscribe, posted by mail programs without cookies): no anti-forgery header asked.
   */
  xsrf?: false;
}

type Params<P> = P extends z.ZodObject ? z.output<P> : Record<string, never>;
/** The success body (checked against the schema's type), or undefined when the handler answered itself. */
type Reply<S> = S extends z.ZodType ? z.input<S> | undefined : undefined;

export interface ApiRoute<P extends z.ZodObject | undefined = z.ZodObject | undefined, S = unknown>
  extends ApiOperation {
  params?: P & z.ZodObject;
  ok: ApiOperation['ok'] & { schema?: S & z.ZodType };
  handler: (req: Request, res: Response, params: Params<P>) => Promise<Reply<S>> | Reply<S>;
}

/** Types a route: its handler's params and return value follow its schemas. */
export function apiRoute<P extends z.ZodObject | undefined = undefined, S extends z.ZodType | undefined = undefined>(
  route: ApiRoute<P, S>,
): ApiRoute {
  return route as unknown as ApiRoute;
}

/** Registers each route on the router: path parameters checked by their schema, the answer sent with its status. */
export function mountApiRoutes(router: Router, routes: readonly ApiRoute[]): void {
  for (const route of routes) {
    router[route.method](route.path, async (req, res) => {
      let params: Record<string, unknown> = {};
      if (route.params) {
        const parsed = route.params.safeParse(req.params);
        if (!parsed.success) throw new NotFound('errors.not-found');
        params = parsed.data;
      }
      const body = await route.handler(req, res, params as never);
      if (res.headersSent || res.destroyed) return;
      if (body === undefined) res.status(route.ok.status).end();
      else res.status(route.ok.status).json(body);
    });
  }
}
