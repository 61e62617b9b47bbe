// Which of Better Auth's HTTP endpoints the world may call. Our pages reach Better Auth through
// `auth.api.*` from server/domain/ (accounts.ts, profile.ts), where our limits, validation and
// clean-up run; over HTTP only what a browser or an API client genuinely needs is served, each
// behind a per-IP limit stored in the database. Every other path under /api/auth — sign-in,
// sign-up, codes, resets, update-user, delete-user, sessions, and whatever a new plugin adds —
// answers 404 for every method, like any unknown /api path.
//
// The list is matched against the raw path exactly (no trailing slash, no `//`, no encoding, no
// case folding), before Better Auth's own router sees the request: a variant its router would
// normalise to an allowed endpoint is refused here.
import { toNodeHandler } from 'better-auth/node';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { FIREBASE_SIGN_IN_BODY } from '../auth/firebase-plugin.ts';
import { AUTH_BASE_PATH, CLIENT_IP_HEADER } from '../auth/index.ts';
import type { Config } from '../config.ts';
import type { AppServices } from '../context.ts';
import { NotFound } from '../domain/errors.ts';
import { hitRateLimit, type RateLimitRule } from '../domain/rate-limit.ts';
import type { ApiOperation } from './api-route.ts';

export interface ExposedAuthEndpoint {
  method: 'GET' | 'POST';
  /** Below AUTH_BASE_PATH, exactly as requested. */
  path: string;
  /** Served only when this configuration turns the feature on. */
  enabled: (config: Config) => boolean;
  /** Counted for every request, per client IP. */
  limit: RateLimitRule;
  /** Its description in /api/openapi.json (server/http/openapi.ts), while enabled. */
  doc: Omit<ApiOperation, 'method' | 'path'>;
}

export const EXPOSED_AUTH_ENDPOINTS: readonly ExposedAuthEndpoint[] = [
  {
    // Where the OpenID Connect provider sends the browser back (server/auth/oidc.ts). The sign-in
    // itself starts from our login and register forms (app/lib/form-actions.server.ts).
    method: 'GET',
    path: '/callback/oidc',
    enabled: (config) => Boolean(config.oidc),
    limit: { name: 'auth-oidc-callback-ip', limit: 60, windowSeconds: 15 * 60 },
    doc: {
      summary: 'Where the OpenID Connect provider sends the browser back after sign-in',
      description:
        'Not called by clients: register `<APP_URL>/api/auth/callback/oidc` as the redirect URI at the provider. Served only while OIDC_ISSUER is set.',
      query: {
        code: z.string().meta({ description: 'Authorization code' }),
        state: z.string().meta({ description: 'The state the sign-in started with' }),
        error: z.string().meta({ description: "The provider's refusal" }),
      },
      ok: {
        status: 302,
        description: 'Signed in (session cookie set) or refused: back to the site',
        headers: { Location: { description: 'Where the browser goes next', schema: z.string() } },
      },
      errors: { 429: '' },
    },
  },
  {
    // The Firebase ID-token exchange for API clients (server/auth/firebase-plugin.ts).
    method: 'POST',
    path: '/sign-in/firebase',
    enabled: (config) => Boolean(config.firebase),
    limit: { name: 'auth-firebase-ip', limit: 30, windowSeconds: 15 * 60 },
    doc: {
      summary: 'Exchange a Firebase ID token for a session cookie',
      description:
        'For apps that sign in with Firebase: JSON only. The Firebase account is found among linked ones, or linked to the member with the same verified email or phone number, or a new member is created. Refusals are Better Auth errors `{code, message}` (401). Served only while FIREBASE_PROJECT_ID is set.',
      body: { contentType: 'application/json', schema: FIREBASE_SIGN_IN_BODY },
      ok: {
        status: 200,
        description: 'Signed in: the session cookie is set',
        schema: z.strictObject({ user: z.strictObject({ id: z.string(), name: z.string() }) }),
      },
      errors: { 429: '' },
    },
  },
];

/** The allowed endpoint for a method and a path below AUTH_BASE_PATH, if any. */
export function exposedAuthEndpoint(config: Config, method: string, path: string) {
  return EXPOSED_AUTH_ENDPOINTS.find((e) => e.method === method && e.path === path && e.enabled(config));
}

/** The exposed endpoints this configuration serves, as operations below /api. */
export function exposedAuthOperations(config: Config): ApiOperation[] {
  const below = AUTH_BASE_PATH.slice('/api'.length);
  return EXPOSED_AUTH_ENDPOINTS.filter((e) => e.enabled(config)).map((e) => ({
    method: e.method === 'GET' ? 'get' : 'post',
    path: `${below}${e.path}`,
    ...e.doc,
  }));
}

/** Mounted at `${AUTH_BASE_PATH}/{*rest}`: the allowlist, our limit, then Better Auth. */
export function authEndpoints(services: AppServices): RequestHandler {
  const betterAuth = toNodeHandler(services.auth);
  return async (req: Request, res: Response, next: NextFunction) => {
    const endpoint = req.path.startsWith(`${AUTH_BASE_PATH}/`)
      ? exposedAuthEndpoint(services.config, req.method, req.path.slice(AUTH_BASE_PATH.length))
      : undefined;
    if (!endpoint) return next(new NotFound('errors.not-found'));
    try {
      await hitRateLimit(services.database.db, endpoint.limit, req.ip || 'unknown');
    } catch (error) {
      return next(error);
    }
    // Better Auth sees a Fetch Request without the socket: hand it the client IP Express resolved
    // (TRUST_PROXY aware), overwriting anything the client sent under that name.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? '';
    return betterAuth(req, res);
  };
}
