import { getFormProps } from '@conform-to/react';
import { Alert, Anchor, Checkbox, Group, Stack, Title } from '@mantine/core';
import { Form, Link, useSearchParams } from 'react-router';
import { ExternalSignIn } from '~/components/external-sign-in.tsx';
import {
  FormError,
  LoginField,
  PasswordField,
  SubmitButton,
  SwitchFormLink,
  useValidatedForm,
} from '~/components/form-parts.tsx';
import { useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import {
  afterAuthTarget,
  authMeta,
  externalSignInPost,
  externalSignInState,
  formAction,
  redirectWithCookies,
} from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { loginSchema } from '~/lib/validation/accounts.ts';
import { signIn } from '../../../server/domain/accounts.ts';
import type { Route } from './+types/login';

/** Signed-in members are sent home, for the page and the form post alike. */
export const middleware = guards('guest');

export async function loader({ request, context }: Route.LoaderArgs) {
  const t = tFor(request);
  return {
    meta: { title: t('auth:login.title'), description: t('auth:login.description') },
    ...externalSignInState(request, context),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const external = externalSignInPost(request, context, form);
  if (external) return external;
  return formAction(
    form,
    loginSchema,
    async (input) => {
      const cookies = await signIn(
        services(context).auth,
        db(context),
        { login: input.login, password: input.password, remember: input.remember === 'on' },
        authMeta(request, context),
      );
      return redirectWithCookies(afterAuthTarget(request, input.redirect), cookies);
    },
    { hideFields: ['password'] },
  );
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('auth');
  const { to } = useLocale();
  const [params] = useSearchParams();
  const [form, fields] = useValidatedForm('login-form', loginSchema, actionData?.result);
  const redirectTo = params.get('redirect') ?? '';
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('login.title')}
      </Title>
      {params.get('reset') === '1' ? (
        <Alert color="brand" role="status">
          {t('reset.done')}
        </Alert>
      ) : null}
      <FormError code={actionData && 'formError' in actionData ? actionData.formError : loaderData.externalError} />
      <ExternalSignIn provider={loaderData.externalProvider} redirectTo={redirectTo} />
      <Form method="post" {...getFormProps(form)} noValidate>
        <input type="hidden" name="redirect" value={redirectTo} />
        <Stack gap="sm">
          <LoginField
            field={fields.login}
            label={t('fields.login')}
            hint={t('fields.login-hint')}
            autoComplete="username"
          />
          <PasswordField field={fields.password} label={t('fields.password')} autoComplete="current-password" />
          <Group justify="space-between" gap="xs">
            <Checkbox name="remember" value="on" defaultChecked label={t('login.remember')} />
            <Anchor component={Link} to={to('/account/forget-password')} size="sm">
              {t('forgot.link')}
            </Anchor>
          </Group>
          <SubmitButton>{t('login.submit')}</SubmitButton>
        </Stack>
      </Form>
      <SwitchFormLink
        question={t('login.no-account')}
        label={t('login.register-link')}
        to={to('/register')}
        redirectTo={redirectTo}
      />
    </Stack>
  );
}
