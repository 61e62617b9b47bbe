// What every back-office loader and action starts with (docs/product/back-office.md): the staff
// member, checked on the server for the one permission the screen or the change needs (403 to
// staff without it, 404 to members, the login page to visitors), and the actor the audit log
// records (who, from which address and browser).
import type { RouterContextProvider } from 'react-router';
import { requestInfo } from '~/lib/route.server.ts';
import { requirePermission, requireSuperAdmin } from '~/lib/session.server.ts';
import type { SessionUser } from '../../server/domain/accounts.ts';
import type { Actor } from '../../server/domain/ads/rules.ts';
import type { Permission } from '../../server/domain/permissions.ts';

/** The acting staff member, with the request's address and browser for the audit log. */
export function actorOf(user: SessionUser, context: Readonly<RouterContextProvider>): Actor {
  const info = requestInfo(context);
  return { id: user.id, ip: info.ip, userAgent: info.userAgent };
}

export interface Staff {
  user: SessionUser;
  actor: Actor;
}

/** The staff member holding `permission` (the super admin holds all), or the guard's answer. */
export async function requireStaff(
  request: Request,
  context: Readonly<RouterContextProvider>,
  permission: Permission,
): Promise<Staff> {
  const user = await requirePermission(request, context, permission);
  return { user, actor: actorOf(user, context) };
}

/** The super admin (screens no permission opens: the settings), or the guard's answer (403 to other staff). */
export async function requireSuperAdminStaff(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<Staff> {
  const user = await requireSuperAdmin(request, context);
  return { user, actor: actorOf(user, context) };
}
