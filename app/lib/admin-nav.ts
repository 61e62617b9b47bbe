// The admin screens of seed §6 and the permission each needs. The sidebar shows only the screens
// the user may open; the same table is what the server guards check (accounts issue).
export interface StaffUser {
  is_super_admin: boolean;
  permissions: string[];
}

export interface AdminScreen {
  path: string;
  /** Catalogue key under common:admin.nav. */
  key: string;
  permission: string | null;
}

export const ADMIN_SCREENS: AdminScreen[] = [
  { path: '/admin', key: 'dashboard', permission: null },
  { path: '/admin/posts', key: 'posts', permission: 'view-ads' },
  { path: '/admin/users', key: 'users', permission: 'view-users' },
  { path: '/admin/permissions', key: 'permissions', permission: 'view-permissions' },
  { path: '/admin/packages', key: 'packages', permission: 'view-packages' },
  { path: '/admin/companies', key: 'companies', permission: 'view-companies' },
  { path: '/admin/badges', key: 'badges', permission: 'view-badges' },
  { path: '/admin/cities', key: 'cities', permission: 'view-cities' },
  { path: '/admin/banners', key: 'banners', permission: 'view-banners' },
  { path: '/admin/revisions', key: 'revisions', permission: 'view-revisions' },
  { path: '/admin/taxonomies', key: 'taxonomies', permission: 'view-categories' },
  { path: '/admin/categories', key: 'categories', permission: 'view-categories' },
];

/** Staff: at least one permission, or super admin (seed §4). */
export const isStaff = (u: StaffUser | null | undefined): u is StaffUser =>
  !!u && (u.is_super_admin || u.permissions.length > 0);

export const can = (u: StaffUser | null | undefined, permission: string | null): boolean =>
  isStaff(u) && (u.is_super_admin || permission === null || u.permissions.includes(permission));

export const adminScreensFor = (u: StaffUser | null | undefined): AdminScreen[] =>
  ADMIN_SCREENS.filter((s) => can(u, s.permission));
