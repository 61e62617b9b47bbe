import { redirect } from 'react-router';
import { localizePath } from '~/i18n/config.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { localeOf, services } from '~/lib/route.server.ts';
import { signOut } from '../../../server/domain/accounts.ts';
import type { Route } from './+types/logout';

/** POST only: ends the session on the server and clears the cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  const cookies = await signOut(services(context).auth, request.headers);
  return redirectWithFlash(localizePath('/', localeOf(request)), 'signed-out', cookies);
}

/** A GET never signs anyone out (a link or an image could trigger it). */
export async function loader({ request }: Route.LoaderArgs) {
  throw redirect(localizePath('/', localeOf(request)));
}
