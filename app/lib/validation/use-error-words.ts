// Error codes in words inside a component (./error-words.ts), once their catalogues have loaded.
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { translateError } from './error-words.ts';

/**
 * `translateError` in a component: it waits for the `errors` and `validation` catalogues, which a
 * page's scripts load only when there are errors to word (app/i18n/config.ts, `areaNamespaces`).
 */
export function useErrorWords(): (code: string, field: string) => string {
  useAreaCatalogues('errors', 'validation');
  const { t } = useT();
  return (code, field) => translateError(t, code, field);
}
