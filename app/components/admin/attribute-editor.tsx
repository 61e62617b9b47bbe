// The attribute editor of a taxonomy or a category (docs/product/back-office.md, "Catalogue"):
// each attribute as a card (names, type, flags, how many ads hold it) with its form — names,
// bilingual options with the ads holding each, unit, required / filterable / shown on card, range —
// its place in the form (up / down) and its deletion; and a form that adds one of any type. Works
// without JavaScript (every field of every type is then shown; the server keeps what the type has).
// A change that would hurt ads comes back with its figure and is confirmed with ConfirmAction.
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import {
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { ConfirmAction } from '~/components/admin/confirm-action.tsx';
import { NameInputs } from '~/components/admin/name-inputs.tsx';
import { FormError, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { ATTRIBUTE_TYPES, attributeSchema, hasOptions, hasRange } from '~/lib/validation/catalogue.ts';
import type { AttributeType } from '../../../server/db/schema.ts';
import type { AdminAttribute, Impact, InheritedAttribute } from '../../../server/domain/admin/catalogue.ts';

/** What the editor's action answers (app/routes/admin/catalogue.server.ts). */
export interface AttributeReply {
  result?: SubmissionResult<string[]> & { form?: string };
  formError?: string;
  impact?: Impact;
}

/** Empty option rows a form offers for new options. */
const BLANK_ROWS = 3;

export function useImpactWords() {
  const { t } = useT('admin');
  const { locale } = useLocale();
  return (impact: Impact) => {
    const parts: string[] = [];
    for (const o of impact.options ?? []) {
      parts.push(t('catalog.impact.option', { count: o.ads, label: locale === 'ar' ? o.ar : o.en }));
    }
    if (impact.missing) parts.push(t('catalog.impact.missing', { count: impact.missing }));
    return [...parts, t('catalog.impact.total', { count: impact.ads })].join(' ');
  };
}

function Submit({ intent, children, form }: { intent: string; children: ReactNode; form?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  return (
    <Button type="submit" name="intent" value={intent} radius="xl" loading={busy} mih={44} form={form}>
      {children}
    </Button>
  );
}

function AttributeFields({
  formId,
  initial,
  existing,
  lastResult,
  children,
}: {
  formId: string;
  initial: Partial<AdminAttribute> & { type: AttributeType };
  /** The attribute being edited (its key and type are fixed), or none for a new one. */
  existing: AdminAttribute | null;
  lastResult: SubmissionResult<string[]> | undefined;
  children: ReactNode;
}) {
  const { t } = useT('admin');
  const { locale } = useLocale();
  const error = useFieldError();
  const number = numberFormat(locale);
  const options = [
    ...(initial.options ?? []),
    ...Array.from({ length: BLANK_ROWS }, () => ({ value: '', ar: '', en: '' })),
  ];
  const [form, fields] = useValidatedForm(formId, attributeSchema, lastResult, {
    key: initial.key ?? '',
    type: initial.type,
    name_ar: initial.name_ar ?? '',
    name_en: initial.name_en ?? '',
    options,
    unit_ar: initial.unit_ar ?? '',
    unit_en: initial.unit_en ?? '',
    required: initial.required ? 'on' : undefined,
    filterable: initial.filterable ? 'on' : undefined,
    shown_on_card: initial.shown_on_card ? 'on' : undefined,
    min: initial.min ?? '',
    max: initial.max ?? '',
  });
  // With JavaScript, only the fields of the chosen type show; without, all of them do.
  const [type, setType] = useState<AttributeType | null>(existing ? existing.type : null);
  const chosen = fields.type.value;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration (the server shows every field).
  useEffect(() => {
    if (!existing) setType(ATTRIBUTE_TYPES.find((v) => v === chosen) ?? initial.type);
  }, []);
  const shows = (pred: (t: AttributeType) => boolean) => type === null || pred(type);
  const rows = fields.options.getFieldList();
  const typeLabel = (v: AttributeType) => t(`catalog.types.${v}`);
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <Stack gap="sm">
        <FormError code={form.errors?.[0]} />
        {existing ? (
          <>
            <input type="hidden" name="id" value={existing.id} />
            <input type="hidden" name="key" value={existing.key} />
            <input type="hidden" name="type" value={existing.type} />
          </>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              {...getInputProps(fields.key, { type: 'text' })}
              key={fields.key.key}
              label={t('catalog.attribute.key')}
              description={t('catalog.attribute.key-hint')}
              dir="ltr"
              error={error(fields.key)}
              withAsterisk
            />
            <NativeSelect
              {...getInputProps(fields.type, { type: 'text' })}
              key={fields.type.key}
              label={t('catalog.attribute.type')}
              data={ATTRIBUTE_TYPES.map((v) => ({ value: v, label: typeLabel(v) }))}
              onChange={(e) => setType(e.currentTarget.value as AttributeType)}
              error={error(fields.type)}
            />
          </SimpleGrid>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NameInputs
            ar={fields.name_ar}
            en={fields.name_en}
            labels={[t('catalog.attribute.name-ar'), t('catalog.attribute.name-en')]}
            error={error}
          />
        </SimpleGrid>
        {shows(hasOptions) ? (
          <Box component="fieldset" m={0} p={0} style={{ border: 0 }}>
            <Text component="legend" fw={600} size="sm" mb={4}>
              {t('catalog.attribute.options')}
            </Text>
            <Text size="xs" c="dimmed" mb="xs">
              {t('catalog.attribute.options-hint')}
            </Text>
            {fields.options.errors?.[0] ? (
              <Text size="sm" c="var(--mantine-color-error)" role="alert" mb="xs">
                {error(fields.options)}
              </Text>
            ) : null}
            <Stack gap="xs">
              {rows.map((row, i) => {
                const f = row.getFieldset();
                const value = String(options[i]?.value ?? '');
                const inUse = existing && value ? (existing.option_ads[value] ?? 0) : 0;
                return (
                  <Card key={row.key} withBorder radius="md" p="xs">
                    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
                      <TextInput
                        {...getInputProps(f.value, { type: 'text' })}
                        key={f.value.key}
                        label={t('catalog.attribute.option-value', { n: i + 1 })}
                        dir="ltr"
                        error={error({ ...f.value, name: 'option-value' })}
                      />
                      <TextInput
                        {...getInputProps(f.ar, { type: 'text' })}
                        key={f.ar.key}
                        label={t('catalog.attribute.option-ar', { n: i + 1 })}
                        dir="rtl"
                        lang="ar"
                        error={error({ ...f.ar, name: 'option-ar' })}
                      />
                      <TextInput
                        {...getInputProps(f.en, { type: 'text' })}
                        key={f.en.key}
                        label={t('catalog.attribute.option-en', { n: i + 1 })}
                        dir="ltr"
                        lang="en"
                        error={error({ ...f.en, name: 'option-en' })}
                      />
                    </SimpleGrid>
                    {inUse > 0 ? (
                      <Text size="xs" c="dimmed" mt={4}>
                        {t('catalog.attribute.option-ads', { count: inUse, n: number.format(inUse) })}
                      </Text>
                    ) : null}
                  </Card>
                );
              })}
            </Stack>
          </Box>
        ) : null}
        {shows((v) => v === 'number') ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              {...getInputProps(fields.unit_ar, { type: 'text' })}
              key={fields.unit_ar.key}
              label={t('catalog.attribute.unit-ar')}
              dir="rtl"
              lang="ar"
              error={error(fields.unit_ar)}
            />
            <TextInput
              {...getInputProps(fields.unit_en, { type: 'text' })}
              key={fields.unit_en.key}
              label={t('catalog.attribute.unit-en')}
              dir="ltr"
              lang="en"
              error={error(fields.unit_en)}
            />
          </SimpleGrid>
        ) : null}
        {shows(hasRange) ? (
          <SimpleGrid cols={{ base: 2 }} spacing="sm">
            <TextInput
              {...getInputProps(fields.min, { type: 'text' })}
              key={fields.min.key}
              inputMode="decimal"
              dir="ltr"
              label={t('catalog.attribute.min')}
              error={error(fields.min)}
            />
            <TextInput
              {...getInputProps(fields.max, { type: 'text' })}
              key={fields.max.key}
              inputMode="decimal"
              dir="ltr"
              label={t('catalog.attribute.max')}
              error={error({ ...fields.max, name: 'max' })}
            />
          </SimpleGrid>
        ) : null}
        <Group gap="lg">
          {(['required', 'filterable', 'shown_on_card'] as const).map((flag) => (
            <Checkbox
              {...getInputProps(fields[flag], { type: 'checkbox' })}
              key={fields[flag].key}
              label={t(`catalog.attribute.${flag}`)}
              styles={{ body: { alignItems: 'center', minHeight: 44 } }}
            />
          ))}
        </Group>
        {children}
      </Stack>
    </Form>
  );
}

function AttributeCard({
  attribute,
  first,
  last,
  reply,
}: {
  attribute: AdminAttribute;
  first: boolean;
  last: boolean;
  reply: AttributeReply | undefined;
}) {
  const { t } = useT('admin');
  const { name, locale } = useLocale();
  const impactWords = useImpactWords();
  const number = numberFormat(locale);
  const mine = (form: string) => (reply?.result?.form === form ? reply : undefined);
  const saved = mine(`save:${attribute.id}`);
  const deleted = mine(`delete:${attribute.id}`);
  const formId = `attribute-${attribute.id}`;
  const deleteImpact = deleted?.impact ?? { ads: attribute.ads_with_values };
  const flags = (['required', 'filterable', 'shown_on_card'] as const).filter((f) => attribute[f]);
  return (
    <Card withBorder radius="lg" padding="md" component="li">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Box>
          <Title order={3} size="h5">
            {name(attribute)}
          </Title>
          <Text size="sm" c="dimmed">
            <bdi dir="ltr">{attribute.key}</bdi> · {t(`catalog.types.${attribute.type}`)}
            {attribute.unit_ar || attribute.unit_en
              ? ` · ${locale === 'ar' ? attribute.unit_ar : attribute.unit_en}`
              : ''}
          </Text>
          <Group gap={4} mt={4}>
            {flags.map((f) => (
              <Badge key={f} variant="light" tt="none">
                {t(`catalog.attribute.${f}`)}
              </Badge>
            ))}
            <Badge variant="outline" color="gray" tt="none">
              {t('catalog.attribute.ads', {
                count: attribute.ads_with_values,
                n: number.format(attribute.ads_with_values),
              })}
            </Badge>
          </Group>
        </Box>
        <Group gap="xs">
          <Form method="post">
            <input type="hidden" name="id" value={attribute.id} />
            <Button
              type="submit"
              name="intent"
              value="up"
              variant="default"
              mih={44}
              miw={44}
              disabled={first}
              aria-label={t('catalog.attribute.up', { name: name(attribute) })}
            >
              <IconArrowUp size={18} aria-hidden />
            </Button>
          </Form>
          <Form method="post">
            <input type="hidden" name="id" value={attribute.id} />
            <Button
              type="submit"
              name="intent"
              value="down"
              variant="default"
              mih={44}
              miw={44}
              disabled={last}
              aria-label={t('catalog.attribute.down', { name: name(attribute) })}
            >
              <IconArrowDown size={18} aria-hidden />
            </Button>
          </Form>
        </Group>
      </Group>
      <details open={!!saved}>
        <Text
          component="summary"
          mt="sm"
          fw={600}
          c="blue"
          style={{ cursor: 'pointer', minHeight: 44, display: 'flex', alignItems: 'center' }}
        >
          {t('catalog.attribute.edit', { name: name(attribute) })}
        </Text>
        <Box mt="sm">
          <AttributeFields formId={formId} initial={attribute} existing={attribute} lastResult={saved?.result}>
            {saved?.impact ? (
              <>
                <input type="hidden" name="confirmed" value={saved.impact.ads} />
                <ConfirmAction
                  label={t('catalog.attribute.save-anyway')}
                  statement={impactWords(saved.impact)}
                  intent="save"
                  open
                />
              </>
            ) : (
              <Group>
                <Submit intent="save">{t('catalog.attribute.save')}</Submit>
              </Group>
            )}
          </AttributeFields>
        </Box>
      </details>
      <Form method="post" style={{ marginTop: 8 }}>
        <input type="hidden" name="id" value={attribute.id} />
        <input type="hidden" name="confirmed" value={deleteImpact.ads} />
        <FormError code={deleted?.formError} />
        <ConfirmAction
          label={t('catalog.attribute.delete', { name: name(attribute) })}
          statement={
            deleteImpact.ads > 0
              ? t('catalog.attribute.delete-impact', { count: deleteImpact.ads, n: number.format(deleteImpact.ads) })
              : t('catalog.attribute.delete-none')
          }
          intent="delete"
          open={!!deleted?.impact}
        />
      </Form>
    </Card>
  );
}

/** The owner's attributes and the form that adds one. */
export function AttributeEditor({
  attributes,
  inherited,
  reply,
}: {
  attributes: AdminAttribute[];
  inherited: InheritedAttribute[] | null;
  reply: AttributeReply | undefined;
}) {
  const { t } = useT('admin');
  const { name } = useLocale();
  const created = reply?.result?.form === 'create' ? reply : undefined;
  return (
    <Stack gap="lg">
      {inherited && inherited.length > 0 ? (
        <Card withBorder radius="lg" padding="md" component="section" aria-labelledby="inherited-title">
          <Title order={2} size="h5" id="inherited-title">
            {t('catalog.attribute.inherited')}
          </Title>
          <Table mt="xs" aria-labelledby="inherited-title">
            <Table.Tbody>
              {inherited.map((a) => (
                <Table.Tr key={a.key}>
                  <Table.Td>{name(a)}</Table.Td>
                  <Table.Td c="dimmed">{t('catalog.attribute.from', { name: name(a.from) })}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      ) : null}
      <Box component="section" aria-labelledby="own-title">
        <Title order={2} size="h4" id="own-title" mb="sm">
          {t('catalog.attribute.own', { count: attributes.length })}
        </Title>
        {attributes.length === 0 ? (
          <Text c="dimmed">{t('catalog.attribute.none')}</Text>
        ) : (
          <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {attributes.map((a, i) => (
              <AttributeCard
                key={a.id}
                attribute={a}
                first={i === 0}
                last={i === attributes.length - 1}
                reply={reply}
              />
            ))}
          </Stack>
        )}
      </Box>
      <Card withBorder radius="lg" padding="md" component="section" aria-labelledby="add-attribute-title">
        <Title order={2} size="h4" id="add-attribute-title" mb="sm">
          {t('catalog.attribute.add')}
        </Title>
        <FormError code={created?.formError} />
        <AttributeFields
          formId="attribute-new"
          initial={{ type: 'select' }}
          existing={null}
          lastResult={created?.result}
        >
          <Group>
            <Submit intent="create">{t('catalog.attribute.create')}</Submit>
          </Group>
        </AttributeFields>
      </Card>
    </Stack>
  );
}
