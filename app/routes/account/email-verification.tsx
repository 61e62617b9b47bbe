import { getFormProps } from '@conform-to/react';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconMailCheck } from '@tabler/icons-react';
import { data, Form, Link, useSearchParams } from 'react-router';
import { EmailField, FormError, SubmitButton, useValidatedForm } from '~/components/form-parts.tsx';
import { useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { authMeta, formAction } from '~/lib/form-actions.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { resendVerificationSchema } from '~/lib/validation/accounts.ts';
import { resendVerification, verifyEmail } from '../../../server/domain/accounts.ts';
import type { Route } from './+types/email-verification';

/** The link in the mail lands here: the token is checked and the email confirmed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const t = tFor(request);
  const meta = { title: t('auth:verify.title'), description: t('auth:verify.description'), noindex: true };
  const token = new URL(request.url).searchParams.get('token');
  if (!token) return data({ meta, verified: false, linkError: undefined as string | undefined });
  if (await verifyEmail(services(context).auth, db(context), token, request.headers)) {
    return data({ meta, verified: true, linkError: undefined as string | undefined });
  }
  return data({ meta, verified: false, linkError: 'invalid-action-code' }, { status: 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  return formAction(await request.formData(), resendVerificationSchema, async ({ email }, form) => {
    await resendVerification(services(context).auth, db(context), email, authMeta(request, context));
    return { result: form.cleared(), formError: undefined, sent: true };
  });
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function EmailVerificationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('auth');
  const { to } = useLocale();
  const sent = !!actionData && 'sent' in actionData && actionData.sent;
  const [form, fields] = useValidatedForm(
    'resend-form',
    resendVerificationSchema,
    sent ? undefined : actionData?.result,
  );
  // Right after registering (new and taken addresses land here alike): where the link went.
  const [params] = useSearchParams();
  const registered = params.get('registered') ?? '';
  const registeredTo = registered.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(registered) ? registered : null;
  if (loaderData.verified) {
    return (
      <Stack gap="md" align="center" ta="center" role="status">
        <IconCircleCheck size={48} color="var(--mantine-color-brand-6)" aria-hidden />
        <Title order={1} size="h2">
          {t('verify.done')}
        </Title>
        <Text c="dimmed">{t('verify.done-body')}</Text>
        <Button component={Link} to={to('/login')} radius="xl">
          {t('login.title')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('verify.title')}
      </Title>
      <FormError code={loaderData.linkError} />
      {registeredTo && !sent ? (
        <Alert color="brand" icon={<IconMailCheck aria-hidden />} role="status">
          {t('verify.registered')} <bdi dir="ltr">{registeredTo}</bdi>
          <Text size="sm" mt="xs">
            {t('verify.registered-next')}
          </Text>
        </Alert>
      ) : null}
      {sent ? (
        <Alert color="brand" icon={<IconMailCheck aria-hidden />} role="status">
          {t('verify.sent')}
        </Alert>
      ) : (
        <Text c="dimmed">{t('verify.intro')}</Text>
      )}
      <FormError code={actionData && 'formError' in actionData ? actionData.formError : undefined} />
      <Form method="post" {...getFormProps(form)} noValidate>
        <Stack gap="sm">
          <EmailField field={fields.email} label={t('fields.email')} autoComplete="email" />
          <SubmitButton>{t('verify.resend')}</SubmitButton>
        </Stack>
      </Form>
    </Stack>
  );
}
