// Route guards by name (docs/product/accounts-and-roles.md): a route module declares
// `export const middleware = guards('auth')` (or 'guest', 'admin', 'super-admin', 'acl:<permission>'); they run on
// the server before its loader and its action, for document and data requests alike. An unknown
// name throws when the module loads, so the server refuses to start instead of failing at request
// time.
import type { MiddlewareFunction } from 'react-router';
import { requireAdmin, requireGuest, requirePermission, requireSuperAdmin, requireUser } from '~/lib/session.server.ts';
import { PERMISSIONS } from '../../server/domain/permissions.ts';

export type GuardName = 'auth' | 'guest' | 'admin' | 'super-admin' | `acl:${string}`;

function guard(name: string): MiddlewareFunction<Response> {
  if (name === 'auth') return async ({ request, context }) => void (await requireUser(request, context));
  if (name === 'guest') return async ({ request, context }) => requireGuest(request, context);
  if (name === 'admin') return async ({ request, context }) => void (await requireAdmin(request, context));
  if (name === 'super-admin') return async ({ request, context }) => void (await requireSuperAdmin(request, context));
  if (name.startsWith('acl:') && (PERMISSIONS as readonly string[]).includes(name.slice(4))) {
    const permission = name.slice(4);
    return async ({ request, context }) => void (await requirePermission(request, context, permission));
  }
  throw new Error(`Unknown route middleware: ${name}`);
}

export function guards(...names: GuardName[]): MiddlewareFunction<Response>[] {
  return names.map(guard);
}
