import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from '@conform-to/react';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NativeSelect,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';

import { useMounted } from '@mantine/hooks';
import { IconPhone } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Form, Link, useLocation } from 'react-router';
import { FormError, SubmitButton, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { type AdFormValues, adFormSchema, CURRENCIES, PRICE_TYPES, PRICED } from '~/lib/validation/ads.ts';
import type { Attribute, City } from '../../../server/domain/catalog.ts';
import { type Pin, PinPicker } from '../map/pin-picker.tsx';
import { AdPreview, type AdPreviewInput } from './ad-preview.tsx';
import { type DraftPhoto, PhotoUploader, usePhotoUploads } from './photo-uploader.tsx';

export interface AdFormData {
  attributes: Attribute[];
  cities: City[];
  allowance: { used: number; limit: number };
  submissionKey: string;
  moderation: 'pre' | 'post';
  /** The member's confirmed phone number: buyers call or WhatsApp it. Without one no ad can be sent. */
  phone: string | null;
  /** Editing an ad: its status and current values (the form then keeps no draft). */
  edit?: { status: string; values: AdFormValues };
}

const DRAFT_PREFIX = 'souq:ad-draft:';
/** The contact boxes' rows are at least 44 px tall, label included, for thumbs. */
const CHECKBOX_TAP = { body: { minHeight: 44, alignItems: 'center' } } as const;

/**
 * The draft in localStorage: the form's text entries (FormData order) and the uploaded photos in
 * their order (id + thumbnail, which the hidden `photos` inputs alone do not carry). Drafts saved
 * before photos existed are a bare list of entries.
 */
interface Draft {
  fields: [string, string][];
  photos?: DraftPhoto[];
}

function readDraft(saved: string): Draft {
  const parsed = JSON.parse(saved) as unknown;
  if (Array.isArray(parsed)) return { fields: parsed as [string, string][] };
  if (parsed && typeof parsed === 'object' && Array.isArray((parsed as Draft).fields)) return parsed as Draft;
  throw new Error('Not a draft');
}

/**
 * The ad form of one leaf category (docs/product/ads.md): text, price, the category's attributes with
 * their types, units and options, place and contact options. Plain form fields, so it posts without
 * JavaScript; with it, fields are checked as they are left, photos are uploaded as they are picked
 * (<PhotoUploader>, which needs JavaScript), and the draft, photos included, is kept in this browser
 * (per category) until the ad is placed.
 */
export function AdForm({
  data,
  reply,
}: {
  data: AdFormData;
  /** The action's answer to a refused post: the field errors, and a form-level error code. */
  reply: { result?: SubmissionResult<string[]>; formError?: unknown } | undefined;
}) {
  const lastResult = reply?.result;
  const formError = reply?.formError;
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const { locale, name, to } = useLocale();
  const { pathname } = useLocation();
  const fieldError = useFieldError();
  const schema = useMemo(
    () => adFormSchema(data.attributes, { confirmedPhone: data.phone !== null }),
    [data.attributes, data.phone],
  );
  const initial = data.edit?.values;
  const [form, fields] = useValidatedForm(
    'ad-form',
    schema,
    lastResult,
    initial ? { title: initial.title, description: initial.description, price: initial.price } : undefined,
  );
  const attrs = fields.attrs.getFieldset() as Record<string, (typeof fields)['title']>;
  const [priceType, setPriceType] = useState<string>(initial?.price_type ?? 'fixed');
  const [cityId, setCityId] = useState<string>(initial?.city ?? '');
  const [preview, setPreview] = useState<AdPreviewInput | null>(null);
  const mounted = useMounted();
  const [pin, setPin] = useState<Pin | null>(
    initial?.lat && initial.lng ? { lat: Number(initial.lat), lng: Number(initial.lng) } : null,
  );
  const areas = data.cities.find((c) => String(c.id) === cityId)?.areas ?? [];
  const full = data.allowance.used >= data.allowance.limit;
  const photos = usePhotoUploads();
  const [photosBlocked, setPhotosBlocked] = useState<'busy' | 'blocked-failed' | null>(null);
  if (photosBlocked === 'busy' && !photos.busy) setPhotosBlocked(null);
  if (photosBlocked === 'blocked-failed' && !photos.failed) setPhotosBlocked(null);

  // The draft: saved on every change, restored once when the form is opened again. An edit keeps
  // none: the ad itself is what the form opens with.
  const draftKey = data.edit ? null : DRAFT_PREFIX + pathname;
  // The uploaded photos as the draft saves them (the save runs from DOM events, outside renders).
  const uploadedRef = useRef<DraftPhoto[]>([]);
  const saveDraft = useCallback(() => {
    const el = document.getElementById(form.id) as HTMLFormElement | null;
    if (!el || !draftKey) return;
    const fields = [...new FormData(el).entries()].filter(
      (entry): entry is [string, string] =>
        typeof entry[1] === 'string' && entry[0] !== 'submission_key' && entry[0] !== 'photos',
    );
    const draft: Draft = { fields, photos: uploadedRef.current };
    localStorage.setItem(draftKey, JSON.stringify(draft));
  }, [draftKey, form.id]);

  // A draft's area can only be chosen once its city's areas are listed (the render after the city).
  // Before the photos' save below, which would otherwise store the area as still empty.
  const pendingArea = useRef<string | null>(null);
  useEffect(() => {
    const wanted = pendingArea.current;
    const el = document.getElementById(form.id) as HTMLFormElement | null;
    const select = el?.elements.namedItem('area');
    if (wanted === null || !(select instanceof HTMLSelectElement) || cityId === '') return;
    pendingArea.current = null;
    if ([...select.options].some((o) => o.value === wanted)) select.value = wanted;
  }, [cityId, form.id]);

  // A photo uploaded, removed or moved: saved like a typed change (hidden inputs fire no events).
  const savedPhotos = useRef('[]');
  useEffect(() => {
    uploadedRef.current = photos.uploaded;
    const json = JSON.stringify(photos.uploaded);
    if (json === savedPhotos.current) return;
    savedPhotos.current = json;
    saveDraft();
  }, [photos.uploaded, saveDraft]);

  // The pin placed, moved or removed: saved after the render that wrote it into the hidden inputs.
  const savedPin = useRef(JSON.stringify(pin));
  useEffect(() => {
    const json = JSON.stringify(pin);
    if (json === savedPin.current) return;
    savedPin.current = json;
    saveDraft();
  }, [pin, saveDraft]);

  const restorePhotos = photos.restore;
  const initialPhotos = useRef(initial?.photos);
  useEffect(() => {
    if (initialPhotos.current) restorePhotos(initialPhotos.current, { attached: true });
  }, [restorePhotos]);
  useEffect(() => {
    const el = document.getElementById(form.id) as HTMLFormElement | null;
    if (!el || !draftKey) return;
    const saved = localStorage.getItem(draftKey);
    if (saved && !lastResult) {
      try {
        const draft = readDraft(saved);
        restorePhotos(draft.photos);
        // A ticked box is in the draft, an unticked one is not: the contact boxes may start ticked.
        for (const key of ['contact_phone', 'contact_whatsapp']) {
          const box = el.elements.namedItem(key);
          if (box instanceof HTMLInputElement && !box.disabled) box.checked = draft.fields.some(([k]) => k === key);
        }
        for (const [key, value] of draft.fields) {
          const input = el.elements.namedItem(key);
          if (input instanceof RadioNodeList) {
            for (const node of input)
              if (node instanceof HTMLInputElement) node.checked = node.value === value || node.checked;
          } else if (input instanceof HTMLInputElement && (input.type === 'checkbox' || input.type === 'radio')) {
            input.checked = value === input.value;
          } else if (
            input instanceof HTMLInputElement ||
            input instanceof HTMLTextAreaElement ||
            input instanceof HTMLSelectElement
          ) {
            input.value = value;
          }
          if (key === 'price_type') setPriceType(value);
          if (key === 'city') setCityId(value);
          if (key === 'area') pendingArea.current = value;
        }
        const at = Object.fromEntries(draft.fields);
        if (at.lat && at.lng && Number.isFinite(Number(at.lat)) && Number.isFinite(Number(at.lng))) {
          savedPin.current = JSON.stringify({ lat: Number(at.lat), lng: Number(at.lng) });
          setPin({ lat: Number(at.lat), lng: Number(at.lng) });
        }
      } catch {
        localStorage.removeItem(draftKey);
      }
    }
    // Sending the form cleared the draft; the server sent it back (422), so the ad is not placed:
    // keep what is on the page, photos included, for a reload.
    if (lastResult) saveDraft();
    el.addEventListener('input', saveDraft);
    el.addEventListener('change', saveDraft);
    return () => {
      el.removeEventListener('input', saveDraft);
      el.removeEventListener('change', saveDraft);
    };
  }, [draftKey, form.id, lastResult, saveDraft, restorePhotos]);

  const status = data.edit?.status;
  const reviewNote = !status
    ? data.moderation === 'pre'
      ? 'placing:form.review-note'
      : null
    : status === 'rejected'
      ? 'placing:form.review-note-resubmit'
      : status === 'published' && data.moderation === 'pre'
        ? 'placing:form.review-note-edit'
        : null;
  const submitLabel = status
    ? status === 'rejected'
      ? t('placing:form.submit-resubmit')
      : t('placing:form.submit-edit')
    : data.moderation === 'pre'
      ? t('placing:form.submit-review')
      : t('placing:form.submit');

  const verifyPhone = `${to('/account/phone-verification')}?${new URLSearchParams({ redirect: pathname })}`;
  // Ticked as the server sent the form back, else as the ad has them; a new ad offers calls.
  const contactChecked = (key: 'contact_phone' | 'contact_whatsapp') =>
    data.phone !== null &&
    (lastResult ? fields[key].initialValue === 'on' : initial ? initial[key] : key === 'contact_phone');

  const unit = (a: Attribute) => (locale === 'ar' ? a.unit_ar : a.unit_en) ?? undefined;
  const label = (a: Attribute) => name(a);
  const optionLabel = (o: { ar: string; en: string }) => (locale === 'ar' ? o.ar : o.en);

  return (
    <Form
      method="post"
      {...getFormProps(form)}
      noValidate
      onSubmit={(event) => {
        // Photos on their way or refused would be missing from the ad without the member knowing.
        const blocked = photos.busy ? 'busy' : photos.failed ? 'blocked-failed' : null;
        if (blocked) {
          event.preventDefault();
          setPhotosBlocked(blocked);
          document.getElementById('ad-photos')?.scrollIntoView({ block: 'center', behavior: 'smooth' });
          return;
        }
        form.onSubmit(event);
        if (!event.defaultPrevented && draftKey) localStorage.removeItem(draftKey);
      }}
    >
      <input type="hidden" name="submission_key" value={data.submissionKey} />
      <Stack gap="lg">
        {data.edit ? null : (
          <Text size="sm" c={full ? 'red' : 'dimmed'}>
            {t('placing:form.allowance', {
              count: data.allowance.limit - data.allowance.used,
              limit: data.allowance.limit,
            })}
          </Text>
        )}
        <FormError code={formError} />
        {data.phone ? null : (
          <Alert
            color="yellow"
            icon={<IconPhone aria-hidden />}
            role="status"
            title={t('placing:form.needs-phone-title')}
          >
            <Stack gap={6} align="flex-start">
              <Text size="sm">{t('placing:form.needs-phone')}</Text>
              <Anchor component={Link} to={verifyPhone} fw={600} underline="always" py={10}>
                {t('placing:form.add-phone')}
              </Anchor>
            </Stack>
          </Alert>
        )}
        {/* Details the category does not have (a stale form, a forged post) have no field to show on. */}
        {Object.entries(form.allErrors)
          .filter(([key]) => key.startsWith('attrs.') && !data.attributes.some((a) => `attrs.${a.key}` === key))
          .slice(0, 1)
          .map(([key, codes]) => (
            <FormError key={key} code={codes[0] === 'unknown-attribute' ? 'unknown-attribute' : 'bad-request'} />
          ))}
        {reviewNote ? (
          <Alert color="gray" variant="light">
            {t(reviewNote)}
          </Alert>
        ) : null}

        <Fieldset legend={t('placing:form.about')} radius="md">
          <Stack gap="sm">
            <TextInput
              {...getInputProps(fields.title, { type: 'text' })}
              key={fields.title.key}
              label={t('placing:form.title')}
              description={t('placing:form.title-hint')}
              maxLength={150}
              dir="auto"
              error={fieldError(fields.title)}
              withAsterisk
            />
            <Textarea
              {...getTextareaProps(fields.description)}
              key={fields.description.key}
              label={t('placing:form.description')}
              description={t('placing:form.description-hint')}
              autosize
              minRows={5}
              maxLength={5000}
              dir="auto"
              error={fieldError(fields.description)}
              withAsterisk
            />
          </Stack>
        </Fieldset>

        <PhotoUploader
          uploads={photos}
          error={fieldError(fields.photos)}
          blocked={photosBlocked ? t(`placing:photos.${photosBlocked}`) : undefined}
        />

        <Fieldset legend={t('placing:form.price')} radius="md">
          <Stack gap="sm">
            <Radio.Group
              name="price_type"
              value={priceType}
              onChange={setPriceType}
              label={t('placing:form.price-type')}
              error={fieldError(fields.price_type)}
            >
              <Group gap="md" mt={4}>
                {PRICE_TYPES.map((p) => (
                  <Radio key={p} value={p} label={t(`price-types.${p}`)} />
                ))}
              </Group>
            </Radio.Group>
            {PRICED.includes(priceType as (typeof PRICE_TYPES)[number]) ? (
              <SimpleGrid cols={{ base: 2 }} spacing="sm">
                <TextInput
                  {...getInputProps(fields.price, { type: 'text' })}
                  key={fields.price.key}
                  label={t('placing:form.amount')}
                  inputMode="numeric"
                  dir="ltr"
                  error={fieldError(fields.price)}
                  withAsterisk
                />
                <NativeSelect
                  name="currency"
                  label={t('placing:form.currency')}
                  defaultValue={initial?.currency ?? 'LYD'}
                  data={CURRENCIES.map((c) => ({ value: c, label: t(`currencies.${c}`) }))}
                />
              </SimpleGrid>
            ) : (
              <input type="hidden" name="currency" value="LYD" />
            )}
          </Stack>
        </Fieldset>

        {data.attributes.length ? (
          <Fieldset legend={t('placing:form.details')} radius="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {data.attributes.map((a) => {
                const field = attrs[a.key];
                // Messages name the detail as the page shows it ("The Year field is required").
                const error = field ? fieldError({ errors: field.errors, name: label(a) }) : undefined;
                const common = { name: `attrs.${a.key}`, label: label(a), error, withAsterisk: a.required };
                const value = initial?.attrs[a.key];
                const text = typeof value === 'string' ? value : undefined;
                switch (a.type) {
                  case 'select':
                    return (
                      <NativeSelect
                        key={a.key}
                        {...common}
                        defaultValue={text}
                        data={[
                          { value: '', label: t('placing:form.choose') },
                          ...a.options.map((o) => ({ value: o.value, label: optionLabel(o) })),
                        ]}
                      />
                    );
                  case 'multiselect':
                    return (
                      <Checkbox.Group
                        key={a.key}
                        label={common.label}
                        error={error}
                        withAsterisk={a.required}
                        defaultValue={Array.isArray(value) ? value : undefined}
                      >
                        <Group gap="sm" mt={4}>
                          {a.options.map((o) => (
                            <Checkbox key={o.value} name={common.name} value={o.value} label={optionLabel(o)} />
                          ))}
                        </Group>
                      </Checkbox.Group>
                    );
                  case 'boolean':
                    return (
                      <Switch
                        key={a.key}
                        name={common.name}
                        value="on"
                        label={common.label}
                        mt="md"
                        defaultChecked={value === true}
                      />
                    );
                  case 'date':
                    return <TextInput key={a.key} {...common} type="date" dir="ltr" defaultValue={text} />;
                  case 'number':
                  case 'year':
                    return (
                      <TextInput
                        key={a.key}
                        {...common}
                        inputMode="numeric"
                        dir="ltr"
                        defaultValue={text}
                        rightSection={unit(a) ? <Text size="xs">{unit(a)}</Text> : undefined}
                        rightSectionWidth={unit(a) ? 56 : undefined}
                      />
                    );
                  default:
                    return <TextInput key={a.key} {...common} dir="auto" maxLength={500} defaultValue={text} />;
                }
              })}
            </SimpleGrid>
          </Fieldset>
        ) : null}

        <Fieldset legend={t('placing:form.place')} radius="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <NativeSelect
              name="city"
              label={t('placing:form.city')}
              value={cityId}
              onChange={(e) => setCityId(e.currentTarget.value)}
              data={[
                { value: '', label: t('placing:form.choose') },
                ...data.cities.map((c) => ({ value: String(c.id), label: name(c) })),
              ]}
              error={fieldError(fields.city)}
              withAsterisk
            />
            <NativeSelect
              name="area"
              label={t('placing:form.area')}
              defaultValue={initial?.area}
              disabled={areas.length === 0}
              data={[
                { value: '', label: areas.length ? t('placing:form.choose') : t('placing:form.no-areas') },
                ...areas.map((a) => ({ value: String(a.id), label: name(a) })),
              ]}
              error={fieldError(fields.area)}
            />
          </SimpleGrid>
          <Stack gap={4} mt="sm">
            <Text size="sm" fw={500}>
              {t('placing:form.map')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('placing:form.map-hint')}
            </Text>
            <PinPicker value={pin} onChange={setPin} />
            {fieldError(fields.lat) || fieldError(fields.lng) ? (
              <Text size="sm" c="red">
                {t('placing:form.map-outside')}
              </Text>
            ) : null}
          </Stack>
        </Fieldset>

        <Fieldset legend={t('placing:form.contact')} radius="md">
          <Stack gap="sm">
            {data.phone ? (
              <Text size="sm" c="dimmed">
                {t('placing:form.contact-hint-before')} <bdi dir="ltr">{data.phone}</bdi>
                {t('placing:form.contact-hint-after')}
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                {t('placing:form.contact-needs-phone')}{' '}
                <Anchor component={Link} to={verifyPhone} size="sm" underline="always">
                  {t('placing:form.add-phone')}
                </Anchor>
              </Text>
            )}
            <Checkbox
              name="contact_phone"
              value="on"
              label={t('placing:form.contact-phone')}
              disabled={!data.phone}
              defaultChecked={contactChecked('contact_phone')}
              error={fieldError(fields.contact_phone)}
              styles={CHECKBOX_TAP}
            />
            <Checkbox
              name="contact_whatsapp"
              value="on"
              label={t('placing:form.contact-whatsapp')}
              disabled={!data.phone}
              defaultChecked={contactChecked('contact_whatsapp')}
              error={fieldError(fields.contact_whatsapp)}
              styles={CHECKBOX_TAP}
            />
          </Stack>
        </Fieldset>

        <Group gap="sm">
          <SubmitButton>{submitLabel}</SubmitButton>
          {/* The preview reads the form in the browser: without JavaScript there is none to offer. */}
          {mounted ? (
            <Button
              type="button"
              variant="default"
              size="md"
              radius="xl"
              onClick={() => {
                const el = document.getElementById(form.id) as HTMLFormElement | null;
                if (el) setPreview({ form: new FormData(el), photos: photos.uploaded.map((p) => p.thumb) });
              }}
            >
              {t('placing:preview.open')}
            </Button>
          ) : null}
        </Group>
        <AdPreview
          input={preview}
          attributes={data.attributes}
          cities={data.cities}
          submitLabel={submitLabel}
          onClose={() => setPreview(null)}
          onSubmit={() => {
            setPreview(null);
            (document.getElementById(form.id) as HTMLFormElement | null)?.requestSubmit();
          }}
        />
      </Stack>
    </Form>
  );
}
