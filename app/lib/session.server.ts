// The current user of a request (read once per request) and the route guards of docs/product/accounts-and-roles.md.
import { type RouterContextProvider, redirect } from 'react-router';
import { localizePath } from '~/i18n/config.ts';
import { localeOf, notFound, services } from '~/lib/route.server.ts';
import { can, isStaff } from '../../server/domain/access.ts';
import { type SessionUser, sessionUser } from '../../server/domain/accounts.ts';

const cache = new WeakMap<Request, Promise<SessionUser | null>>();

export function currentUser(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser | null> {
  let user = cache.get(request);
  if (!user) {
    const { auth, database } = services(context);
    user = sessionUser(auth, database.db, request.headers);
    cache.set(request, user);
  }
  return user;
}

/** `auth`: a visitor goes to /login?redirect=<this page> (in the page's language). */
export async function requireUser(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser> {
  const user = await currentUser(request, context);
  if (user) return user;
  const url = new URL(request.url);
  throw redirect(
    `${localizePath('/login', localeOf(request))}?redirect=${encodeURIComponent(url.pathname + url.search)}`,
  );
}

/** `guest`: a signed-in user is sent home. */
export async function requireGuest(request: Request, context: Readonly<RouterContextProvider>): Promise<void> {
  if (await currentUser(request, context)) throw redirect(localizePath('/', localeOf(request)));
}

/** `admin`: staff only; anyone else signed in gets 404 (the back office is not revealed). */
export async function requireAdmin(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (isStaff(user)) return user;
  throw notFound(request);
}

/** `acl:<permission>`: staff without the permission get 403. */
export async function requirePermission(
  request: Request,
  context: Readonly<RouterContextProvider>,
  permission: string,
): Promise<SessionUser> {
  const user = await requireAdmin(request, context);
  if (can(user, permission)) return user;
  throw new Response(null, { status: 403, statusText: 'Forbidden' });
}

/** `super-admin`: the super admin only; other staff get 403 (as `acl:`), members 404. */
export async function requireSuperAdmin(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<SessionUser> {
  const user = await requireAdmin(request, context);
  if (user.is_super_admin) return user;
  throw new Response(null, { status: 403, statusText: 'Forbidden' });
}
