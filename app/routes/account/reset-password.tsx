import { getFormProps } from '@conform-to/react';
import { Stack, Text, Title } from '@mantine/core';
import { Form, redirect, useSearchParams } from 'react-router';
import {
  CodeField,
  FormError,
  PasswordField,
  SubmitButton,
  SwitchFormLink,
  useValidatedForm,
} from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { authMeta, formAction } from '~/lib/form-actions.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { resetPasswordByPhoneSchema, resetPasswordSchema } from '~/lib/validation/accounts.ts';
import { PHONE_PATTERN } from '~/lib/validation/rules.ts';
import { resetPassword, resetPasswordByPhone } from '../../../server/domain/accounts.ts';
import type { Route } from './+types/reset-password';

// Two ways in: `?token=` from the mailed link, or `?phone=` after asking for a code by SMS.

export async function loader({ request }: Route.LoaderArgs) {
  const t = tFor(request);
  return { meta: { title: t('auth:reset.title'), description: t('auth:reset.description'), noindex: true } };
}

const hideFields = ['password', 'password_confirmation', 'code'];

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const done = () => redirect(`${localizePath('/login', localeOf(request))}?reset=1`);
  if (form.has('phone')) {
    return formAction(
      form,
      resetPasswordByPhoneSchema,
      async (value) => {
        await resetPasswordByPhone(services(context).auth, db(context), value, authMeta(request, context));
        return done();
      },
      { hideFields },
    );
  }
  return formAction(
    form,
    resetPasswordSchema,
    async (value) => {
      await resetPassword(services(context).auth, value.token, value.password);
      return done();
    },
    { hideFields },
  );
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function ResetPasswordPage({ actionData }: Route.ComponentProps) {
  const { t } = useT('auth');
  const { to } = useLocale();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const phone = params.get('phone') ?? '';
  const byPhone = !token && PHONE_PATTERN.test(phone);
  // One form either way; the phone schema's fields are a superset of the link's.
  const schema = (byPhone ? resetPasswordByPhoneSchema : resetPasswordSchema) as typeof resetPasswordByPhoneSchema;
  const [form, fields] = useValidatedForm('reset-form', schema, actionData?.result);
  const formError = actionData && 'formError' in actionData ? actionData.formError : undefined;
  const usable = Boolean(token) || byPhone;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('reset.title')}
      </Title>
      {byPhone ? (
        <Text c="dimmed">
          {t('reset.intro-phone')} <bdi dir="ltr">{phone}</bdi>
        </Text>
      ) : token ? (
        <Text c="dimmed">{t('reset.intro')}</Text>
      ) : (
        <FormError code="invalid-action-code" />
      )}
      <FormError code={formError} />
      {usable ? (
        <Form method="post" {...getFormProps(form)} noValidate>
          {byPhone ? (
            <input type="hidden" name="phone" value={phone} />
          ) : (
            <input type="hidden" name="token" value={token} />
          )}
          <Stack gap="sm">
            {byPhone ? <CodeField field={fields.code} label={t('fields.code')} /> : null}
            <PasswordField
              field={fields.password}
              label={t('fields.new-password')}
              description={t('register.password-hint')}
              autoComplete="new-password"
            />
            <PasswordField
              field={fields.password_confirmation}
              label={t('fields.password_confirmation')}
              autoComplete="new-password"
            />
            <SubmitButton>{t('reset.submit')}</SubmitButton>
          </Stack>
        </Form>
      ) : null}
      {!usable || formError || byPhone ? (
        <SwitchFormLink
          question={byPhone ? t('reset.no-code') : t('reset.new-link')}
          label={byPhone ? t('reset.new-code') : t('forgot.title')}
          to={to('/account/forget-password')}
          redirectTo=""
        />
      ) : null}
    </Stack>
  );
}
