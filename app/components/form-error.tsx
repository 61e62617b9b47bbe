// A form's error as a whole (rate limits, refusals), apart from the form helpers of form-parts.tsx:
// pages that only show one (an ad, search) load neither Conform nor Zod for it.
import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useT } from '~/i18n/use-t.ts';

/** The words of an error code (`code` or `code:count`), e.g. `repost-cooldown:3`, `too-many:5`. */
export function useFormErrorText() {
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
  const text = useFormErrorText();
  if (typeof code !== 'string' || !code) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
      {text(code)}
    </Alert>
  );
}
