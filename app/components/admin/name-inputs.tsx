// A thing's name in both languages, as the back office's forms ask for it: the Arabic name right to
// left, the English one left to right, both required.
import { type FieldMetadata, getInputProps } from '@conform-to/react';
import { TextInput } from '@mantine/core';

export function NameInputs<Schema, FormSchema extends Record<string, unknown>>({
  ar,
  en,
  labels,
  error,
}: {
  ar: FieldMetadata<Schema, FormSchema, string[]>;
  en: FieldMetadata<Schema, FormSchema, string[]>;
  /** The Arabic field's label, then the English one's. */
  labels: readonly [string, string];
  error: (field: FieldMetadata<Schema, FormSchema, string[]>) => string | undefined;
}) {
  return (
    <>
      <TextInput
        {...getInputProps(ar, { type: 'text' })}
        key={ar.key}
        label={labels[0]}
        dir="rtl"
        lang="ar"
        error={error(ar)}
        withAsterisk
      />
      <TextInput
        {...getInputProps(en, { type: 'text' })}
        key={en.key}
        label={labels[1]}
        dir="ltr"
        lang="en"
        error={error(en)}
        withAsterisk
      />
    </>
  );
}
