// Who may do what: staff are members holding at least one permission, or the super admin, who
// holds them all (docs/product/accounts-and-roles.md). Pure, so the server's guards and the admin
// sidebar in the browser read the same rule.

export interface StaffUser {
  is_super_admin: boolean;
  permissions: readonly string[];
}

/** Staff: at least one permission, or super admin. */
export const isStaff = (u: StaffUser | null | undefined): u is StaffUser =>
  !!u && (u.is_super_admin || u.permissions.length > 0);

/** Whether `u` holds `permission` (null: any staff member). The super admin holds every one. */
export const can = (u: StaffUser | null | undefined, permission: string | null): boolean =>
  isStaff(u) && (u.is_super_admin || permission === null || u.permissions.includes(permission));
