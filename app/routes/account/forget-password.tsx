import { getFormProps } from '@conform-to/react';
import { Alert, Stack, Text, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Form, redirect } from 'react-router';
import { FormError, LoginField, SubmitButton, SwitchFormLink, useValidatedForm } from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { authMeta, formAction } from '~/lib/form-actions.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { forgotPasswordSchema } from '~/lib/validation/accounts.ts';
import { isPhoneIdentifier } from '~/lib/validation/rules.ts';
import { requestPasswordReset, requestPhonePasswordReset } from '../../../server/domain/accounts.ts';
import type { Route } from './+types/forget-password';

export async function loader({ request }: Route.LoaderArgs) {
  const t = tFor(request);
  return { meta: { title: t('auth:forgot.title'), description: t('auth:forgot.description') } };
}

export async function action({ request, context }: Route.ActionArgs) {
  return formAction(await request.formData(), forgotPasswordSchema, async ({ login }, form) => {
    const meta = authMeta(request, context);
    if (isPhoneIdentifier(login)) {
      // The code comes by SMS; the next page takes it with the new password.
      await requestPhonePasswordReset(services(context).auth, db(context), login, meta);
      const query = new URLSearchParams({ phone: login });
      return redirect(`${localizePath('/account/reset-password', localeOf(request))}?${query}`);
    }
    await requestPasswordReset(services(context).auth, db(context), login, meta);
    return { result: form.cleared(), formError: undefined, sent: true };
  });
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function ForgetPasswordPage({ actionData }: Route.ComponentProps) {
  const { t } = useT('auth');
  const { to } = useLocale();
  const sent = !!actionData && 'sent' in actionData && actionData.sent;
  const [form, fields] = useValidatedForm('forgot-form', forgotPasswordSchema, sent ? undefined : actionData?.result);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('forgot.title')}
      </Title>
      {sent ? (
        <Alert color="brand" icon={<IconMailCheck aria-hidden />} role="status">
          {t('forgot.sent')}
        </Alert>
      ) : (
        <Text c="dimmed">{t('forgot.intro')}</Text>
      )}
      <FormError code={actionData && 'formError' in actionData ? actionData.formError : undefined} />
      <Form method="post" {...getFormProps(form)} noValidate>
        <Stack gap="sm">
          <LoginField
            field={fields.login}
            label={t('fields.login')}
            hint={t('fields.login-hint')}
            autoComplete="username"
          />
          <SubmitButton>{t('forgot.submit')}</SubmitButton>
        </Stack>
      </Form>
      <SwitchFormLink
        question={t('forgot.remembered')}
        label={t('register.login-link')}
        to={to('/login')}
        redirectTo=""
      />
    </Stack>
  );
}
