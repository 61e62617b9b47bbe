// The admin screens of docs/product/accounts-and-roles.md and the permission each needs. The
// sidebar shows only the screens the user may open; the same table is what the server guards check.
import { can, type StaffUser } from '../../server/domain/access.ts';

export interface AdminScreen {
  path: string;
  /** Catalogue key under common:admin.nav. */
  key: string;
  permission: string | null;
  /** Built and routed; the sidebar lists only these (the others are not built yet). */
  ready: boolean;
}

export const ADMIN_SCREENS: AdminScreen[] = [
  { path: '/admin', key: 'dashboard', permission: null, ready: true },
  { path: '/admin/posts', key: 'posts', permission: 'view-ads', ready: true },
  { path: '/admin/users', key: 'users', permission: 'view-users', ready: false },
  { path: '/admin/permissions', key: 'permissions', permission: 'view-permissions', ready: false },
  { path: '/admin/packages', key: 'packages', permission: 'view-packages', ready: false },
  { path: '/admin/companies', key: 'companies', permission: 'view-companies', ready: false },
  { path: '/admin/badges', key: 'badges', permission: 'view-badges', ready: false },
  { path: '/admin/cities', key: 'cities', permission: 'view-cities', ready: false },
  { path: '/admin/banners', key: 'banners', permission: 'view-banners', ready: false },
  { path: '/admin/revisions', key: 'revisions', permission: 'view-revisions', ready: false },
  { path: '/admin/taxonomies', key: 'taxonomies', permission: 'view-categories', ready: true },
  { path: '/admin/categories', key: 'categories', permission: 'view-categories', ready: true },
];

export const adminScreensFor = (u: StaffUser | null | undefined): AdminScreen[] =>
  ADMIN_SCREENS.filter((s) => s.ready && can(u, s.permission));
