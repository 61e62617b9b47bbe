// The members list's query (docs/product/back-office.md, "Members"): its sorts and filters, read
// by the loader (parseListQuery) and written by the list (AdminList), so both sides agree.
import type { ListSpec } from './admin-list.ts';

export const USER_SORTS = ['created', 'name'] as const;

/** The role filter's values: the super-admin flag, then each role by name. */
export const usersListSpec = (roles: readonly string[]): ListSpec<(typeof USER_SORTS)[number]> => ({
  sorts: USER_SORTS,
  directions: { name: 'asc' },
  filters: {
    role: ['super-admin', ...roles],
    banned: ['yes', 'no'],
    verified: ['email', 'phone', 'none'],
    company: ['yes', 'no'],
  },
});
