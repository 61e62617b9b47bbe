// One banner of the back office (docs/product/back-office.md, "Banners"): `/admin/banners/new`
// creates one, `/admin/banners/{id}` edits it, shows its figures per day and deletes it. Reading
// needs `view-banners`; every change `update-banners`, checked again by the action. The form is one
// multipart POST (works without JavaScript): the four images are checked by their content on the
// server (server/domain/banners/images.ts).
import { getFormProps, getInputProps, getSelectProps } from '@conform-to/react';
import {
  Anchor,
  Box,
  Button,
  Checkbox,
  Group,
  Image,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { data, Form, Link, useNavigation } from 'react-router';
import { AdminSection } from '~/components/admin/admin-section.tsx';
import { StateBadge, useSchedule } from '~/components/admin/banner-parts.tsx';
import { ConfirmAction } from '~/components/admin/confirm-action.tsx';
import { FormError } from '~/components/form-error.tsx';
import { useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { useDates } from '~/components/relative-time.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { BANNER_PLACEMENTS, BANNER_SLOTS, type BannerSlot, PLACEMENT_SHAPE, REQUIRED_SLOT } from '~/lib/banners.ts';
import { type BodyLimitHandle, UPLOAD_FRAMING_BYTES } from '~/lib/body-limit.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, pathIdOrNew, requestInfo, services, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import {
  BANNER_IMAGE_MAX_BYTES,
  BANNER_POSITION_MAX,
  BANNER_TITLE_MAX,
  type BannerFormValue,
  bannerSchema,
  imageField,
  removeField,
} from '~/lib/validation/banners.ts';
import { can } from '../../../server/domain/access.ts';
import {
  type BannerDetail,
  bannerStats,
  bannerTargetOptions,
  deleteBanners,
  getBanner,
  saveBanner,
} from '../../../server/domain/banners/admin.ts';
import { NotFound } from '../../../server/domain/errors.ts';
import { createStorage } from '../../../server/media/storage.ts';
import type { Route } from './+types/banner';

export const middleware = guards('acl:view-banners');

/** Four images at most, each within its limit, and the other fields. */
export const handle = {
  bodyLimit: BANNER_SLOTS.length * BANNER_IMAGE_MAX_BYTES + UPLOAD_FRAMING_BYTES,
  answersOversizedBody: true,
} satisfies BodyLimitHandle;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = pathIdOrNew(request, params.id);
  // Creating is a change: the empty form is for those who may make it.
  const { user } = await requireStaff(request, context, id === null ? 'update-banners' : 'view-banners');
  const t = tFor(request);
  const database = db(context);
  const [options, banner, stats] = await Promise.all([
    bannerTargetOptions(database),
    id === null ? null : getBanner(database, id),
    id === null ? null : bannerStats(database, id),
  ]);
  const title = banner ? (localeOf(request) === 'en' && banner.title_en) || banner.title_ar : t('admin:banners.new');
  return {
    meta: { title: `${title} · ${t('admin:banners.title')}`, noindex: true },
    banner,
    stats,
    options,
    canEdit: can(user, 'update-banners'),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = pathIdOrNew(request, params.id);
  const { actor } = await requireStaff(request, context, 'update-banners');
  if (requestInfo(context).bodyTooLarge) {
    // Only the images can make it this large; nothing was read, nothing changes.
    return data({ result: undefined, formError: 'admin:banners.errors.too-large' }, { status: 413 });
  }
  const form = await request.formData();
  const intent = form.get('intent');
  const locale = localeOf(request);
  const database = db(context);
  const storage = createStorage(services(context).config);
  if (intent === 'delete' && id !== null) {
    const deleted = await deleteBanners(database, storage, actor, [id]);
    if (deleted === 0) throw new NotFound('errors.not-found');
    return redirectWithFlash(localizePath('/admin/banners', locale), 'admin-deleted');
  }
  if (intent !== 'save') throw new Response(null, { status: 400, statusText: 'Bad Request' });
  return formAction(
    form,
    bannerSchema({ creating: id === null }),
    async (value) => {
      const uploads: Partial<Record<BannerSlot, Buffer>> = {};
      for (const slot of BANNER_SLOTS) {
        const file = value[imageField(slot)];
        if (file) uploads[slot] = Buffer.from(await file.arrayBuffer());
      }
      const remove = BANNER_SLOTS.filter(
        (s): s is Exclude<BannerSlot, typeof REQUIRED_SLOT> => s !== REQUIRED_SLOT && value[removeField(s)] === true,
      );
      const saved = await saveBanner(
        database,
        storage,
        actor,
        id,
        { ...value, active: value.active, uploads, remove },
        { maxImageBytes: BANNER_IMAGE_MAX_BYTES },
      );
      return redirectWithFlash(
        localizePath(`/admin/banners/${saved}`, locale),
        id === null ? 'admin-created' : 'admin-saved',
      );
    },
    { hideFields: BANNER_SLOTS.map((s) => imageField(s)) },
  );
}

export const meta: Route.MetaFunction = routeMeta;

type Options = Route.ComponentProps['loaderData']['options'];

function BannerForm({
  banner,
  options,
  reply,
  canEdit,
}: {
  banner: BannerDetail | null;
  options: Options;
  reply: { result?: Parameters<typeof useValidatedForm>[2]; formError?: string } | undefined;
  canEdit: boolean;
}) {
  const { t } = useT('admin');
  const { name } = useLocale();
  const error = useFieldError();
  const navigation = useNavigation();
  const schema = bannerSchema({ creating: banner === null });
  const [form, fields] = useValidatedForm('banner-form', schema, reply?.result, {
    title_ar: banner?.title_ar ?? '',
    title_en: banner?.title_en ?? '',
    link: banner?.link ?? '',
    placement: banner?.placement ?? 'home-hero',
    taxonomy: banner?.taxonomy_id ? String(banner.taxonomy_id) : '',
    category: banner?.category_id ? String(banner.category_id) : '',
    city: banner?.city_id ? String(banner.city_id) : '',
    starts_on: banner?.starts_on ?? '',
    ends_on: banner?.ends_on ?? '',
    active: banner ? (banner.active ? 'on' : '') : 'on',
    position: String(banner?.position ?? 0),
  } satisfies Partial<Record<keyof BannerFormValue, string>>);
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const select = (
    field: (typeof fields)['taxonomy'],
    label: string,
    any: string,
    list: { id: number; name_ar: string; name_en: string }[],
  ) => (
    <NativeSelect
      {...getSelectProps(field)}
      key={field.key}
      label={label}
      error={error(field)}
      data={[{ value: '', label: any }, ...list.map((o) => ({ value: String(o.id), label: name(o) }))]}
    />
  );
  const sizes = (slot: BannerSlot) => {
    const screen = slot.endsWith('mobile') ? 'mobile' : 'desktop';
    return BANNER_PLACEMENTS.map(
      (p) => `${t(`banners.placements.${p}`)}: ${PLACEMENT_SHAPE[p][screen].join(' × ')}`,
    ).join(' · ');
  };
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} noValidate>
      <input type="hidden" name="intent" value="save" />
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">
          <FormError code={reply?.formError} />
          <AdminSection id="banner-details" title={t('banners.form.details')}>
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  {...getInputProps(fields.title_ar, { type: 'text' })}
                  key={fields.title_ar.key}
                  label={t('banners.form.title-ar')}
                  description={t('banners.form.title-hint')}
                  dir="rtl"
                  maxLength={BANNER_TITLE_MAX}
                  error={error(fields.title_ar)}
                  withAsterisk
                />
                <TextInput
                  {...getInputProps(fields.title_en, { type: 'text' })}
                  key={fields.title_en.key}
                  label={t('banners.form.title-en')}
                  description={t('banners.form.title-en-hint')}
                  dir="ltr"
                  maxLength={BANNER_TITLE_MAX}
                  error={error(fields.title_en)}
                />
              </SimpleGrid>
              <TextInput
                {...getInputProps(fields.link, { type: 'text' })}
                key={fields.link.key}
                label={t('banners.form.link')}
                description={t('banners.form.link-hint')}
                dir="ltr"
                inputMode="url"
                error={error(fields.link)}
                withAsterisk
              />
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <NativeSelect
                  {...getSelectProps(fields.placement)}
                  key={fields.placement.key}
                  label={t('banners.col.placement')}
                  error={error(fields.placement)}
                  data={BANNER_PLACEMENTS.map((p) => ({ value: p, label: t(`banners.placements.${p}`) }))}
                />
                <TextInput
                  {...getInputProps(fields.position, { type: 'text' })}
                  key={fields.position.key}
                  label={t('banners.col.position')}
                  description={t('banners.form.position-hint')}
                  inputMode="numeric"
                  maxLength={String(BANNER_POSITION_MAX).length}
                  error={error(fields.position)}
                />
                <Checkbox
                  {...getInputProps(fields.active, { type: 'checkbox' })}
                  key={fields.active.key}
                  label={t('banners.form.active')}
                  mt={{ base: 0, sm: 30 }}
                />
              </SimpleGrid>
            </Stack>
          </AdminSection>

          <AdminSection id="banner-schedule" title={t('banners.form.schedule')}>
            <Text size="sm" c="dimmed" mb="sm">
              {t('banners.form.schedule-hint')}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                {...getInputProps(fields.starts_on, { type: 'date' })}
                key={fields.starts_on.key}
                label={t('banners.form.starts-on')}
                error={error(fields.starts_on)}
              />
              <TextInput
                {...getInputProps(fields.ends_on, { type: 'date' })}
                key={fields.ends_on.key}
                label={t('banners.form.ends-on')}
                error={error(fields.ends_on)}
              />
            </SimpleGrid>
          </AdminSection>

          <AdminSection id="banner-target" title={t('banners.form.target')}>
            <Text size="sm" c="dimmed" mb="sm">
              {t('banners.form.target-hint')}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              {select(fields.taxonomy, t('banners.form.taxonomy'), t('banners.form.any-taxonomy'), options.taxonomies)}
              {select(fields.category, t('banners.form.category'), t('banners.form.any-category'), options.categories)}
              {select(fields.city, t('banners.form.city'), t('banners.form.any-city'), options.cities)}
            </SimpleGrid>
          </AdminSection>

          <AdminSection id="banner-images" title={t('banners.form.images')}>
            <Text size="sm" c="dimmed" mb="sm">
              {t('banners.form.images-hint')}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
              {BANNER_SLOTS.map((slot) => {
                const field = fields[imageField(slot)];
                const current = banner?.images[slot];
                const required = slot === REQUIRED_SLOT;
                return (
                  <Box key={slot}>
                    <Input.Wrapper
                      label={t(`banners.slots.${slot}`)}
                      description={`${t(required ? 'banners.form.required-image' : 'banners.form.optional-image')} ${sizes(slot)}`}
                      error={error(field)}
                      withAsterisk={required && !current}
                      id={field.id}
                    >
                      <input
                        {...getInputProps(field, { type: 'file' })}
                        key={field.key}
                        accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
                        className="banner-file"
                        style={{ display: 'block', minHeight: 44, marginBlock: 6, maxWidth: '100%' }}
                      />
                    </Input.Wrapper>
                    {current ? (
                      <Stack gap={4} mt={4}>
                        <Image
                          src={current}
                          alt={t('banners.form.current', { slot: t(`banners.slots.${slot}`) })}
                          radius="sm"
                          mah={140}
                          fit="contain"
                        />
                        {!required ? (
                          <Checkbox
                            name={removeField(slot as Exclude<BannerSlot, typeof REQUIRED_SLOT>)}
                            label={t('banners.form.remove-image')}
                          />
                        ) : null}
                      </Stack>
                    ) : (
                      <Text size="xs" c="dimmed">
                        {required ? t('banners.form.no-image') : t('banners.form.falls-back')}
                      </Text>
                    )}
                  </Box>
                );
              })}
            </SimpleGrid>
          </AdminSection>
          {canEdit ? (
            <Group>
              <Button type="submit" loading={busy} mih={44}>
                {banner ? t('banners.form.save') : t('banners.form.create')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </fieldset>
    </Form>
  );
}

function Figures({ stats }: { stats: NonNullable<Route.ComponentProps['loaderData']['stats']> }) {
  const { t } = useT('admin');
  const { locale } = useLocale();
  const dates = useDates();
  const number = numberFormat(locale);
  const percent = numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const rate = (clicks: number, impressions: number) => (impressions > 0 ? percent.format(clicks / impressions) : '—');
  const most = Math.max(1, ...stats.days.map((d) => d.impressions));
  return (
    <AdminSection id="banner-figures" title={t('banners.figures.title')}>
      <Group gap="xl" mb="md">
        <Text>{t('banners.impressions', { count: stats.total.impressions })}</Text>
        <Text>{t('banners.clicks', { count: stats.total.clicks })}</Text>
        <Text>{t('banners.figures.rate', { rate: rate(stats.total.clicks, stats.total.impressions) })}</Text>
      </Group>
      <Text size="sm" c="dimmed" mb="xs">
        {t('banners.figures.hint')}
      </Text>
      <Table.ScrollContainer minWidth={0} type="native">
        <Table verticalSpacing={4} aria-label={t('banners.figures.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('banners.figures.day')}</Table.Th>
              <Table.Th>{t('banners.figures.impressions')}</Table.Th>
              <Table.Th>{t('banners.figures.clicks')}</Table.Th>
              <Table.Th>{t('banners.figures.ctr')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...stats.days].reverse().map((d) => (
              <Table.Tr key={d.day} data-day={d.day}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{dates.day(d.day)}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Box
                      aria-hidden
                      h={8}
                      w={`${Math.round((d.impressions / most) * 80)}px`}
                      bg="var(--mantine-color-brand-filled)"
                      style={{ borderRadius: 4 }}
                    />
                    {number.format(d.impressions)}
                  </Group>
                </Table.Td>
                <Table.Td>{number.format(d.clicks)}</Table.Td>
                <Table.Td>{rate(d.clicks, d.impressions)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </AdminSection>
  );
}

export default function BannerPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, locale } = useLocale();
  const schedule = useSchedule();
  const { banner, stats, options, canEdit } = loaderData;
  const title = banner ? (locale === 'en' && banner.title_en) || banner.title_ar : t('banners.new');
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={to('/admin/banners')} size="sm" py={10}>
        <Group gap={4} component="span">
          <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
          {t('banners.back')}
        </Group>
      </Anchor>
      <Stack gap="xs">
        <Title order={1} dir="auto" style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {banner ? (
          <Group gap="xs">
            <StateBadge state={banner.state} />
            <Text size="sm">{schedule(banner.starts_on, banner.ends_on)}</Text>
          </Group>
        ) : null}
      </Stack>
      <BannerForm
        key={banner?.updated_at ?? 'new'}
        banner={banner}
        options={options}
        reply={actionData as { result?: Parameters<typeof useValidatedForm>[2]; formError?: string } | undefined}
        canEdit={canEdit}
      />
      {stats ? <Figures stats={stats} /> : null}
      {banner && canEdit ? (
        <AdminSection id="banner-delete" title={t('banners.delete.title')}>
          <Form method="post">
            <ConfirmAction label={t('banners.delete.submit')} statement={t('banners.delete.confirm')} intent="delete" />
          </Form>
        </AdminSection>
      ) : null}
    </Stack>
  );
}
