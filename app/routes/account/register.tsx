import { getFormProps, getInputProps } from '@conform-to/react';
import { Anchor, Checkbox, Stack, TextInput, Title } from '@mantine/core';
import { Form, Link, redirect, useSearchParams } from 'react-router';
import { ExternalSignIn } from '~/components/external-sign-in.tsx';
import {
  FormError,
  LoginField,
  PasswordField,
  SubmitButton,
  SwitchFormLink,
  useFieldError,
  useValidatedForm,
} from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { Trans } from '~/i18n/trans.tsx';
import { useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import {
  accountNotices,
  afterAuthTarget,
  authMeta,
  externalSignInPost,
  externalSignInState,
  formAction,
  redirectWithCookies,
} from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { registerSchema } from '~/lib/validation/accounts.ts';
import { isPhoneIdentifier } from '~/lib/validation/rules.ts';
import { register } from '../../../server/domain/accounts.ts';
import type { Route } from './+types/register';

/** Signed-in members are sent home, for the page and the form post alike. */
export const middleware = guards('guest');

export async function loader({ request, context }: Route.LoaderArgs) {
  const t = tFor(request);
  return {
    meta: { title: t('auth:register.title'), description: t('auth:register.description') },
    ...externalSignInState(request, context),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const hideFields = ['password', 'password_confirmation'];
  const form = await request.formData();
  const external = externalSignInPost(request, context, form);
  if (external) return external;
  return formAction(
    form,
    registerSchema,
    async (input) => {
      const cookies = await register(
        services(context).auth,
        db(context),
        { name: input.name, login: input.login, password: input.password, locale: localeOf(request) },
        authMeta(request, context),
        accountNotices(context),
      );
      const target = afterAuthTarget(request, input.redirect);
      // A phone number is confirmed next, with the code just sent; then the member goes on.
      if (isPhoneIdentifier(input.login)) {
        const query = new URLSearchParams({ phone: input.login, sent: '1', redirect: target });
        return redirectWithCookies(
          `${localizePath('/account/phone-verification', localeOf(request))}?${query}`,
          cookies,
        );
      }
      // An email is confirmed by its link before anyone signs in; new and taken addresses end here alike.
      const query = new URLSearchParams({ registered: input.login.toLowerCase() });
      return redirect(`${localizePath('/account/email-verification', localeOf(request))}?${query}`);
    },
    { hideFields },
  );
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function RegisterPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('auth');
  const { to } = useLocale();
  const [params] = useSearchParams();
  const fieldError = useFieldError();
  const [form, fields] = useValidatedForm('register-form', registerSchema, actionData?.result);
  const redirectTo = params.get('redirect') ?? '';
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('register.title')}
      </Title>
      <FormError code={actionData && 'formError' in actionData ? actionData.formError : loaderData.externalError} />
      <ExternalSignIn provider={loaderData.externalProvider} redirectTo={redirectTo} />
      <Form method="post" {...getFormProps(form)} noValidate>
        <input type="hidden" name="redirect" value={redirectTo} />
        <Stack gap="sm">
          <TextInput
            {...getInputProps(fields.name, { type: 'text' })}
            key={fields.name.key}
            label={t('fields.name')}
            autoComplete="name"
            error={fieldError(fields.name)}
            withAsterisk
          />
          <LoginField
            field={fields.login}
            label={t('fields.login')}
            hint={t('fields.login-hint')}
            autoComplete="username"
          />
          <PasswordField
            field={fields.password}
            label={t('fields.password')}
            description={t('register.password-hint')}
            autoComplete="new-password"
          />
          <PasswordField
            field={fields.password_confirmation}
            label={t('fields.password_confirmation')}
            autoComplete="new-password"
          />
          <Checkbox
            name="terms"
            value="on"
            error={fieldError(fields.terms)}
            label={
              // One inline run: Mantine's label is a flex row, which would stack the sentence's parts.
              <span>
                <Trans
                  t={t}
                  i18nKey="register.terms"
                  components={{
                    terms: <Anchor component={Link} to={to('/terms')} />,
                    privacy: <Anchor component={Link} to={to('/privacy')} />,
                  }}
                />
              </span>
            }
          />
          <SubmitButton>{t('register.submit')}</SubmitButton>
        </Stack>
      </Form>
      <SwitchFormLink
        question={t('register.have-account')}
        label={t('register.login-link')}
        to={to('/login')}
        redirectTo={redirectTo}
      />
    </Stack>
  );
}
