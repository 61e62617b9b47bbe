import type { FieldMetadata } from '@conform-to/react';
import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { translateError } from '~/lib/validation/rules.ts';

/** The translated first error of a field, or undefined. */
export function useFieldError() {
  const { t } = useTranslation();
  return (field: Pick<FieldMetadata<unknown>, 'errors' | 'name'>) => {
    const code = field.errors?.[0];
    return code ? translateError(t, code, field.name) : undefined;
  };
}

/**
 * A form-level error: `too-many:<minutes>` (rate limit) or an error code of the `errors`
 * namespace (e.g. `invalid-credential`).
 */
export function FormError({ code }: { code: unknown }) {
  const { t } = useTranslation();
  if (typeof code !== 'string' || !code) return null;
  const [key, arg] = code.split(':');
  const text =
    key === 'too-many'
      ? t('errors:too-many-requests-minutes', { count: Number(arg) })
      : t(`errors:${key}`, { defaultValue: t('errors:internal') });
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
      {text}
    </Alert>
  );
}
