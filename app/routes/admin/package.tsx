import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from '@conform-to/react';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Form, Link, useNavigation } from 'react-router';
import { z } from 'zod';
import { ConfirmAction } from '~/components/admin/confirm-action.tsx';
import { NameInputs } from '~/components/admin/name-inputs.tsx';
import { FormError, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, pathIdOrNew, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { CURRENCIES, PACKAGE_AUDIENCES, packageSchema } from '~/lib/validation/packages.ts';
import { can } from '../../../server/domain/access.ts';
import {
  createPackage,
  deletePackage,
  getPackage,
  setPackageActive,
  updatePackage,
} from '../../../server/domain/packages/packages.ts';
import type { Route } from './+types/package';

// One package (docs/product/back-office.md, "Packages"): `/admin/packages/new` creates one,
// `/admin/packages/{id}` shows and edits it, switches it on or off (off asks first: members who hold
// it keep it) and deletes it while nobody was ever granted it. Reading needs `view-packages`; the
// new-package page and every change need `update-packages`, checked again by the action.

export const middleware = guards('acl:view-packages');

const INTENTS = ['save', 'activate', 'deactivate', 'delete'] as const;
type Intent = (typeof INTENTS)[number];
const isIntent = (v: unknown): v is Intent => typeof v === 'string' && (INTENTS as readonly string[]).includes(v);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = pathIdOrNew(request, params.id);
  const t = tFor(request);
  if (id === null) {
    await requireStaff(request, context, 'update-packages');
    return { meta: { title: t('admin:packages.new'), noindex: true }, pkg: null, canUpdate: true };
  }
  const { user } = await requireStaff(request, context, 'view-packages');
  const pkg = await getPackage(db(context), id);
  const title = localeOf(request) === 'ar' ? pkg.name_ar : pkg.name_en;
  return {
    meta: { title: `${title} · ${t('admin:packages.title')}`, noindex: true },
    pkg,
    canUpdate: can(user, 'update-packages'),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = pathIdOrNew(request, params.id);
  const form = await request.formData();
  const intent = form.get('intent') ?? 'save';
  if (!isIntent(intent) || (id === null && intent !== 'save')) {
    throw new Response(null, { status: 400, statusText: 'Bad Request' });
  }
  const { actor } = await requireStaff(request, context, 'update-packages');
  const database = db(context);
  const list = localizePath('/admin/packages', localeOf(request));
  const here = id === null ? list : localizePath(`/admin/packages/${id}`, localeOf(request));
  if (intent === 'save') {
    return formAction(
      form,
      packageSchema,
      async (value) => {
        if (id === null) {
          await createPackage(database, actor, value);
          return redirectWithFlash(list, 'admin-created');
        }
        await updatePackage(database, actor, id, value);
        return redirectWithFlash(list, 'admin-saved');
      },
      { extra: { form: intent } },
    );
  }
  const packageId = id as number;
  return formAction(
    form,
    z.object({ intent: z.enum(INTENTS) }),
    async () => {
      if (intent === 'delete') {
        await deletePackage(database, actor, packageId);
        return redirectWithFlash(list, 'admin-deleted');
      }
      await setPackageActive(database, actor, packageId, intent === 'activate');
      return redirectWithFlash(here, 'admin-saved');
    },
    { extra: { form: intent } },
  );
}

export const meta: Route.MetaFunction = routeMeta;

type Pkg = NonNullable<Route.ComponentProps['loaderData']['pkg']>;

function PackageForm({
  pkg,
  canUpdate,
  lastResult,
}: {
  pkg: Pkg | null;
  canUpdate: boolean;
  lastResult: Parameters<typeof useValidatedForm>[2];
}) {
  const { t } = useT('admin');
  const fieldError = useFieldError();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(
    'package-form',
    packageSchema,
    lastResult,
    pkg
      ? {
          name_ar: pkg.name_ar,
          name_en: pkg.name_en,
          description_ar: pkg.description_ar ?? '',
          description_en: pkg.description_en ?? '',
          price: String(pkg.price),
          currency: pkg.currency,
          duration_days: String(pkg.duration_days),
          max_active_ads: String(pkg.max_active_ads),
          featured_ads: String(pkg.featured_ads),
          reposts: String(pkg.reposts),
          audience: pkg.audience,
          active: pkg.active ? 'on' : '',
        }
      : { currency: 'LYD', audience: 'individual', active: 'on', featured_ads: '0', reposts: '0' },
  );
  const number = (name: 'price' | 'duration_days' | 'max_active_ads' | 'featured_ads' | 'reposts', hint?: string) => (
    <TextInput
      {...getInputProps(fields[name], { type: 'text' })}
      key={fields[name].key}
      inputMode="numeric"
      label={t(`packages.field.${name}`)}
      description={hint}
      error={fieldError(fields[name])}
      withAsterisk
    />
  );
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <input type="hidden" name="intent" value="save" />
      <fieldset disabled={!canUpdate} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <NameInputs
              ar={fields.name_ar}
              en={fields.name_en}
              labels={[t('packages.field.name_ar'), t('packages.field.name_en')]}
              error={fieldError}
            />
            <Textarea
              {...getTextareaProps(fields.description_ar)}
              key={fields.description_ar.key}
              label={t('packages.field.description_ar')}
              dir="rtl"
              lang="ar"
              autosize
              minRows={2}
              error={fieldError(fields.description_ar)}
            />
            <Textarea
              {...getTextareaProps(fields.description_en)}
              key={fields.description_en.key}
              label={t('packages.field.description_en')}
              dir="ltr"
              lang="en"
              autosize
              minRows={2}
              error={fieldError(fields.description_en)}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
            {number('price')}
            <NativeSelect
              {...getSelectProps(fields.currency)}
              key={fields.currency.key}
              label={t('packages.field.currency')}
              data={CURRENCIES.map((c) => ({ value: c, label: c }))}
              error={fieldError(fields.currency)}
              withAsterisk
            />
            {number('duration_days', t('packages.hint.duration_days'))}
            {number('max_active_ads', t('packages.hint.max_active_ads'))}
            {number('featured_ads', t('packages.hint.featured_ads'))}
            {number('reposts', t('packages.hint.reposts'))}
            <NativeSelect
              {...getSelectProps(fields.audience)}
              key={fields.audience.key}
              label={t('packages.field.audience')}
              description={t('packages.hint.audience')}
              data={PACKAGE_AUDIENCES.map((a) => ({ value: a, label: t(`packages.audience.${a}`) }))}
              error={fieldError(fields.audience)}
              withAsterisk
            />
          </SimpleGrid>
          {pkg ? null : (
            <Checkbox
              {...getInputProps(fields.active, { type: 'checkbox' })}
              key={fields.active.key}
              label={t('packages.field.active')}
              description={t('packages.hint.active')}
            />
          )}
          {pkg ? <input type="hidden" name="active" value={pkg.active ? 'on' : ''} /> : null}
          {canUpdate ? (
            <Group>
              <Button type="submit" radius="xl" mih={44} loading={navigation.state === 'submitting'}>
                {pkg ? t('packages.save') : t('packages.create')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </fieldset>
    </Form>
  );
}

/** Switching the package on or off, and deleting it while nobody holds one. */
function PackageState({ pkg }: { pkg: Pkg }) {
  const { t } = useT('admin');
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="package-state">
      <Stack gap="sm">
        <Title order={2} size="h4" id="package-state">
          {t('packages.state-title')}
        </Title>
        <Text size="sm">
          {pkg.active ? t('packages.state.on-hint') : t('packages.state.off-hint')}{' '}
          {t('packages.granted', { count: pkg.subscriptions, current: pkg.current_subscriptions })}
        </Text>
        <Form method="post">
          <Group gap="sm">
            {pkg.active ? (
              <ConfirmAction
                label={t('packages.deactivate')}
                statement={t('packages.deactivate-confirm', { count: pkg.current_subscriptions })}
                intent="deactivate"
              />
            ) : (
              <Button type="submit" name="intent" value="activate" variant="light" radius="xl" mih={44}>
                {t('packages.activate')}
              </Button>
            )}
            {pkg.subscriptions === 0 ? (
              <ConfirmAction label={t('packages.delete')} statement={t('packages.delete-confirm')} intent="delete" />
            ) : null}
          </Group>
        </Form>
        {pkg.subscriptions > 0 ? (
          <Text size="sm" c="dimmed">
            {t('packages.cannot-delete', { count: pkg.subscriptions })}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

export default function PackagePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name } = useLocale();
  const { pkg, canUpdate } = loaderData;
  return (
    <Stack gap="lg" maw={960}>
      <Anchor component={Link} to={to('/admin/packages')} size="sm" py={10}>
        <Group gap={4} component="span">
          <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
          {t('packages.back')}
        </Group>
      </Anchor>
      <Box>
        <Title order={1} dir="auto">
          {pkg ? name(pkg) : t('packages.new')}
        </Title>
        {pkg ? (
          <Anchor component={Link} to={`${to('/admin/packages/subscriptions')}?package=${pkg.id}`} size="sm">
            {t('packages.see-subscriptions', { count: pkg.subscriptions })}
          </Anchor>
        ) : (
          <Text c="dimmed" size="sm">
            {t('packages.new-intro')}
          </Text>
        )}
      </Box>
      {!canUpdate ? (
        <Alert color="gray" role="status">
          {t('packages.read-only')}
        </Alert>
      ) : null}
      <FormError code={actionData?.formError} />
      <PackageForm
        pkg={pkg}
        canUpdate={canUpdate}
        lastResult={actionData?.result.form === 'save' ? actionData.result : undefined}
      />
      {pkg && canUpdate ? <PackageState pkg={pkg} /> : null}
    </Stack>
  );
}
