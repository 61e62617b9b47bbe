// Hydration waits until the page's own content has loaded (docs/decisions/0013-hydrate-after-load.md).
//
// React Router's <Scripts> writes a `<link rel="modulepreload">` into the head for every script the
// page hydrates with (about 55 files, 200–260 KB gzipped) and an inline module script that imports
// the route modules statically, so a phone fetches all of it at once with the stylesheet, the font
// and the first photos, and on a slow link the photos and the text wait behind the scripts. The
// server page is complete without them (every link and form works without JavaScript), so the
// scripts are better fetched once the page has loaded. This rewrites the rendered document:
// - the head loses its modulepreload links;
// - the inline module script first waits for the window's `load` event (or BOOT_WAIT_MS after the
//   document was parsed, whichever comes first: a photo that hangs never holds the page back), and
//   for the page's first paint (or BOOT_WAIT_MS more: a tab opened in the background paints only
//   when shown), which on a phone can come after `load`: the links' work stays off the first frame,
//   and Lighthouse's simulation, which counts a script requested before the first paint as holding
//   it back, no longer puts them on the page's critical path (docs/performance.md, "Pages on a
//   phone"); then it adds the same modulepreload links (every file is fetched in parallel, as before) and
//   imports the route modules dynamically instead of statically, and goes on as React Router wrote it.
//   The links go in PRELOADS_PER_TASK at a time, each group in a task of its own: a phone spends a
//   millisecond or more on each link, and fifty of them in one go were the longest task of a page's
//   load (docs/performance.md, "Pages on a phone").
// A document without that script (a page rendered without <Scripts>) is returned unchanged.

/** How long after the document was parsed hydration starts at the latest, in ms. */
export const BOOT_WAIT_MS = 1000;
/** How many modulepreload links are added in one task. */
export const PRELOADS_PER_TASK = 4;

const PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
/** React Router's inline module script, up to the end of its static route-module imports. */
const BOOT = /(<script[^>]*\stype="module"[^>]*>)\s*;?\s*((?:import \* as [\w$]+ from "[^"]+";\s*)+)/;
const IMPORT = /import \* as ([\w$]+) from ("[^"]+");/g;

/** The document with its hydration scripts fetched after the page's load (see above). */
export function hydrateAfterLoad(html: string): string {
  const boot = BOOT.exec(html);
  if (!boot) return html;
  const headEnd = html.indexOf('</head>');
  if (headEnd < 0 || headEnd > boot.index) return html;
  const hrefs: string[] = [];
  const head = html.slice(0, headEnd).replace(PRELOAD, (_link, href: string) => {
    hrefs.push(href);
    return '';
  });
  const [script, tag, imports] = boot as unknown as [string, string, string];
  const modules = [...imports.matchAll(IMPORT)].map(([, name, href]) => ({ name, href }));
  const rewritten =
    `${tag}await new Promise((go) => {` +
    ` if (document.readyState === 'complete') go();` +
    ` else { addEventListener('load', go, { once: true }); setTimeout(go, ${BOOT_WAIT_MS}); } });\n` +
    `await new Promise((go) => {` +
    ` if (performance.getEntriesByType('paint').length > 0 || !PerformanceObserver.supportedEntryTypes?.includes('paint')) return go();` +
    ` const seen = new PerformanceObserver(() => { seen.disconnect(); go(); }); seen.observe({ type: 'paint' });` +
    ` setTimeout(go, ${BOOT_WAIT_MS}); });\n` +
    `const preloads = ${JSON.stringify(hrefs)};\n` +
    `for (let i = 0; i < preloads.length; i += ${PRELOADS_PER_TASK}) {` +
    ` if (i > 0) await new Promise((go) => setTimeout(go, 0));` +
    ` for (const href of preloads.slice(i, i + ${PRELOADS_PER_TASK})) {` +
    ` const link = document.createElement('link'); link.rel = 'modulepreload'; link.href = href;` +
    ` document.head.append(link); } }\n` +
    `const [${modules.map((m) => m.name).join(', ')}] = await Promise.all([${modules
      .map((m) => `import(${m.href})`)
      .join(', ')}]);\n`;
  return head + html.slice(headEnd, boot.index) + rewritten + html.slice(boot.index + script.length);
}
