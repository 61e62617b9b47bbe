// The one mapper of domain errors for pages (server/http/pages.ts): whatever a loader or action
// throws from the domain answers its own status, never a 500.
import { isRouteErrorResponse, type ServerBuild } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound, TooManyRequests } from '../../server/domain/errors.ts';
import { bodyRulesFor, withDomainErrors } from '../../server/http/pages.ts';

type Module = NonNullable<ServerBuild['routes'][string]>['module'];

function buildWith(routes: Record<string, { path?: string; parentId?: string; index?: boolean; module: object }>) {
  return {
    routes: Object.fromEntries(
      Object.entries(routes).map(([id, r]) => [id, { id, caseSensitive: false, ...r, module: r.module as Module }]),
    ),
  } as unknown as ServerBuild;
}

async function thrownBy(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('domain errors on pages', () => {
  const request = new Request('http://souq.test/en/motors/cars/x-1');
  const cases: [Error, number][] = [
    [new NotFound('errors.not-found'), 404],
    [new Forbidden('errors.forbidden'), 403],
    [new Conflict('errors.conflict'), 409],
    [new Invalid({ form: ['invalid'] }), 422],
    [new TooManyRequests(90), 429],
  ];
  it.each(cases)('%s from a loader or an action answers %i', async (error, status) => {
    const build = withDomainErrors(
      buildWith({
        root: { path: '', module: {} },
        page: {
          path: 'x',
          parentId: 'root',
          module: {
            loader: async () => {
              throw error;
            },
            action: async () => {
              throw error;
            },
          },
        },
      }),
    );
    const module = build.routes.page?.module as { loader: (a: unknown) => unknown; action: (a: unknown) => unknown };
    for (const fn of [module.loader, module.action]) {
      const thrown = await thrownBy(() => fn({ request }));
      const answer =
        thrown instanceof Response ? thrown.status : isRouteErrorResponse(thrown) ? thrown.status : undefined;
      // `data()` results carry their status in `init`.
      const init = (thrown as { init?: { status?: number; headers?: Record<string, string> } }).init;
      expect(answer ?? init?.status).toBe(status);
      if (status === 404) expect((thrown as Response).statusText).toBe('Page not found: /en/motors/cars/x-1');
      if (status === 429) expect(init?.headers?.['Retry-After']).toBe('90');
    }
  });

  it('lets everything else through as it was thrown', async () => {
    const boom = new Error('boom');
    const redirect = new Response(null, { status: 302, headers: { Location: '/login' } });
    const build = withDomainErrors(
      buildWith({
        a: { path: 'a', module: { loader: async () => Promise.reject(boom) } },
        b: { path: 'b', module: { loader: async () => Promise.reject(redirect), default: 'component' } },
      }),
    );
    const a = build.routes.a?.module as { loader: (x: unknown) => unknown };
    const b = build.routes.b?.module as { loader: (x: unknown) => unknown; default: unknown };
    expect(await thrownBy(() => a.loader({ request }))).toBe(boom);
    expect(await thrownBy(() => b.loader({ request }))).toBe(redirect);
    expect(b.default).toBe('component');
  });
});

describe('body limits by route', () => {
  const build = buildWith({
    root: { path: '', module: {} },
    profile: {
      path: 'profile',
      parentId: 'root',
      module: { handle: { bodyLimit: 5_000, answersOversizedBody: true } },
    },
    en: { path: 'en', parentId: 'root', module: {} },
    enProfile: { path: 'profile', parentId: 'en', module: { handle: { bodyLimit: 5_000 } } },
    contact: { path: 'contact', parentId: 'root', module: {} },
  });
  const rules = bodyRulesFor(build);
  it("takes the matched route's own limit, for its page and its data request alike", () => {
    expect(rules('/profile')).toEqual({ bodyLimit: 5_000, answersOversizedBody: true });
    expect(rules('/profile.data')).toEqual({ bodyLimit: 5_000, answersOversizedBody: true });
    expect(rules('/en/profile')).toEqual({ bodyLimit: 5_000, answersOversizedBody: false });
  });
  it('gives every other route the form limit', () => {
    expect(rules('/contact').bodyLimit).toBe(256 * 1024);
    expect(rules('/no/such/page').bodyLimit).toBe(256 * 1024);
    expect(rules('/_.data').bodyLimit).toBe(256 * 1024);
  });
});
