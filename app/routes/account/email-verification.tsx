import { getFormProps } from '@conform-to/react';
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconMailCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { data, Form, Link, useNavigation, useSearchParams } from 'react-router';
import { EmailField, FormError, SubmitButton, useValidatedForm } from '~/components/form-parts.tsx';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { authMeta, formAction } from '~/lib/form-actions.server.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, services, tFor } from '~/lib/route.server.ts';
import { currentUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { resendVerificationSchema } from '~/lib/validation/accounts.ts';
import { resendVerification, VERIFY_RESEND_LIMITS, verifyEmail } from '../../../server/domain/accounts.ts';
import type { Route } from './+types/email-verification';

// `/account/email-verification` (docs/accounts.md): the link in the mail lands here with its token;
// right after registering by email (`?registered=<address>`) it is the "check your email" screen; a
// signed-in member sees their own address's state; anyone else can ask for the link again.

/** What the page knows of a signed-in member's email. */
type Member = { email: string | null; verified: boolean } | null;

export async function loader({ request, context }: Route.LoaderArgs) {
  const t = tFor(request);
  const meta = { title: t('auth:verify.title'), description: t('auth:verify.description'), noindex: true };
  const cooldown = VERIFY_RESEND_LIMITS.perAccount.windowSeconds;
  const token = new URL(request.url).searchParams.get('token');
  if (token) {
    if (await verifyEmail(services(context).auth, db(context), token, request.headers)) {
      return data({
        meta,
        cooldown,
        verified: true,
        linkError: undefined as string | undefined,
        member: null as Member,
      });
    }
    return data(
      { meta, cooldown, verified: false, linkError: 'invalid-action-code', member: null as Member },
      { status: 400 },
    );
  }
  const user = await currentUser(request, context);
  const member: Member = user ? { email: user.email, verified: user.email_verified } : null;
  return data({ meta, cooldown, verified: false, linkError: undefined as string | undefined, member });
}

export async function action({ request, context }: Route.ActionArgs) {
  return formAction(await request.formData(), resendVerificationSchema, async ({ email }, form) => {
    await resendVerification(services(context).auth, db(context), email, authMeta(request, context));
    return { result: form.cleared(), formError: undefined, sent: true };
  });
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

/** The address a registration went to (`?registered=`), when it reads as one. */
function registeredAddress(value: string | null): string | null {
  return value && value.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(value) ? value : null;
}

/**
 * "Send the link again" for a known address, after a cool-down while JavaScript runs: from the page
 * (`fromPage`: a mail just went out) and from each answer (`answer`, the action's reply). The
 * server keeps its own limit either way (429 with the minutes to wait).
 */
function ResendLink({
  email,
  cooldown,
  fromPage,
  answer,
}: {
  email: string;
  cooldown: number;
  fromPage: boolean;
  answer: unknown;
}) {
  const { t } = useT('auth');
  const { locale } = useLocale();
  const navigation = useNavigation();
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (!fromPage && !answer) return;
    const until = Date.now() + cooldown * 1000;
    setLeft(cooldown);
    const timer = setInterval(() => {
      const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      setLeft(seconds);
      if (seconds === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [cooldown, fromPage, answer]);
  return (
    <Form method="post">
      <input type="hidden" name="email" value={email} />
      <Stack gap={4} align="center">
        <Button
          type="submit"
          variant="light"
          radius="xl"
          mih={44}
          disabled={left > 0}
          loading={navigation.state === 'submitting'}
        >
          {t('verify.resend')}
        </Button>
        {left > 0 ? (
          <Text size="sm" c="dimmed" aria-live="off" data-testid="resend-wait">
            {t('verify.resend-in', { count: left, seconds: numberFormat(locale).format(left) })}
          </Text>
        ) : null}
      </Stack>
    </Form>
  );
}

export default function EmailVerificationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('auth');
  useAreaCatalogues('profile', 'placing');
  const { to } = useLocale();
  const sent = !!actionData && 'sent' in actionData && actionData.sent;
  const formError = actionData && 'formError' in actionData ? actionData.formError : undefined;
  const [form, fields] = useValidatedForm(
    'resend-form',
    resendVerificationSchema,
    sent ? undefined : actionData?.result,
  );
  const [params] = useSearchParams();
  const { member, cooldown } = loaderData;
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
  const sentNotice = sent ? (
    <Alert color="brand" icon={<IconMailCheck aria-hidden />} role="status">
      {t('verify.sent')}
    </Alert>
  ) : null;

  // A signed-in member: their own address's state.
  if (member && !loaderData.linkError) {
    if (!member.email) {
      return (
        <Stack gap="md" align="center" ta="center">
          <Title order={1} size="h2">
            {t('verify.title')}
          </Title>
          <Text c="dimmed">{t('verify.member-no-email')}</Text>
          <Button component={Link} to={`${to('/profile')}#email`} radius="xl" mih={44}>
            {t('verify.member-add-email')}
          </Button>
        </Stack>
      );
    }
    if (member.verified) {
      return (
        <Stack gap="md" align="center" ta="center">
          <IconCircleCheck size={48} color="var(--mantine-color-brand-6)" aria-hidden />
          <Title order={1} size="h2">
            {t('verify.member-verified-title')}
          </Title>
          <Text c="dimmed">
            {t('verify.member-verified')} <bdi dir="ltr">{member.email}</bdi>
          </Text>
          <Group justify="center" gap="sm">
            <Button component={Link} to={to('/profile/posts')} radius="xl" mih={44}>
              {t('placing:mine.title')}
            </Button>
            <Button component={Link} to={to('/profile')} variant="default" radius="xl" mih={44}>
              {t('profile:title')}
            </Button>
          </Group>
        </Stack>
      );
    }
    return (
      <Stack gap="md" align="center" ta="center">
        <IconAlertCircle size={48} color="var(--mantine-color-yellow-7)" aria-hidden />
        <Title order={1} size="h2">
          {t('verify.member-unverified-title')}
        </Title>
        <Text c="dimmed">
          {t('verify.member-unverified')} <bdi dir="ltr">{member.email}</bdi>
        </Text>
        {sentNotice}
        <FormError code={formError} />
        <ResendLink email={member.email} cooldown={cooldown} fromPage={false} answer={actionData} />
        <Anchor component={Link} to={`${to('/profile')}#email`} size="sm" py={10}>
          {t('verify.change-address')}
        </Anchor>
      </Stack>
    );
  }

  // Right after registering by email (new and taken addresses land here alike): check your email.
  const registered = registeredAddress(params.get('registered'));
  if (registered && !loaderData.linkError) {
    return (
      <Stack gap="md" align="center" ta="center">
        <IconMailCheck size={48} color="var(--mantine-color-brand-6)" aria-hidden />
        <Title order={1} size="h2">
          {t('verify.check-title')}
        </Title>
        <Text>
          {t('verify.registered')} <bdi dir="ltr">{registered}</bdi>
        </Text>
        <Text c="dimmed" size="sm">
          {t('verify.registered-next')}
        </Text>
        {sentNotice}
        <FormError code={formError} />
        <ResendLink email={registered} cooldown={cooldown} fromPage answer={actionData} />
        <Group justify="center" gap="md">
          <Anchor component={Link} to={to('/register')} size="sm" py={10}>
            {t('verify.wrong-address')}
          </Anchor>
          <Anchor component={Link} to={to('/login')} size="sm" py={10}>
            {t('verify.go-to-login')}
          </Anchor>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('verify.title')}
      </Title>
      <FormError code={loaderData.linkError} />
      {sent ? sentNotice : <Text c="dimmed">{t('verify.intro')}</Text>}
      <FormError code={formError} />
      <Form method="post" {...getFormProps(form)} noValidate>
        <Stack gap="sm">
          <EmailField field={fields.email} label={t('fields.email')} autoComplete="email" />
          <SubmitButton>{t('verify.resend')}</SubmitButton>
        </Stack>
      </Form>
    </Stack>
  );
}
