// Shared by form actions (sign-in, registration, contact): turn domain results into responses.
import { data, redirect } from 'react-router';
import { localizePath } from '~/i18n/config.ts';
import { localPath } from '~/lib/local-path.ts';
import { localeOf, requestInfo, services } from '~/lib/route.server.ts';
import { CLIENT_IP_HEADER, siteBaseUrl } from '../../server/auth/index.ts';
import { OIDC_PROVIDER_ID, oidcErrorCode } from '../../server/auth/oidc.ts';
import type { AccountNotices, AuthMeta } from '../../server/domain/accounts.ts';
import { Invalid, TooManyRequests } from '../../server/domain/errors.ts';

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

/**
 * Runs an auth step; a domain refusal becomes the form's reply: field errors go to the form
 * library (422), a form-wide refusal (`invalid-credential`, `too-many:<minutes>` with 429) is
 * returned beside it as `formError`. Form-level errors stay out of Conform's result: a server
 * form error there would keep blocking the next submission.
 */
export async function replyOnRefusal<R, T>(
  reply: (opts: { fieldErrors?: Record<string, string[]> }) => R,
  work: () => Promise<T>,
) {
  type Refusal = { result: R; formError: string | undefined };
  try {
    return await work();
  } catch (error) {
    if (error instanceof TooManyRequests) {
      return data<Refusal>(
        { result: reply({}), formError: `too-many:${Math.ceil(error.retryAfter / 60)}` },
        { status: 429, headers: { 'Retry-After': String(error.retryAfter) } },
      );
    }
    if (error instanceof Invalid) {
      const { form, ...fieldErrors } = error.errors;
      return data<Refusal>({ result: reply({ fieldErrors }), formError: form?.[0] }, { status: 422 });
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
