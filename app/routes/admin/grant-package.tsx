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
import {
  CURRENCIES,
  companyGrantSchema,
  type GrantHolder,
  grantSchema,
  PAYMENT_METHODS,
} from '~/lib/validation/packages.ts';
import { findCompanyId } from '../../../server/domain/companies/companies.ts';
import { Invalid } from '../../../server/domain/errors.ts';
import { grantablePackages } from '../../../server/domain/packages/packages.ts';
import { findMemberId, grantPackage } from '../../../server/domain/packages/subscriptions.ts';
import type { Route } from './+types/grant-package';

// Granting a package (docs/product/back-office.md, "Packages") to a member, by email or phone
// number, or to a company (`?holder=company`), by the address name of its page: a package that is
// switched on and meant for that kind of holder, and the payment staff received (cash or bank
// transfer, with its reference). Page and action need `update-packages`.

export const middleware = guards('acl:update-packages');

/** `?holder=company` (or a company named by `?company=`) grants to a company; anything else to a member. */
function holderOf(params: URLSearchParams): GrantHolder {
  return params.get('holder') === 'company' || (params.has('company') && !params.has('holder')) ? 'company' : 'member';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, 'update-packages');
  const params = new URL(request.url).searchParams;
  const holder = holderOf(params);
  const packages = await grantablePackages(db(context), holder === 'company' ? 'company' : 'individual');
  // From a member's or a company's page: their email or phone number, or the company's address
  // name, filled in (up to the field's length).
  const member = (params.get('member') ?? '').slice(0, 200);
  const company = (params.get('company') ?? '').slice(0, 80);
  return {
    holder,
    member,
    company,
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
  const form = await request.formData();
  const paymentOf = (value: {
    method: 'offline' | 'bank-transfer';
    reference: string;
    paid_amount: number;
    paid_currency: string;
  }) => ({
    method: value.method,
    reference: value.reference,
    amount: value.paid_amount,
    currency: value.paid_currency,
  });
  const done = (path: string) => redirectWithFlash(localizePath(path, localeOf(request)), 'admin-created');
  if (form.get('holder') === 'company') {
    return formAction(form, companyGrantSchema, async (value) => {
      const companyId = await findCompanyId(database, value.company);
      if (companyId === null) throw new Invalid({ company: ['company-not-found'] });
      await grantPackage(database, actor, { companyId, packageId: value.package_id, payment: paymentOf(value) });
      return done(`/admin/companies/${companyId}#packages`);
    });
  }
  return formAction(form, grantSchema, async (value) => {
    const userId = await findMemberId(database, value.member);
    if (!userId) throw new Invalid({ member: ['member-not-found'] });
    await grantPackage(database, actor, { userId, packageId: value.package_id, payment: paymentOf(value) });
    return done('/admin/packages/subscriptions');
  });
}

export const meta: Route.MetaFunction = routeMeta;

export default function GrantPackagePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const fieldError = useFieldError();
  const navigation = useNavigation();
  const number = numberFormat(locale);
  const { packages, holder } = loaderData;
  const forCompany = holder === 'company';
  const first = packages[0];
  const payment = first
    ? {
        package_id: String(first.id),
        method: 'bank-transfer',
        paid_amount: String(first.price),
        paid_currency: first.currency,
      }
    : { method: 'bank-transfer', paid_currency: 'LYD' };
  // One form, two schemas: the member's email or phone, or the company's address name.
  const schema: typeof grantSchema = forCompany ? (companyGrantSchema as unknown as typeof grantSchema) : grantSchema;
  const [form, fields] = useValidatedForm(
    `grant-form-${holder}`,
    schema,
    actionData?.result,
    forCompany ? { company: loaderData.company, ...payment } : { member: loaderData.member, ...payment },
  );
  const whoField = fields[(forCompany ? 'company' : 'member') as 'member'];
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
          {t(forCompany ? 'grant.intro-company' : 'grant.intro')}
        </Text>
      </Box>
      <Group gap="xs" component="nav" aria-label={t('grant.holder-label')}>
        {(['member', 'company'] as const).map((h) => (
          <Button
            key={h}
            component={Link}
            to={h === 'company' ? `${to('/admin/packages/grant')}?holder=company` : to('/admin/packages/grant')}
            variant={h === holder ? 'filled' : 'default'}
            radius="xl"
            mih={44}
            aria-current={h === holder ? 'page' : undefined}
          >
            {t(`grant.holder.${h}`)}
          </Button>
        ))}
      </Group>
      <FormError code={actionData?.formError} />
      {packages.length === 0 ? (
        <Text>
          {t(forCompany ? 'grant.no-packages-company' : 'grant.no-packages')}{' '}
          <Anchor component={Link} to={to('/admin/packages')}>
            {t('packages.title')}
          </Anchor>
        </Text>
      ) : (
        <Form
          method="post"
          action={forCompany ? `${to('/admin/packages/grant')}?holder=company` : undefined}
          {...getFormProps(form)}
          noValidate
        >
          <input type="hidden" name="holder" value={holder} />
          <Stack gap="md">
            <TextInput
              {...getInputProps(whoField, { type: 'text' })}
              key={whoField.key}
              label={t(forCompany ? 'grant.company' : 'grant.member')}
              description={t(forCompany ? 'grant.company-hint' : 'grant.member-hint')}
              dir="ltr"
              autoComplete="off"
              error={fieldError(whoField)}
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
