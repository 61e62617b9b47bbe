// /api/openapi.json against the router it describes: every route registered on the API router (read
// from Express's own stack, so a route added beside the route table is caught too) has its operation
// in the document and nothing else is described; the Better Auth endpoints appear only when
// configured; every reference resolves and every path parameter is declared.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Router } from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSearchQuery, SEARCH_PARAMETERS } from '../../app/lib/search-query.ts';
import { loadConfig } from '../../server/config.ts';
import type { AppServices } from '../../server/context.ts';
import { apiRouter, apiRoutes } from '../../server/http/api.ts';
import { exposedAuthOperations } from '../../server/http/auth-endpoints.ts';
import { openApiDocument, openApiPath } from '../../server/http/openapi.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'souq-openapi-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const AUTH_ENV = {
  OIDC_ISSUER: 'http://127.0.0.1:9/issuer',
  OIDC_CLIENT_ID: 'souq',
  OIDC_CLIENT_SECRET: 'souq-secret',
  FIREBASE_PROJECT_ID: 'souq-test',
};

/** Services enough to build the router (nothing is served). */
function services(env: Record<string, string> = {}): AppServices {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(40), ...env });
  return { config, database: { db: {} }, auth: {}, logger: console } as unknown as AppServices;
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: unknown[] };
  name?: string;
}

/** `METHOD /path` of every route on the router; a mounted sub-router fails (it would bypass the table). */
function registered(router: Router): string[] {
  const found: string[] = [];
  for (const layer of router.stack as Layer[]) {
    if (layer.handle?.stack)
      throw new Error(`a router is mounted inside the API router (${layer.name}): use the route table`);
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') found.push(`${method.toUpperCase()} ${openApiPath(layer.route.path)}`);
    }
  }
  return found;
}

function described(doc: ReturnType<typeof openApiDocument>): string[] {
  return Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
}

describe('the OpenAPI document', () => {
  it('describes every route the API router serves, and only those', () => {
    const s = services();
    const routes = registered(apiRouter(s));
    expect(routes.length).toBeGreaterThanOrEqual(14);
    const doc = openApiDocument(apiRoutes(s));
    expect(described(doc).sort()).toEqual([...routes].sort());
    expect(routes).toEqual(
      expect.arrayContaining(['GET /posts', 'GET /posts/{id}/card', 'POST /ad-images', 'DELETE /ad-images/{id}']),
    );
  });

  it('adds the Better Auth endpoints only when they are configured', () => {
    expect(exposedAuthOperations(services().config)).toEqual([]);
    const s = services(AUTH_ENV);
    const doc = openApiDocument([...apiRoutes(s), ...exposedAuthOperations(s.config)]);
    expect(doc.paths['/auth/callback/oidc']?.get).toBeDefined();
    const firebase = doc.paths['/auth/sign-in/firebase']?.post as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> };
    };
    expect(firebase.requestBody.content['application/json'].schema).toMatchObject({
      required: ['idToken'],
      properties: { idToken: { type: 'string', minLength: 1, maxLength: 8192 } },
    });
  });

  it('resolves every reference, declares every path parameter and one shared error schema', () => {
    const s = services(AUTH_ENV);
    const doc = openApiDocument([...apiRoutes(s), ...exposedAuthOperations(s.config)]);
    expect(doc.openapi).toBe('3.1.0');
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) expect(doc.components.schemas, ref).toHaveProperty([ref as string]);
    expect(JSON.stringify(doc)).not.toContain('$defs');
    for (const [p, ops] of Object.entries(doc.paths)) {
      const inPath = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(ops) as [string, Record<string, unknown>][]) {
        const params = op.parameters as { name: string; in: string }[];
        expect(
          params.filter((x) => x.in === 'path').map((x) => x.name),
          `${method} ${p}`,
        ).toEqual(inPath);
        const responses = op.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
        // Every write asks the anti-forgery header and may answer 419, but the one-click unsubscribe
        // (its token is the authorisation: mail programs post it without cookies) and the banners'
        // impressions (a beacon sends no header; it reads no session and only adds to counters).
        const xsrf = params.some((x) => x.name === 'X-XSRF-TOKEN');
        const noXsrf = ['/unsubscribe/{token}', '/banners/impressions'];
        if (method !== 'get') expect(xsrf, `${method} ${p}`).toBe(!noXsrf.includes(p));
        if (xsrf) expect(Object.keys(responses), `${method} ${p}`).toContain('419');
        for (const [status, response] of Object.entries(responses)) {
          if (Number(status) >= 400) {
            expect(response.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
          }
        }
      }
    }
    const upload = doc.paths['/ad-images']?.post as { responses: Record<string, { headers?: object }> };
    expect(Object.keys(upload.responses).sort()).toEqual(['201', '400', '401', '413', '419', '422', '429']);
    expect(upload.responses[429]?.headers).toHaveProperty('Retry-After');
  });

  it('documents the search parameters the parser reads', () => {
    const doc = openApiDocument(apiRoutes(services()));
    const search = doc.paths['/posts']?.get as { parameters: { name: string; in: string }[] };
    const names = search.parameters.filter((x) => x.in === 'query').map((x) => x.name);
    for (const name of Object.keys(SEARCH_PARAMETERS)) expect(names).toContain(name);
    expect(names).toEqual(expect.arrayContaining(['page', 'f.{key}', 'f.{key}.min', 'f.{key}.max']));
    // Each documented parameter changes what the parser reads (so none is described but ignored).
    const sample: Record<string, string> = {
      q: 'x',
      taxonomy: 'motors',
      category: 'cars',
      city: 'tripoli',
      area: 'x',
      price_min: '1',
      price_max: '2',
      currency: 'USD',
      photos: '1',
      within: '7',
      seller: 'company',
      sort: 'price-asc',
    };
    for (const name of Object.keys(SEARCH_PARAMETERS)) {
      // An area counts only with its city; the currency only with a price.
      const base = { area: 'city=tripoli', currency: 'price_min=1' }[name] ?? '';
      const parsed = parseSearchQuery(new URLSearchParams(`${base}&${name}=${sample[name]}`));
      expect(parsed, name).not.toEqual(parseSearchQuery(new URLSearchParams(base)));
    }
  });
});
