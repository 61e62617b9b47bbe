// The JavaScript a phone downloads before a page is interactive, from the build's route manifest:
// the entry, the page's route modules and everything they import, and the page's language
// catalogue, each as the server sends it to a gzip client (scripts/precompress.ts). Held to the
// target of docs/performance.md ("First-load JavaScript"): 170 KB on every page.
// The manifest's own file (`manifest-<version>.js`) is not counted: with React Router's lazy route
// discovery the page inlines the part of the manifest it needs and the browser never fetches that
// file (the last test below checks this on rendered pages; later routes come from `/__manifest`).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';

const dir = path.resolve('build/client');

interface RouteEntry {
  module: string;
  imports?: string[];
  parentId?: string;
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, RouteEntry>;
}

const manifestFile = readdirSync(path.join(dir, 'assets')).find((f) => /^manifest-.*\.js$/.test(f)) as string;
const manifest = (() => {
  const text = readFileSync(path.join(dir, 'assets', manifestFile), 'utf8');
  return JSON.parse(text.slice(text.indexOf('=') + 1).replace(/;\s*$/, '')) as Manifest;
})();

/** The hashed file a module was built to, e.g. the Arabic catalogue `bundle-ar-<hash>.js`. */
const built = (prefix: string) =>
  `/assets/${readdirSync(path.join(dir, 'assets')).find((f) => f.startsWith(`${prefix}-`) && f.endsWith('.js'))}`;

/** Gzipped bytes of a page's first-load scripts. */
function firstLoad(routeId: string): { bytes: number; files: number } {
  const files = new Set([...manifest.entry.imports, manifest.entry.module]);
  files.add(built(routeId.startsWith('en.') ? 'bundle-en' : 'bundle-ar'));
  for (
    let r: RouteEntry | undefined = manifest.routes[routeId];
    r;
    r = r.parentId ? manifest.routes[r.parentId] : undefined
  ) {
    files.add(r.module);
    for (const f of r.imports ?? []) files.add(f);
  }
  let bytes = 0;
  // Files too small to gain from compression are sent as they are (scripts/precompress.ts).
  for (const f of files) {
    const file = path.join(dir, f);
    bytes += statSync(existsSync(`${file}.gz`) ? `${file}.gz` : file).size;
  }
  return { bytes, files: files.size };
}

/** The pages measured (docs/performance.md has their figures); every one is held to the target. */
const PAGES = ['home', 'posts', 'category', 'ad', 'posts.map'];
const TARGET_KB = 170;

describe('first-load JavaScript', () => {
  const measured: Record<string, string> = {};
  afterAll(() => {
    // The figures of docs/performance.md: gzipped KB (files), Arabic / English.
    const row = (page: string) => `${measured[`ar.${page}`]} / ${measured[`en.${page}`]}`;
    console.info(PAGES.map((page) => `${page.padEnd(10)} ${row(page)}`).join('\n'));
  });

  it.each(PAGES.flatMap((page) => [`ar.${page}`, `en.${page}`]))('%s stays within the target', (id) => {
    const { bytes, files } = firstLoad(id);
    measured[id] = `${(bytes / 1024).toFixed(1)} KB (${files})`;
    expect(bytes / 1024, `${id}: gzipped KB`).toBeLessThanOrEqual(TARGET_KB);
  });

  it('the realtime client (pusher-js, laravel-echo) is in no page’s first load, only loaded for members', () => {
    const assets = readdirSync(path.join(dir, 'assets')).filter((f) => f.endsWith('.js'));
    const realtime = assets.filter((f) =>
      readFileSync(path.join(dir, 'assets', f), 'utf8').includes('pusher:subscribe'),
    );
    expect(realtime.length).toBeGreaterThan(0);
    for (const id of Object.keys(manifest.routes)) {
      const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
      for (
        let r: RouteEntry | undefined = manifest.routes[id];
        r;
        r = r.parentId ? manifest.routes[r.parentId] : undefined
      ) {
        files.add(r.module);
        for (const f of r.imports ?? []) files.add(f);
      }
      expect(
        [...files].filter((f) => realtime.includes(path.basename(f))),
        id,
      ).toEqual([]);
    }
  });

  it('the map library is not in any page’s first load', () => {
    for (const id of Object.keys(manifest.routes)) {
      const r = manifest.routes[id] as RouteEntry;
      expect([r.module, ...(r.imports ?? [])].filter((f) => /\/leaflet-src/.test(f))).toEqual([]);
    }
  });

  it.each(['/', '/en/posts'])(
    '%s inlines its part of the route manifest and never loads the manifest file',
    async (p) => {
      const html = await (await fetch(inject('baseUrl') + p)).text();
      expect(html).toContain('window.__reactRouterManifest = {');
      expect(html).toContain('"routeDiscovery":{"mode":"lazy"');
      // The manifest file is named only as the inline manifest's `url`, neither imported nor preloaded.
      const named = html.match(/[^\s"]*manifest-[\w-]+\.js[^\s"]*/g) ?? [];
      expect(named).toEqual([`/assets/${manifestFile}`]);
      expect(html).toContain(`"url": "/assets/${manifestFile}"`);
    },
  );
});
