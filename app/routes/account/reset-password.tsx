import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { data, Form, redirect, useNavigation, useSearchParams } from 'react-router';
import {
  FormError,
  PasswordField,
  SubmitButton,
  SwitchFormLink,
  useFieldError,
  useValidatedForm,
} from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { replyOnRefusal } from '~/lib/form-actions.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { localeOf, services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { resetPasswordSchema } from '~/lib/validation/accounts.ts';
import { resetPassword } from '../../../server/domain/accounts.ts';
import type { Route } from './+types/reset-password';

export async function loader({ request }: Route.LoaderArgs) {
  const t = tFor(request);
  return { meta: { title: t('auth:reset.title'), description: t('auth:reset.description'), noindex: true } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const hideFields = ['password', 'password_confirmation'];
  const submission = parseWithZod(await request.formData(), { schema: resetPasswordSchema });
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields }) }, { status: 422 });
  return replyOnRefusal(
    (opts) => submission.reply({ ...opts, hideFields }),
    async () => {
      await resetPassword(services(context).auth, submission.value.token, submission.value.password);
      return redirect(`${localizePath('/login', localeOf(request))}?reset=1`);
    },
  );
}

export const meta: Route.MetaFunction = routeMeta;

export default function ResetPasswordPage({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth');
  const { to } = useLocale();
  const [params] = useSearchParams();
  const _navigation = useNavigation();
  const _fieldError = useFieldError();
  const [form, fields] = useValidatedForm('reset-form', resetPasswordSchema, actionData?.result);
  const token = params.get('token') ?? '';
  const formError = actionData && 'formError' in actionData ? actionData.formError : undefined;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('reset.title')}
      </Title>
      {token ? <Text c="dimmed">{t('reset.intro')}</Text> : <FormError code="invalid-action-code" />}
      <FormError code={formError} />
      {token ? (
        <Form method="post" {...getFormProps(form)} noValidate>
          <input type="hidden" name="token" value={token} />
          <Stack gap="sm">
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
      {!token || formError ? (
        <SwitchFormLink
          question={t('reset.new-link')}
          label={t('forgot.title')}
          to={to('/account/forget-password')}
          redirectTo=""
        />
      ) : null}
    </Stack>
  );
}
