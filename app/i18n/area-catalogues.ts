// The catalogues of the namespaces only some pages use (`areaNamespaces` in ./config.ts): the
// account, profile, back-office, contact, notifications, chat and favorites pages. The other pages' scripts never carry them
// (docs/performance.md, "First-load JavaScript"). A component that uses one waits for it (./use-t.ts:
// `useT('auth')`, or `useAreaCatalogues('contact')` beside keys of another namespace): it suspends
// until the page's language's catalogue has loaded, at hydration as after a client-side navigation,
// where React Router's transition keeps the previous page on screen meanwhile. The server has
// every catalogue (./resources.server.ts) and never waits.
import { type AreaNamespace, areaNamespaces } from './config.ts';
import type { Catalogue, Translator } from './translator.ts';

const files = import.meta.glob<Catalogue>(
  './locales/*/{auth,profile,admin,contact,notifications,placing,errors,validation,alerts,chats,favorites}.json',
  {
    import: 'default',
  },
);

const areas: ReadonlySet<string> = new Set(areaNamespaces);
export const isAreaNamespace = (ns: string): ns is AreaNamespace => areas.has(ns);

/**
 * A promise as React's `use` reads it: one that has settled carries its outcome (`status`), so a
 * catalogue already in the translator is read at once, without suspending.
 */
type Tracked = Promise<void> & { status?: 'fulfilled'; value?: undefined };

/** By translator, then `<language>/<namespace>`: one promise each, as `use` needs. */
const promises = new WeakMap<Translator, Map<string, Tracked>>();

/**
 * The catalogue of an area's namespace in the translator's language: settled at once when the
 * translator has it (the server's have every one), else loaded into it (again after a failure).
 * Components always pass it to `use`, so a render reads the same promises however soon they settle.
 */
export function areaCatalogue(translator: Translator, ns: AreaNamespace): Promise<void> {
  const locale = translator.locale;
  const key = `${locale}/${ns}`;
  let byKey = promises.get(translator);
  if (!byKey) {
    byKey = new Map();
    promises.set(translator, byKey);
  }
  let promise = byKey.get(key);
  if (!promise) {
    const settled = (p: Tracked) => Object.assign(p, { status: 'fulfilled' as const, value: undefined });
    if (translator.has(ns)) promise = settled(Promise.resolve());
    else {
      const load = files[`./locales/${locale}/${ns}.json`];
      const loading: Tracked = (load ? load() : Promise.reject(new Error(`No catalogue ${key}`))).then(
        (data) => {
          translator.add(ns, data);
          settled(loading);
        },
        (error: unknown) => {
          byKey.delete(key);
          throw error;
        },
      );
      promise = loading;
    }
    byKey.set(key, promise);
  }
  return promise;
}
