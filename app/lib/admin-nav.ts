// The admin screens of docs/product/accounts-and-roles.md and the permission each needs. The
// sidebar shows only the screens the user may open; the same table is what the server guards check.
import { can, type StaffUser } from '../../server/domain/access.ts';

export interface AdminScreen {
  path: string;
  /** Catalogue key under common:admin.nav. */
  key: string;
  /** null: any staff member; 'super-admin': the super admin only (`can` passes no one else). */
  permission: string | null;
  /** Built and routed; the sidebar lists only these (the others are not built yet). */
  ready: boolean;
}

export const ADMIN_SCREENS: AdminScreen[] = [
  { path: '/admin', key: 'dashboard', permission: null, ready: true },
  { path: '/admin/posts', key: 'posts', permission: 'view-ads', ready: true },
  { path: '/admin/reports', key: 'reports', permission: 'view-ads', ready: true },
  { path: '/admin/users', key: 'users', permission: 'view-users', ready: true },
  { path: '/admin/permissions', key: 'permissions', permission: 'view-permissions', ready: true },
  { path: '/admin/packages', key: 'packages', permission: 'view-packages', ready: true },
  { path: '/admin/companies', key: 'companies', permission: 'view-companies', ready: true },
  { path: '/admin/badges', key: 'badges', permission: 'view-badges', ready: true },
  { path: '/admin/cities', key: 'cities', permission: 'view-cities', ready: true },
  { path: '/admin/banners', key: 'banners', permission: 'view-banners', ready: true },
  { path: '/admin/revisions', key: 'revisions', permission: 'view-revisions', ready: true },
  { path: '/admin/taxonomies', key: 'taxonomies', permission: 'view-categories', ready: true },
  { path: '/admin/categories', key: 'categories', permission: 'view-categories', ready: true },
  { path: '/admin/jobs', key: 'jobs', permission: 'view-dashboard', ready: true },
  { path: '/admin/settings', key: 'settings', permission: 'super-admin', ready: true },
];

export const adminScreensFor = (u: StaffUser | null | undefined): AdminScreen[] =>
  ADMIN_SCREENS.filter((s) => s.ready && can(u, s.permission));
