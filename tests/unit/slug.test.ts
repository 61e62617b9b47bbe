// Reserved first path segments (app/lib/slug.ts): the site's own pages and paths are never read as
// a taxonomy, and the list keeps up with the route table.
import { describe, expect, it } from 'vitest';
import { isReservedSegment, isTaxonomySegment, parseAdUrl, RESERVED_SEGMENTS } from '~/lib/slug.ts';

/** First segments of every path in app/routes.ts (without the `/en` prefix), parameters left out. */
async function firstSegments(): Promise<Set<string>> {
  // The route helpers read the app directory from a global the React Router plugin sets.
  (globalThis as { __reactRouterAppDirectory?: string }).__reactRouterAppDirectory = 'app';
  const routes = (await import('../../app/routes.ts')).default;
  const found = new Set<string>();
  const walk = (entries: { path?: string; children?: unknown[] }[]) => {
    for (const e of entries) {
      const segments = (e.path ?? '').split('/').filter(Boolean);
      const first = segments[0] === 'en' ? segments[1] : segments[0];
      if (segments[0] === 'en') found.add('en');
      if (first && !first.startsWith(':') && first !== '*') found.add(first);
      if (e.children) walk(e.children as typeof entries);
    }
  };
  walk(routes as never);
  return found;
}

describe('reserved first path segments', () => {
  it('hold every first segment of the route table', async () => {
    const segments = await firstSegments();
    expect(segments.size).toBeGreaterThan(10);
    expect([...segments].filter((s) => !RESERVED_SEGMENTS.has(s))).toEqual([]);
  });

  it('are never a taxonomy, in any case', () => {
    for (const s of ['admin', 'api', 'profile', 'account', 'login', 'register', 'posts', 'users', 'place-your-ad']) {
      expect(isReservedSegment(s), s).toBe(true);
      expect(isTaxonomySegment(s), s).toBe(false);
    }
    expect(isReservedSegment('ADMIN')).toBe(true);
    expect(isTaxonomySegment('motors')).toBe(true);
    expect(isTaxonomySegment('Motors')).toBe(false);
  });

  it('make an ad path under them no ad path at all', () => {
    expect(parseAdUrl({ taxonomy: 'admin', category: 'users', ad: '7' })).toBeNull();
    expect(parseAdUrl({ taxonomy: 'uploads', category: 'cars', ad: 'x-7' })).toBeNull();
    expect(parseAdUrl({ taxonomy: 'motors', category: 'cars', ad: 'x-7' })).toEqual({ id: 7, slug: 'x' });
  });
});
