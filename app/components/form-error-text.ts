// The words of a form's error (./form-error.tsx, ./form-error-alert.tsx).
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';

/** The words of an error code (`code` or `code:count`), e.g. `repost-cooldown:3`, `too-many:5`. */
export function useFormErrorText() {
  useAreaCatalogues('errors');
  const { t } = useT();
  return (code: string) => {
    // A catalogue key with its namespace (a chat's refusal: its page has loaded its words), said as it is.
    if (/^[a-z]+:[\w-]+\./.test(code)) return t(code);
    const [key, arg] = code.split(':');
    return key === 'too-many'
      ? t('errors:too-many-requests-minutes', { count: Number(arg) })
      : t(`errors:${key}`, { count: arg ? Number(arg) : undefined, defaultValue: t('errors:internal') });
  };
}
