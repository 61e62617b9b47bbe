// The translation hook of every component: `const { t } = useT('search')`. The page's translator
// (./translator.ts) comes from `I18nContext`, provided by app/entry.server.tsx and
// app/entry.client.tsx; `t` is one fixed function per translator and namespace, made once and reused
// (a translator never changes language: each locale has its own, and switching language loads the
// other locale's pages). A key asked for without options always reads the same, so its text is
// kept after the first time. The namespaces of the account, profile, back-office and contact pages
// are not in the browser's first catalogue: asking for one waits until it has loaded
// (./area-catalogues.ts).
import { createContext, use, useContext } from 'react';
import { areaCatalogue, isAreaNamespace } from './area-catalogues.ts';
import type { AreaNamespace, Namespace } from './config.ts';
import type { TFunction, Translator } from './translator.ts';

/** The page's translator: `<I18nContext value={translator}>` around the app. */
export const I18nContext = createContext<Translator | null>(null);

function useTranslator(): Translator {
  const translator = useContext(I18nContext);
  if (!translator) throw new Error('No translator: render inside <I18nContext value={…}>');
  return translator;
}

const remembered = new WeakMap<Translator, Map<string, TFunction>>();

/** `t`, remembering the text of each key asked for without options. */
function remembering(t: TFunction): TFunction {
  const plain = new Map<string, string>();
  return (key, options) => {
    if (options !== undefined) return t(key, options);
    let text = plain.get(key);
    if (text === undefined) {
      text = t(key);
      plain.set(key, text);
    }
    return text;
  };
}

/**
 * Waits (the component suspends) until the catalogues of these area namespaces are in the page's
 * translator: for a component that uses their keys through the `t` of another namespace.
 */
export function useAreaCatalogues(...namespaces: AreaNamespace[]): void {
  const translator = useTranslator();
  for (const ns of namespaces) use(areaCatalogue(translator, ns));
}

export function useT(ns: Namespace = 'common'): { t: TFunction } {
  const translator = useTranslator();
  if (isAreaNamespace(ns)) use(areaCatalogue(translator, ns));
  let byNamespace = remembered.get(translator);
  if (!byNamespace) {
    byNamespace = new Map();
    remembered.set(translator, byNamespace);
  }
  let t = byNamespace.get(ns);
  if (!t) {
    t = remembering(translator.fixed(ns));
    byNamespace.set(ns, t);
  }
  return { t };
}
