// The site's translator, the same on the server and in the browser (ADR 0016,
// docs/decisions/0016-own-translator.md). It reads the catalogues of app/i18n/locales/{ar,en}/*.json
// as they are and does what they use, the way i18next did for them:
// - `ns:key.path`: a namespace before the colon (else the `t`'s own), nested keys joined by dots;
// - plurals by `count` (a number): `key_zero` first when it is 0 (English has some), then the form
//   Intl.PluralRules picks in the language (Arabic: zero, one, two, few, many, other), then `key`;
// - `{{name}}` replaced by the option of that name, as it is (no HTML escaping: React escapes);
//   `{{name, number}}` through the site's number format (app/lib/intl.ts: Western digits);
//   a placeholder whose option is absent stays as written, one given as undefined or null is empty;
// - `defaultValue` when the key has no text; else the key itself, without its namespace.
// Nothing else: no `$t()` nesting, context, arrays or objects (a key naming an object is missing).
import { numberFormat } from '../lib/intl.ts';
import type { Locale } from './config.ts';

export interface Catalogue {
  readonly [key: string]: string | Catalogue;
}
/** A language's catalogues by namespace. */
export type Catalogues = Readonly<Record<string, Catalogue>>;

export interface TOptions {
  /** Chooses the plural form (`key_one`, `key_few`…) and is a variable like the others. */
  count?: number;
  /** The text when the key has none (interpolated like a catalogue's). */
  defaultValue?: string;
  [variable: string]: unknown;
}
export type TFunction = (key: string, options?: TOptions) => string;

export interface Translator {
  readonly locale: Locale;
  /** `t` of the `common` namespace; other namespaces by prefix: `t('auth:login.title')`. */
  readonly t: TFunction;
  /** One `t` per namespace, always the same function. */
  fixed(ns: string): TFunction;
  has(ns: string): boolean;
  add(ns: string, catalogue: Catalogue): void;
}

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

function lookup(catalogue: Catalogue | undefined, path: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of path.split('.')) {
    if (node === undefined || typeof node === 'string' || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function createTranslator(locale: Locale, catalogues: Catalogues, defaultNs = 'common'): Translator {
  const store: Record<string, Catalogue> = { ...catalogues };
  const plural = new Intl.PluralRules(locale);

  const interpolate = (text: string, options: TOptions) =>
    text.replace(PLACEHOLDER, (match, inner: string) => {
      const name = inner.trim();
      const comma = name.indexOf(',');
      const variable = comma < 0 ? name : name.slice(0, comma).trim();
      let value = options[variable];
      if (value === undefined) return Object.hasOwn(options, name) ? '' : match;
      if (value !== null && comma >= 0 && name.slice(comma + 1).trim() === 'number')
        value = numberFormat(locale).format(value as number);
      return value === null ? '' : String(value);
    });

  const translate = (fullKey: string, options: TOptions | undefined, ownNs: string): string => {
    const colon = fullKey.indexOf(':');
    const ns = colon < 0 ? ownNs : fullKey.slice(0, colon);
    const key = colon < 0 ? fullKey : fullKey.slice(colon + 1);
    const catalogue = store[ns];
    const count = options?.count;
    let text: string | undefined;
    if (typeof count === 'number') {
      if (count === 0) text = lookup(catalogue, `${key}_zero`);
      text ??= lookup(catalogue, `${key}_${plural.select(count)}`);
    }
    text ??= lookup(catalogue, key);
    if (text === undefined && options?.defaultValue !== undefined) text = options.defaultValue;
    if (text === undefined) return key;
    return options ? interpolate(text, options) : text;
  };

  const fixedByNs = new Map<string, TFunction>();
  const fixed = (ns: string): TFunction => {
    let t = fixedByNs.get(ns);
    if (!t) {
      t = (key, options) => translate(key, options, ns);
      fixedByNs.set(ns, t);
    }
    return t;
  };

  return {
    locale,
    t: fixed(defaultNs),
    fixed,
    has: (ns) => Object.hasOwn(store, ns),
    add: (ns, catalogue) => {
      store[ns] = catalogue;
    },
  };
}
