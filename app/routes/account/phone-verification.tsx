import { getFormProps, getInputProps } from '@conform-to/react';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck, IconMessageCheck } from '@tabler/icons-react';
import { Form, Link, redirect, useSearchParams } from 'react-router';
import { CodeField, FormError, SubmitButton, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { accountNotices, afterAuthTarget, authMeta, formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, services, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { sendPhoneCodeSchema, verifyPhoneSchema } from '~/lib/validation/accounts.ts';
import { PHONE_PATTERN } from '~/lib/validation/rules.ts';
import { sendPhoneCode, verifyPhone } from '../../../server/domain/accounts.ts';
import type { Route } from './+types/phone-verification';

// Confirms a phone number with a 6-digit SMS code: right after a sign-up by phone, and from the
// profile to add or change a number. Two steps on one page: the number (`intent=send`), then the
// code (`intent=verify`). The number joins the account only when the code is right.

export const middleware = guards('auth');

export async function loader({ request, context }: Route.LoaderArgs) {
  const t = tFor(request);
  const user = await requireUser(request, context);
  return {
    meta: { title: t('auth:phone.title'), description: t('auth:phone.description'), noindex: true },
    currentPhone: user.phone,
  };
}

const codePage = (request: Request, phone: string, redirectTo: string) => {
  const query = new URLSearchParams({ phone, sent: '1', redirect: redirectTo });
  return `${localizePath('/account/phone-verification', localeOf(request))}?${query}`;
};

export async function action({ request, context }: Route.ActionArgs) {
  await requireUser(request, context);
  const form = await request.formData();
  const redirectTo = afterAuthTarget(request, String(form.get('redirect') ?? ''));
  const { auth } = services(context);
  if (form.get('intent') === 'verify') {
    return formAction(
      form,
      verifyPhoneSchema,
      async (value) => {
        await verifyPhone(auth, db(context), value, authMeta(request, context));
        return redirectWithFlash(redirectTo, 'phone-verified');
      },
      { hideFields: ['code'] },
    );
  }
  return formAction(form, sendPhoneCodeSchema, async ({ phone }) => {
    await sendPhoneCode(auth, db(context), phone, authMeta(request, context), accountNotices(context));
    return redirect(codePage(request, phone, redirectTo));
  });
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function PhoneVerificationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('auth');
  const { to } = useLocale();
  const [params] = useSearchParams();
  const fieldError = useFieldError();
  const phone = params.get('phone') ?? '';
  const redirectTo = params.get('redirect') ?? '';
  const codeStep = PHONE_PATTERN.test(phone) && params.get('sent') === '1';
  const [sendForm, sendFields] = useValidatedForm(
    'phone-form',
    sendPhoneCodeSchema,
    codeStep ? undefined : actionData?.result,
  );
  const [codeForm, codeFields] = useValidatedForm(
    'code-form',
    verifyPhoneSchema,
    codeStep ? actionData?.result : undefined,
  );
  const formError = actionData && 'formError' in actionData ? actionData.formError : undefined;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('phone.title')}
      </Title>
      {loaderData.currentPhone && !codeStep ? (
        // Already confirmed: says so and leads on; the form below changes the number.
        <Alert color="brand" icon={<IconCircleCheck aria-hidden />} title={t('phone.confirmed-title')}>
          <Stack gap="xs">
            <Text size="sm">
              {t('phone.current')} <bdi dir="ltr">{loaderData.currentPhone}</bdi>
            </Text>
            <Anchor component={Link} to={redirectTo || to('/profile')} fw={600} py={10} c="inherit" underline="always">
              {t('phone.go-on')}
            </Anchor>
          </Stack>
        </Alert>
      ) : null}
      <FormError code={formError} />
      {codeStep ? (
        <>
          <Alert color="brand" icon={<IconMessageCheck aria-hidden />} role="status">
            {t('phone.sent')} <bdi dir="ltr">{phone}</bdi>
          </Alert>
          <Form method="post" {...getFormProps(codeForm)} noValidate>
            <input type="hidden" name="intent" value="verify" />
            <input type="hidden" name="phone" value={phone} />
            <input type="hidden" name="redirect" value={redirectTo} />
            <Stack gap="sm">
              <CodeField field={codeFields.code} label={t('fields.code')} />
              <SubmitButton>{t('phone.verify')}</SubmitButton>
            </Stack>
          </Form>
          <Group justify="space-between" gap="xs">
            {/* A second form, so asking again never needs the code field to be valid. */}
            <Form method="post">
              <input type="hidden" name="intent" value="send" />
              <input type="hidden" name="phone" value={phone} />
              <input type="hidden" name="redirect" value={redirectTo} />
              <Button type="submit" variant="subtle" size="compact-sm">
                {t('phone.resend')}
              </Button>
            </Form>
            <Anchor component={Link} to={`?${new URLSearchParams({ redirect: redirectTo })}`} size="sm">
              {t('phone.other-number')}
            </Anchor>
          </Group>
        </>
      ) : (
        <Form method="post" {...getFormProps(sendForm)} noValidate>
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="redirect" value={redirectTo} />
          <Stack gap="sm">
            <Text c="dimmed">{t('phone.intro')}</Text>
            <TextInput
              {...getInputProps(sendFields.phone, { type: 'tel' })}
              key={sendFields.phone.key}
              label={t('fields.phone')}
              description={t('fields.phone-hint')}
              autoComplete="tel"
              dir="ltr"
              error={fieldError(sendFields.phone)}
              withAsterisk
            />
            <SubmitButton>{t('phone.send')}</SubmitButton>
          </Stack>
        </Form>
      )}
    </Stack>
  );
}
