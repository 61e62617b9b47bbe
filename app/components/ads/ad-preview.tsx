import { Alert, Button, Group, Image, Modal, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { normaliseNumber, PRICED, type PriceType } from '~/lib/validation/ads.ts';
import type { Attribute, City } from '../../../server/domain/catalog.ts';
import { usePrice } from './ad-parts.tsx';

/** What the preview shows: the form as it is now (FormData) and the uploaded photos' thumbnails. */
export interface AdPreviewInput {
  form: FormData;
  photos: string[];
}

/**
 * The ad as buyers will see it, from the form as it is (docs/product-notes.md, "Preview"): title, price,
 * photos, place, details with units and option names, description. Nothing is sent; "Send" submits
 * the form as its own button does.
 */
export function AdPreview({
  input,
  attributes,
  cities,
  submitLabel,
  onClose,
  onSubmit,
}: {
  input: AdPreviewInput | null;
  attributes: Attribute[];
  cities: City[];
  submitLabel: string;
  onClose: () => void;
  onSubmit: () => void;
}) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const { locale, name } = useLocale();
  const price = usePrice();
  const form = input?.form;
  const text = (key: string) => String(form?.get(key) ?? '').trim();
  const priceType = (text('price_type') || 'fixed') as PriceType;
  const typedPrice = normaliseNumber(text('price'));
  const amount = typedPrice === '' ? Number.NaN : Number(typedPrice);
  const city = cities.find((c) => String(c.id) === text('city'));
  const area = city?.areas.find((a) => String(a.id) === text('area'));
  const place = [area ? name(area) : null, city ? name(city) : null]
    .filter(Boolean)
    .join(locale === 'ar' ? '، ' : ', ');
  const details = attributes
    .map((a) => {
      const raw = form?.getAll(`attrs.${a.key}`).map(String).filter(Boolean) ?? [];
      if (raw.length === 0) return null;
      const shown =
        a.type === 'boolean'
          ? t('placing:preview.yes')
          : raw.map((v) => {
              const option = a.options.find((o) => o.value === v);
              return option ? (locale === 'ar' ? option.ar : option.en) : v;
            });
      const unit = (locale === 'ar' ? a.unit_ar : a.unit_en) ?? '';
      return {
        key: a.key,
        label: name(a),
        value: `${[shown].flat().join(locale === 'ar' ? '، ' : ', ')}${unit ? ` ${unit}` : ''}`,
      };
    })
    .filter((d): d is { key: string; label: string; value: string } => d !== null);
  return (
    <Modal
      opened={input !== null}
      onClose={onClose}
      title={t('placing:preview.title')}
      size="lg"
      radius="lg"
      closeButtonProps={{ 'aria-label': t('placing:preview.close') }}
    >
      <Stack gap="md">
        <Alert color="gray" variant="light">
          {t('placing:preview.note')}
        </Alert>
        {input?.photos.length ? (
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
            {input.photos.map((src, i) => (
              <Image
                key={src}
                src={src}
                alt={t('placing:preview.photo', { n: i + 1 })}
                radius="md"
                h={110}
                fit="cover"
              />
            ))}
          </SimpleGrid>
        ) : (
          <Text c="dimmed" size="sm">
            {t('placing:preview.no-photos')}
          </Text>
        )}
        <Title order={2} size="h3" dir="auto">
          {text('title') || t('placing:preview.no-title')}
        </Title>
        <Text fw={700} c="brand" size="lg">
          {PRICED.includes(priceType) && !Number.isFinite(amount)
            ? t('placing:preview.no-price')
            : price({
                price: PRICED.includes(priceType) ? amount : null,
                currency: text('currency') || 'LYD',
                price_type: priceType,
              })}
        </Text>
        {place ? (
          <Group gap={6} c="dimmed">
            <IconMapPin size={16} aria-hidden />
            <Text size="sm">{place}</Text>
          </Group>
        ) : null}
        {details.length ? (
          <Table striped withTableBorder aria-label={t('page.details')}>
            <Table.Tbody>
              {details.map((d) => (
                <Table.Tr key={d.key}>
                  <Table.Th scope="row" w="40%">
                    {d.label}
                  </Table.Th>
                  <Table.Td>{d.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
        <Text dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
          {text('description') || t('placing:preview.no-description')}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" radius="xl" onClick={onClose}>
            {t('placing:preview.back')}
          </Button>
          <Button radius="xl" onClick={onSubmit}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
