// The form of a city or an area (docs/product/back-office.md, "Cities"): names in both languages,
// the slug, and the centre picked on the map (the place-an-ad form's pin picker) or typed into
// the two number fields, which are what the form sends (so it works without JavaScript).
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Button, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { FormError, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { type Pin, PinPicker } from '~/components/map/pin-picker.tsx';
import { useT } from '~/i18n/use-t.ts';
import { placeSchema } from '~/lib/validation/places.ts';

export interface PlaceValues {
  slug: string;
  name_ar: string;
  name_en: string;
  lat: number;
  lng: number;
}

const parse = (v: string) => {
  const n = Number(v.trim().replace('٫', '.'));
  return v.trim() !== '' && Number.isFinite(n) ? n : null;
};

export function PlaceForm({
  id,
  title,
  intent,
  submit,
  values,
  lastResult,
  formError,
  hidden,
  centre,
}: {
  id: string;
  title: string;
  intent: string;
  submit: string;
  values?: PlaceValues;
  lastResult: SubmissionResult<string[]> | null | undefined;
  formError?: string;
  /** Extra hidden fields (the area being edited). */
  hidden?: Record<string, string>;
  /** Where the map opens for a new place (a new area: its city's centre). */
  centre?: Pin;
}) {
  const { t } = useT('admin');
  const fieldError = useFieldError();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(`place-${id}`, placeSchema, lastResult, values as never);
  const [lat, setLat] = useState(values ? String(values.lat) : '');
  const [lng, setLng] = useState(values ? String(values.lng) : '');
  const pin: Pin | null =
    parse(lat) !== null && parse(lng) !== null ? { lat: parse(lat) ?? 0, lng: parse(lng) ?? 0 } : null;
  // The two coordinates are controlled (the map writes them): Conform's default value stays out.
  const { defaultValue: _lat, ...latProps } = getInputProps(fields.lat, { type: 'text' });
  const { defaultValue: _lng, ...lngProps } = getInputProps(fields.lng, { type: 'text' });
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const text = (f: typeof fields.name_ar, label: string, dir?: 'rtl' | 'ltr') => (
    <TextInput
      {...getInputProps(f, { type: 'text' })}
      key={f.key}
      label={label}
      dir={dir}
      error={fieldError(f)}
      required
    />
  );
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby={`${id}-title`}>
      <Form method="post" {...getFormProps(form)} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id={`${id}-title`}>
            {title}
          </Title>
          <FormError code={formError} />
          {Object.entries(hidden ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {text(fields.name_ar, t('places.fields.name_ar'), 'rtl')}
            {text(fields.name_en, t('places.fields.name_en'), 'ltr')}
            {text(fields.slug, t('places.fields.slug'), 'ltr')}
          </SimpleGrid>
          <PinPicker
            value={pin}
            inputs={false}
            removable={false}
            centre={centre}
            noneText={t('places.map-none')}
            onChange={(next) => {
              if (!next) return;
              setLat(String(next.lat));
              setLng(String(next.lng));
            }}
          />
          <SimpleGrid cols={2} spacing="sm">
            <TextInput
              {...latProps}
              key={fields.lat.key}
              inputMode="decimal"
              dir="ltr"
              label={t('places.fields.lat')}
              value={lat}
              onChange={(e) => setLat(e.currentTarget.value)}
              error={fieldError(fields.lat)}
              required
            />
            <TextInput
              {...lngProps}
              key={fields.lng.key}
              inputMode="decimal"
              dir="ltr"
              label={t('places.fields.lng')}
              value={lng}
              onChange={(e) => setLng(e.currentTarget.value)}
              error={fieldError(fields.lng)}
              required
            />
          </SimpleGrid>
          <div>
            <Button type="submit" name="intent" value={intent} loading={busy}>
              {submit}
            </Button>
          </div>
        </Stack>
      </Form>
    </Paper>
  );
}
