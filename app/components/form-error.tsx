// A form's error as a whole (rate limits, refusals), apart from the form helpers of form-parts.tsx:
// pages that only show one (an ad, search) load neither Conform nor Zod for it.
import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
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

/**
 * A form-level error: `too-many:<minutes>` (rate limit) or an error code of the `errors`
 * namespace (e.g. `invalid-credential`), with an optional count (`allowance-exceeded:5`).
 */
export function FormError({ code }: { code: unknown }) {
  return typeof code === 'string' && code ? <FormErrorAlert code={code} /> : null;
}

/** The alert itself: only a page with an error to show waits for the `errors` catalogue. */
function FormErrorAlert({ code }: { code: string }) {
  const text = useFormErrorText();
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
      {text(code)}
    </Alert>
  );
}
