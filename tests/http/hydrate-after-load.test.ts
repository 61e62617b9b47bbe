// The hydration scripts of a page are fetched after its load (docs/decisions/0013-hydrate-after-load.md):
// read on the pages the built server renders, so a React Router upgrade that changes its inline
// script fails here instead of silently fetching every script first again.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { BOOT_WAIT_MS, hydrateAfterLoad, PRELOADS_PER_TASK } from '../../app/lib/hydrate-after-load.server.ts';

const base = inject('baseUrl');
const page = async (p: string) => (await fetch(base + p)).text();

/** The rewritten inline module script of a page. */
function bootOf(html: string): string {
  const m = /<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html);
  expect(m, 'the page has its inline module script').not.toBeNull();
  return (m as RegExpExecArray)[1] as string;
}

describe('hydration after the page has loaded', () => {
  it.each(['/', '/en/posts', '/about'])('%s preloads no script in its head and imports them after load', async (p) => {
    const html = await page(p);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).not.toContain('rel="modulepreload"');
    const boot = bootOf(html);
    // Nothing is imported statically (a static import is fetched at once, before the wait).
    expect(boot).not.toMatch(/^\s*import\s/m);
    expect(boot.indexOf("addEventListener('load'")).toBeGreaterThan(-1);
    expect(boot).toContain(`setTimeout(go, ${BOOT_WAIT_MS})`);
    // Then the first paint (a paint performance entry), with the same time limit.
    expect(boot.indexOf("observe({ type: 'paint' })")).toBeGreaterThan(boot.indexOf("addEventListener('load'"));
    // The wait comes before any import, then the preloads and the route modules, then the entry.
    const wait = boot.indexOf('await new Promise');
    const routes = boot.indexOf('await Promise.all([import(');
    const entry = boot.lastIndexOf('import("/assets/entry.client-');
    expect(wait).toBe(0);
    expect(routes).toBeGreaterThan(wait);
    expect(entry).toBeGreaterThan(routes);
    // Every file the head used to preload is still preloaded, and exists.
    const hrefs = JSON.parse(/const preloads = (\[[^\]]*\]);/.exec(boot)?.[1] ?? '[]') as string[];
    expect(hrefs.length).toBeGreaterThan(5);
    expect(hrefs.some((h) => h.includes('entry.client-'))).toBe(true);
    for (const h of hrefs) expect(existsSync(path.join('build/client', h)), h).toBe(true);
  });

  it('leaves a document without React Router’s script as it is', () => {
    const doc = '<html><head><link rel="modulepreload" href="/a.js"/></head><body><p>x</p></body></html>';
    expect(hydrateAfterLoad(doc)).toBe(doc);
  });

  it('rewrites the static route imports of React Router’s script into imports after the wait', () => {
    const doc =
      '<html><head><link rel="modulepreload" href="/assets/a.js" nonce="n"/></head><body>' +
      '<script nonce="n" type="module" async="">;\nimport * as route0 from "/assets/root.js";\n' +
      'import * as route1 from "/assets/home.js";\nwindow.__reactRouterRouteModules = {"root":route0,"home":route1};\n' +
      'import("/assets/entry.client-x.js");</script></body></html>';
    const out = hydrateAfterLoad(doc);
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).toContain('const preloads = ["/assets/a.js"];');
    // A few links a task, with a yield between the groups (a long list in one task is a long task).
    expect(out).toContain(`for (let i = 0; i < preloads.length; i += ${PRELOADS_PER_TASK}) {`);
    expect(out).toContain('if (i > 0) await new Promise((go) => setTimeout(go, 0));');
    expect(out).toContain(`for (const href of preloads.slice(i, i + ${PRELOADS_PER_TASK}))`);
    expect(out).toContain(
      'const [route0, route1] = await Promise.all([import("/assets/root.js"), import("/assets/home.js")]);',
    );
    expect(out).toContain('window.__reactRouterRouteModules = {"root":route0,"home":route1};');
  });
});
