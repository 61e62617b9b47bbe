// The catalogue as the browser gets it (app/i18n/config.ts): every page carries the namespaces of
// `pageNamespaces` (app/i18n/bundle-<locale>.ts); an area's namespace (`areaNamespaces`) is loaded
// when a component asks for it (app/i18n/area-catalogues.ts), and `mail` never reaches the browser.
// `useT('auth')` waits for its catalogue by itself; a module that uses an area's keys through the
// `t` of another namespace (`t('contact:…')`) must wait for them with `useAreaCatalogues`, or a page
// could show catalogue keys instead of words. Read from the sources of every module a route reaches.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { areaCatalogue } from '~/i18n/area-catalogues.ts';
import ar from '~/i18n/bundle-ar.ts';
import en from '~/i18n/bundle-en.ts';
import { type AreaNamespace, areaNamespaces, namespaces, pageNamespaces } from '~/i18n/config.ts';
import { i18nFor } from '~/i18n/resources.server.ts';
import { createTranslator } from '~/i18n/translator.ts';
import { I18nContext, useT } from '~/i18n/use-t.ts';

const app = path.resolve('app');
const source = (file: string) => readFileSync(file, 'utf8');

/** The app modules a module imports, statically or with import(); server-only modules left out. */
function importsOf(file: string): string[] {
  const text = source(file);
  const specs = [
    ...[...text.matchAll(/^import (?!type )(?:[^'"]*? from )?'([^']+)';/gm)].map((m) => m[1] as string),
    ...[...text.matchAll(/import\('([^']+)'\)/g)].map((m) => m[1] as string),
  ];
  return specs.flatMap((spec) => {
    const target = spec.startsWith('~/') ? path.join(app, spec.slice(2)) : path.resolve(path.dirname(file), spec);
    return target.startsWith(`${app}/`) && !/\.server\.tsx?$/.test(target) && existsSync(target) ? [target] : [];
  });
}

/** Every module the browser may run: the root, the route modules of app/routes.ts and what they import. */
function clientModules(): Set<string> {
  const routes = [...source(path.join(app, 'routes.ts')).matchAll(/'((?:routes|components)\/[^']+\.tsx)'/g)];
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const f of importsOf(file)) walk(f);
  };
  walk(path.join(app, 'root.tsx'));
  for (const m of routes) walk(path.join(app, m[1] as string));
  return seen;
}

/** The area namespaces whose keys a module names through another namespace's `t`, and those it waits for. */
function areaUse(file: string): { named: AreaNamespace[]; waited: AreaNamespace[] } {
  const text = source(file);
  const waits = [...text.matchAll(/useAreaCatalogues\(([^)]*)\)/g)].map((m) => m[1] as string).join(',');
  return {
    named: areaNamespaces.filter((ns) => new RegExp(`['"\`]${ns}:[\\w$]|ns: ?'${ns}'`).test(text)),
    waited: areaNamespaces.filter((ns) => text.includes(`useT('${ns}')`) || waits.includes(`'${ns}'`)),
  };
}

/** A component using the `auth` namespace. */
const Words = () => <>{useT('auth').t('login.title')}</>;

describe('catalogues in the browser', () => {
  it('split every namespace once: on every page, with an area, or on the server only', () => {
    expect([...pageNamespaces, ...areaNamespaces, 'mail'].sort()).toEqual([...namespaces].sort());
    expect(Object.keys(ar).sort()).toEqual([...pageNamespaces].sort());
    expect(Object.keys(en).sort()).toEqual([...pageNamespaces].sort());
  });

  it('wait for an area’s catalogue wherever its keys are used through another namespace', () => {
    const modules = clientModules();
    expect(modules.size).toBeGreaterThan(50);
    const missing = [...modules].flatMap((file) => {
      const { named, waited } = areaUse(file);
      const unwaited = named.filter((ns) => !waited.includes(ns));
      // A module of plain functions that are given a `t` (no hooks of its own, e.g.
      // app/lib/validation/error-words.ts): every module importing it waits instead.
      if (!source(file).includes("from '~/i18n/use-t.ts'")) {
        const importers = [...modules].filter((m) => importsOf(m).includes(file));
        return importers.flatMap((m) =>
          unwaited
            .filter((ns) => !areaUse(m).waited.includes(ns))
            .map((ns) => `${path.relative(app, m)} uses ${ns} through ${path.relative(app, file)}`),
        );
      }
      return unwaited.map((ns) => `${path.relative(app, file)} uses ${ns}`);
    });
    expect(missing).toEqual([]);
    // What the check reads: a use through `t('…:…')` and the waits that cover it.
    const dashboard = areaUse(path.join(app, 'routes/admin/dashboard.tsx'));
    expect(dashboard.named).toEqual(['contact']);
    expect(dashboard.waited).toEqual(['admin', 'contact']);
    // A module of functions given a `t` is waited for by those that import it.
    expect(areaUse(path.join(app, 'lib/validation/error-words.ts')).named).toEqual(['errors', 'validation']);
    expect(areaUse(path.join(app, 'lib/validation/use-error-words.ts')).waited).toEqual(['errors', 'validation']);
  });

  it('keep the page-wide components on the page-wide namespaces', () => {
    for (const file of ['components/layouts/account-button.tsx', 'components/ads/ad-parts.tsx', 'root.tsx']) {
      const text = source(path.join(app, file));
      for (const ns of areaNamespaces)
        expect(text, `${file}: ${ns}`).not.toMatch(new RegExp(`useT\\('${ns}'\\)|'${ns}:`));
    }
  });

  it('load an area’s catalogue in the page’s language, once, and useT waits for it', async () => {
    const i18n = createTranslator('en', en);
    expect(i18n.has('auth')).toBe(false);
    const page = () =>
      renderToString(
        <I18nContext value={i18n}>
          <Suspense fallback="waiting">
            <Words />
          </Suspense>
        </I18nContext>,
      );
    // Before it has loaded, the component suspends.
    expect(page()).toContain('waiting');
    const first = areaCatalogue(i18n, 'auth');
    expect(areaCatalogue(i18n, 'auth')).toBe(first);
    await first;
    expect(i18n.has('auth')).toBe(true);
    expect(i18n.t('auth:login.title')).not.toBe(i18nFor('ar').t('auth:login.title'));
    expect(page()).toBe(`<!--$-->${i18nFor('en').t('auth:login.title')}<!--/$-->`);
    expect(areaCatalogue(i18n, 'auth')).toMatchObject({ status: 'fulfilled' });
    // The server's translators have every catalogue: theirs are settled from the start, never waited for.
    for (const ns of areaNamespaces) expect(areaCatalogue(i18nFor('ar'), ns)).toMatchObject({ status: 'fulfilled' });
  });
});
