import { getFormProps, getInputProps, getSelectProps } from '@conform-to/react';
import { Anchor, Box, Button, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Form, Link, useNavigation } from 'react-router';
import { FormError, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { CURRENCIES, grantSchema, PAYMENT_METHODS } from '~/lib/validation/packages.ts';
import { Invalid } from '../../../server/domain/errors.ts';
import { grantablePackages } from '../../../server/domain/packages/packages.ts';
import { findMemberId, grantPackage } from '../../../server/domain/packages/subscriptions.ts';
import type { Route } from './+types/grant-package';

// Granting a package to a member (docs/product/back-office.md, "Packages"): the member by email
// or phone number, a package that is switched on and meant for members, and the payment staff
// received (cash or bank transfer, with its reference). Grants to companies are not offered yet.
// Page and action need `update-packages`.

export const middleware = guards('acl:update-packages');

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, 'update-packages');
  const packages = await grantablePackages(db(context));
  return {
    meta: { title: tFor(request)('admin:grant.title'), noindex: true },
    packages: packages.map((p) => ({
      id: p.id,
      name_ar: p.name_ar,
      name_en: p.name_en,
      price: p.price,
      currency: p.currency,
      duration_days: p.duration_days,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor } = await requireStaff(request, context, 'update-packages');
  const database = db(context);
  return formAction(await request.formData(), grantSchema, async (value) => {
    const userId = await findMemberId(database, value.member);
    if (!userId) throw new Invalid({ member: ['member-not-found'] });
    await grantPackage(database, actor, {
      userId,
      packageId: value.package_id,
      payment: {
        method: value.method,
        reference: value.reference,
        amount: value.paid_amount,
        currency: value.paid_currency,
      },
    });
    return redirectWithFlash(localizePath('/admin/packages/subscriptions', localeOf(request)), 'admin-created');
  });
}

export const meta: Route.MetaFunction = routeMeta;

export default function GrantPackagePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const fieldError = useFieldError();
  const navigation = useNavigation();
  const number = numberFormat(locale);
  const { packages } = loaderData;
  const first = packages[0];
  const [form, fields] = useValidatedForm(
    'grant-form',
    grantSchema,
    actionData?.result,
    first
      ? {
          package_id: String(first.id),
          method: 'bank-transfer',
          paid_amount: String(first.price),
          paid_currency: first.currency,
        }
      : { method: 'bank-transfer', paid_currency: 'LYD' },
  );
  return (
    <Stack gap="lg" maw={720}>
      <Anchor component={Link} to={to('/admin/packages/subscriptions')} size="sm" py={10}>
        <Group gap={4} component="span">
          <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
          {t('subscriptions.title')}
        </Group>
      </Anchor>
      <Box>
        <Title order={1}>{t('grant.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('grant.intro')}
        </Text>
      </Box>
      <FormError code={actionData?.formError} />
      {packages.length === 0 ? (
        <Text>
          {t('grant.no-packages')}{' '}
          <Anchor component={Link} to={to('/admin/packages')}>
            {t('packages.title')}
          </Anchor>
        </Text>
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate>
          <Stack gap="md">
            <TextInput
              {...getInputProps(fields.member, { type: 'text' })}
              key={fields.member.key}
              label={t('grant.member')}
              description={t('grant.member-hint')}
              dir="ltr"
              autoComplete="off"
              error={fieldError(fields.member)}
              withAsterisk
            />
            <NativeSelect
              {...getSelectProps(fields.package_id)}
              key={fields.package_id.key}
              label={t('grant.package')}
              data={packages.map((p) => ({
                value: String(p.id),
                label: t('grant.package-option', {
                  name: name(p),
                  days: number.format(p.duration_days),
                  price: `${number.format(p.price)} ${p.currency}`,
                }),
              }))}
              error={fieldError(fields.package_id)}
              withAsterisk
            />
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <NativeSelect
                {...getSelectProps(fields.method)}
                key={fields.method.key}
                label={t('grant.method-label')}
                data={PAYMENT_METHODS.map((m) => ({ value: m, label: t(`grant.method.${m}`) }))}
                error={fieldError(fields.method)}
                withAsterisk
              />
              <TextInput
                {...getInputProps(fields.reference, { type: 'text' })}
                key={fields.reference.key}
                label={t('grant.reference')}
                description={t('grant.reference-hint')}
                dir="ltr"
                error={fieldError(fields.reference)}
                withAsterisk
              />
              <TextInput
                {...getInputProps(fields.paid_amount, { type: 'text' })}
                key={fields.paid_amount.key}
                inputMode="numeric"
                label={t('grant.amount')}
                error={fieldError(fields.paid_amount)}
                withAsterisk
              />
              <NativeSelect
                {...getSelectProps(fields.paid_currency)}
                key={fields.paid_currency.key}
                label={t('grant.currency')}
                data={CURRENCIES.map((c) => ({ value: c, label: c }))}
                error={fieldError(fields.paid_currency)}
                withAsterisk
              />
            </SimpleGrid>
            <Group>
              <Button type="submit" radius="xl" mih={44} loading={navigation.state === 'submitting'}>
                {t('grant.submit')}
              </Button>
            </Group>
          </Stack>
        </Form>
      )}
    </Stack>
  );
}
