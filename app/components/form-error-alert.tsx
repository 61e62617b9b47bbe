// The alert of a form's error (./form-error.tsx), loaded when there is one: only a page with an
// error to show waits for the `errors` catalogue.
import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useFormErrorText } from './form-error-text.ts';

export default function FormErrorAlert({ code }: { code: string }) {
  const text = useFormErrorText();
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
      {text(code)}
    </Alert>
  );
}
