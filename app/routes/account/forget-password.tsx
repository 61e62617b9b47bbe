import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Alert, Stack, Text, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { data, Form, useNavigation } from 'react-router';
import {
  EmailField,
  FormError,
  SubmitButton,
  SwitchFormLink,
  useFieldError,
  useValidatedForm,
} from '~/components/form-parts.tsx';
import { replyOnRefusal } from '~/lib/form-actions.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, requestInfo, services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { forgotPasswordSchema } from '~/lib/validation/accounts.ts';
import { requestPasswordReset } from '../../../server/domain/accounts.ts';
import type { Route } from './+types/forget-password';

export async function loader({ request }: Route.LoaderArgs) {
  const t = tFor(request);
  return { meta: { title: t('auth:forgot.title'), description: t('auth:forgot.description') } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: forgotPasswordSchema });
  if (submission.status !== 'success') return data({ result: submission.reply(), sent: false }, { status: 422 });
  return replyOnRefusal(
    (opts) => submission.reply(opts),
    async () => {
      await requestPasswordReset(services(context).auth, db(context), submission.value.email, {
        ip: requestInfo(context).ip,
        headers: request.headers,
      });
      return { result: submission.reply({ resetForm: true }), sent: true };
    },
  );
}

export const meta: Route.MetaFunction = routeMeta;

export default function ForgetPasswordPage({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth');
  const { to } = useLocale();
  const _navigation = useNavigation();
  const _fieldError = useFieldError();
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
          <EmailField field={fields.email} label={t('fields.email')} autoComplete="email" />
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
