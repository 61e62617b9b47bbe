// A back-office form field's first error in words: the screen's own refusals (`admin:<key>`, e.g. a
// role name already taken) from the admin catalogue, anything else from the shared validation words.
import type { FieldMetadata } from '@conform-to/react';
import { useT } from '~/i18n/use-t.ts';
import { useErrorWords } from '~/lib/validation/use-error-words.ts';

export function useAdminFieldError() {
  const { t } = useT('admin');
  const words = useErrorWords();
  return (field: Pick<FieldMetadata<unknown>, 'errors' | 'name'>) => {
    const code = field.errors?.[0];
    if (!code) return undefined;
    return code.startsWith('admin:') ? t(code) : words(code, field.name);
  };
}
