// The translation hook of every component: `const { t } = useT('search')`. react-i18next's
// `useTranslation` copies the whole i18next instance (every property descriptor) for each
// component that calls it on the server, where nothing is kept between renders: a tenth of the
// server's time on a listing page. Here `t` comes from the provider's instance, one fixed function
// per instance and namespace, made once and reused (an instance never changes language: each
// locale has its own, and switching language loads the other locale's pages). A key asked for
// without options always reads the same, so its text is kept after the first time. The namespaces
// of the account, profile, back-office and contact pages are not in the browser's first catalogue:
// asking for one waits until it has loaded (./area-catalogues.ts).
import type { i18n, TFunction } from 'i18next';
import { use, useContext } from 'react';
import { I18nContext } from 'react-i18next';
import { areaCatalogue, isAreaNamespace } from './area-catalogues.ts';
import type { AreaNamespace, Namespace } from './config.ts';

const fixed = new WeakMap<i18n, Map<string, TFunction>>();

/** `t`, remembering the text of each key asked for without options. */
function remembering(fixedT: TFunction, ns: Namespace): TFunction {
  const t = fixedT as unknown as (...args: unknown[]) => string;
  const plain = new Map<string, string>();
  const remembered = (key: unknown, ...rest: unknown[]) => {
    if (rest.length > 0 || typeof key !== 'string') return t(key, ...rest);
    let text = plain.get(key);
    if (text === undefined) {
      text = t(key);
      plain.set(key, text);
    }
    return text;
  };
  // `<Trans t={t}>` reads the namespace from `t.ns`; without it, it asks i18next's default namespace
  // and shows the raw key.
  return Object.assign(remembered, { ns }) as unknown as TFunction;
}

/**
 * Waits (the component suspends) until the catalogues of these area namespaces are in the page's
 * instance: for a component that uses their keys through the `t` of another namespace.
 */
export function useAreaCatalogues(...namespaces: AreaNamespace[]): void {
  const { i18n } = useContext(I18nContext);
  for (const ns of namespaces) use(areaCatalogue(i18n, ns));
}

export function useT(ns: Namespace = 'common'): { t: TFunction } {
  const { i18n } = useContext(I18nContext);
  if (isAreaNamespace(ns)) use(areaCatalogue(i18n, ns));
  let byNamespace = fixed.get(i18n);
  if (!byNamespace) {
    byNamespace = new Map();
    fixed.set(i18n, byNamespace);
  }
  let t = byNamespace.get(ns);
  if (!t) {
    t = remembering(i18n.getFixedT(null, ns) as TFunction, ns);
    byNamespace.set(ns, t);
  }
  return { t };
}
