import { type FieldMetadata, getInputProps, type SubmissionResult, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Anchor, Button, PasswordInput, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useNavigation } from 'react-router';
import type { z } from 'zod';
import { useT } from '~/i18n/use-t.ts';
import { useErrorWords } from '~/lib/validation/use-error-words.ts';

/** The translated first error of a field, or undefined. */
export function useFieldError() {
  const words = useErrorWords();
  return (field: Pick<FieldMetadata<unknown>, 'errors' | 'name'>) => {
    const code = field.errors?.[0];
    return code ? words(code, field.name) : undefined;
  };
}

// A page that only shows a form-level error needs neither Conform nor Zod in the browser.
export { FormError, useFormErrorText } from './form-error.tsx';

/**
 * A Conform form validated by the same Zod schema as the server: on blur and change in the browser,
 * always on the server; `lastResult` is the action's reply.
 */
export function useValidatedForm<Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  id: string,
  schema: Schema,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: Record<string, unknown>,
) {
  return useForm<z.input<Schema>, z.output<Schema>, string[]>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    // First on leaving a field, then on every change once the field has shown an error.
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/** "No account yet? Create one" under the sign-in and registration forms, keeping `redirect=`. */
export function SwitchFormLink({
  question,
  label,
  to,
  redirectTo,
}: {
  question: string;
  label: string;
  to: string;
  redirectTo: string;
}) {
  return (
    <Text size="sm" ta="center">
      {question}{' '}
      <Anchor component={Link} to={`${to}${redirectTo ? `?redirect=${encodeURIComponent(redirectTo)}` : ''}`}>
        {label}
      </Anchor>
    </Text>
  );
}

type Field = FieldMetadata<unknown, any, string[]>;

/** A required email input, left-to-right in both languages, with its translated error. */
export function EmailField({
  field,
  label,
  autoComplete = 'email',
}: {
  field: Field;
  label: string;
  autoComplete?: string;
}) {
  const fieldError = useFieldError();
  return (
    <TextInput
      {...getInputProps(field, { type: 'email' })}
      key={field.key}
      label={label}
      autoComplete={autoComplete}
      dir="ltr"
      error={fieldError(field)}
      withAsterisk
    />
  );
}

/**
 * Email or phone number (sign-in, sign-up, forgotten password): typed left to right. The account
 * pages give its words (the `auth` catalogue comes with them: app/i18n/area-catalogues.ts).
 */
export function LoginField({
  field,
  label,
  hint,
  autoComplete,
}: {
  field: Field;
  label: string;
  hint: string;
  autoComplete: string;
}) {
  const fieldError = useFieldError();
  return (
    <TextInput
      {...getInputProps(field, { type: 'text' })}
      key={field.key}
      label={label}
      description={hint}
      autoComplete={autoComplete}
      autoCapitalize="none"
      spellCheck={false}
      dir="ltr"
      error={fieldError(field)}
      withAsterisk
    />
  );
}

/** The 6-digit code from an SMS; phones offer to fill it in (`one-time-code`). */
export function CodeField({ field, label }: { field: Field; label: string }) {
  const fieldError = useFieldError();
  return (
    <TextInput
      {...getInputProps(field, { type: 'text' })}
      key={field.key}
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      dir="ltr"
      styles={{ input: { letterSpacing: '0.4em', fontSize: 'var(--mantine-font-size-lg)' } }}
      error={fieldError(field)}
      withAsterisk
    />
  );
}

/** A required password input with its translated error. */
export function PasswordField({
  field,
  label,
  description,
  autoComplete,
}: {
  field: Field;
  label: string;
  description?: string;
  autoComplete: 'current-password' | 'new-password';
}) {
  const fieldError = useFieldError();
  const { t } = useT();
  return (
    <PasswordInput
      {...getInputProps(field, { type: 'password' })}
      key={field.key}
      visibilityToggleButtonProps={{ 'aria-label': t('show-password') }}
      label={label}
      description={description}
      autoComplete={autoComplete}
      error={fieldError(field)}
      withAsterisk
    />
  );
}

/** The form's submit button; shows progress while the form is being sent. */
export function SubmitButton({ children }: { children: ReactNode }) {
  const navigation = useNavigation();
  return (
    <Button type="submit" size="md" radius="xl" loading={navigation.state === 'submitting'}>
      {children}
    </Button>
  );
}
