// Shared by page form actions: the one form-action shape, and what the account forms need.
import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect } from 'react-router';
import type { output, ZodType } from 'zod';
import { localizePath } from '~/i18n/config.ts';
import { localPath } from '~/lib/local-path.ts';
import { localeOf, requestInfo, services } from '~/lib/route.server.ts';
import { CLIENT_IP_HEADER, siteBaseUrl } from '../../server/auth/index.ts';
import { OIDC_PROVIDER_ID, oidcErrorCode } from '../../server/auth/oidc.ts';
import type { AccountNotices, AuthMeta } from '../../server/domain/accounts.ts';
import { Forbidden, Invalid, TooManyRequests } from '../../server/domain/errors.ts';

/** Where to go after signing in: a local `redirect=` target, else the home page of the locale. */
export function afterAuthTarget(request: Request, requested: string | undefined | null): string {
  return localPath(requested, localizePath('/', localeOf(request)));
}

/**
 * What the account functions need from a request: the real client IP (rate limits) and the
 * headers Better Auth reads (cookies, user agent), plus `x-locale` so SMS codes go out in the
 * language of the page.
 */
export function authMeta(request: Request, context: Parameters<typeof requestInfo>[0]): AuthMeta {
  const { ip } = requestInfo(context);
  const headers = new Headers(request.headers);
  headers.set('x-locale', localeOf(request));
  headers.set(CLIENT_IP_HEADER, ip);
  return { ip, headers };
}

/** How registration and phone codes reach the owner of a taken address or number. */
export function accountNotices(context: Parameters<typeof services>[0]): AccountNotices {
  const { sms, config, logger } = services(context);
  return { sms, logger, baseUrl: siteBaseUrl(config) };
}

export function redirectWithCookies(target: string, cookies: string[]): Response {
  const headers = new Headers();
  for (const c of cookies) headers.append('Set-Cookie', c);
  return redirect(target, { headers });
}

/** What every page form's action answers when it does not go on: the form's state and a form-wide refusal. */
export interface FormReply<Extra = unknown> {
  result: SubmissionResult<string[]> & Extra;
  formError: string | undefined;
}

export interface FormActionOptions<Extra> {
  /** Fields whose values are not sent back (passwords). */
  hideFields?: string[];
  /** Merged into the reply's `result` (e.g. which section of a page the form is). */
  extra?: Extra;
  /** The form-wide error when the schema refuses the form (hidden fields a person cannot fix). */
  invalid?: string;
}

/**
 * A page form's action, the one shape for all of them: the form parsed with its schema (422 with
 * the fields' errors when it does not pass), then `work` — the domain call, answering a redirect or
 * data (`cleared()` is the form's state emptied, for a form that stays on its page; `kept()` the form as sent). What the domain refuses becomes the form's reply: Invalid → 422 with its field errors (and
 * `form` as `formError`), TooManyRequests → 429 with `too-many:<minutes>` and Retry-After, Forbidden with
 * words (`<namespace>.<key>`) → 403 with `<namespace>:<key>` as `formError`. Any other
 * domain error goes on to the page error mapper (server/http/pages.ts): NotFound is a 404.
 * Form-wide errors stay out of Conform's result: a server form error there would keep blocking the
 * next submission.
 */
export async function formAction<Schema extends ZodType, T, Extra = unknown>(
  form: FormData,
  schema: Schema,
  work: (
    value: output<Schema>,
    form: { cleared: () => FormReply<Extra>['result']; kept: () => FormReply<Extra>['result'] },
  ) => Promise<T>,
  options: FormActionOptions<Extra> = {},
) {
  const submission = parseWithZod(form, { schema });
  const reply = (fieldErrors?: Record<string, string[]>) =>
    ({
      ...submission.reply({ hideFields: options.hideFields, ...(fieldErrors ? { fieldErrors } : {}) }),
      ...options.extra,
    }) as FormReply<Extra>['result'];
  if (submission.status !== 'success') {
    return data<FormReply<Extra>>({ result: reply(), formError: options.invalid }, { status: 422 });
  }
  try {
    const cleared = () =>
      ({ ...submission.reply({ resetForm: true }), ...options.extra }) as FormReply<Extra>['result'];
    // `kept`: the form as sent, for a reply that stays on the page with the values (a question).
    return await work(submission.value, { cleared, kept: () => reply() });
  } catch (error) {
    if (error instanceof TooManyRequests) {
      return data<FormReply<Extra>>(
        { result: reply(), formError: `too-many:${Math.ceil(error.retryAfter / 60)}` },
        { status: 429, headers: { 'Retry-After': String(error.retryAfter) } },
      );
    }
    if (error instanceof Invalid) {
      const { form: formWide, ...fieldErrors } = error.errors;
      return data<FormReply<Extra>>({ result: reply(fieldErrors), formError: formWide?.[0] }, { status: 422 });
    }
    if (error instanceof Forbidden && /^[a-z]+\.[\w.-]+$/.test(error.message)) {
      // A refusal with words of its own (a catalogue key, namespace first): the form says them.
      return data<FormReply<Extra>>({ result: reply(), formError: error.message.replace('.', ':') }, { status: 403 });
    }
    throw error;
  }
}

/**
 * What the login and register pages show about external sign-in: the provider's button label (null
 * when none is configured) and, after a failed round trip, its `?error=` as one of our codes.
 */
export function externalSignInState(request: Request, context: Parameters<typeof services>[0]) {
  const error = new URL(request.url).searchParams.get('error');
  return {
    externalProvider: services(context).config.oidc?.name ?? null,
    externalError: error ? oidcErrorCode(error) : undefined,
  };
}

/** The "Continue with …" post of the login and register forms, if that is what `form` is. */
export function externalSignInPost(request: Request, context: Parameters<typeof services>[0], form: FormData) {
  if (form.get('intent') !== 'oidc') return undefined;
  return startExternalSignIn(request, context, afterAuthTarget(request, String(form.get('redirect') ?? '')));
}

/**
 * "Continue with <provider>": Better Auth builds the authorisation URL (PKCE, state, nonce) and the
 * state cookie; the browser is sent there. The provider comes back to /api/auth/callback/oidc,
 * which lands on `target`, or on the login page with `?error=` when it fails.
 */
export async function startExternalSignIn(
  request: Request,
  context: Parameters<typeof services>[0],
  target: string,
): Promise<Response> {
  const { auth, config } = services(context);
  if (!config.oidc) throw new Response(null, { status: 404 });
  const errorPage = `${localizePath('/login', localeOf(request))}?${new URLSearchParams({ redirect: target })}`;
  const { headers, response } = await auth.api.signInSocial({
    body: { provider: OIDC_PROVIDER_ID, callbackURL: target, errorCallbackURL: errorPage },
    headers: authMeta(request, context).headers,
    returnHeaders: true,
  });
  if (!response || !('url' in response) || !response.url) throw new Error('OIDC sign-in gave no URL');
  return redirectWithCookies(response.url, headers.getSetCookie());
}
