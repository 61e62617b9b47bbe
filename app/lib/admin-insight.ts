// The list specs of the revisions and reports screens (docs/product/back-office.md, "Revisions",
// "Reports"), read by their loaders and written by their links (browser-safe: no server code), and
// where a revision's subject is shown in the back office.

import { can, type StaffUser } from '../../server/domain/access.ts';
import type { ListSpec } from './admin-list.ts';
import { ADMIN_SCREENS } from './admin-nav.ts';

/** Subject types and actions are kebab-case words (what recordRevision is given). */
export const REVISION_WORD = /^[a-z][a-z0-9-]{0,39}$/;
/** A subject's id as revisions store it. */
export const REVISION_SUBJECT = /^[A-Za-z0-9_-]{1,64}$/;
/** A calendar day (UTC), as a date field sends it. */
export const REVISION_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A member's email or id. */
export const REVISION_ACTOR = /^[^\s<>]{1,100}$/;

export const REVISIONS_SPEC = {
  sorts: ['created'],
  directions: { created: 'desc' },
  filters: {
    actor: REVISION_ACTOR,
    type: REVISION_WORD,
    subject: REVISION_SUBJECT,
    action: REVISION_WORD,
    from: REVISION_DAY,
    to: REVISION_DAY,
  },
} as const satisfies ListSpec;

export const REPORT_STATUS_FILTERS = ['resolved', 'dismissed'] as const;
export const REPORT_KIND_FILTERS = ['ad', 'member'] as const;
/** The reasons of both report forms (ads: ./report-reasons.ts; chats: ./chats.ts). */
export const ALL_REPORT_REASONS = [
  'scam',
  'prohibited',
  'wrong-category',
  'duplicate',
  'offensive',
  'sold',
  'spam',
  'other',
] as const;

export const REPORTS_SPEC = {
  sorts: ['created'],
  directions: { created: 'asc' },
  filters: {
    // Open reports when absent.
    status: REPORT_STATUS_FILTERS,
    kind: REPORT_KIND_FILTERS,
    reason: ALL_REPORT_REASONS,
    member: /^[A-Za-z0-9_-]{1,64}$/,
  },
} as const satisfies ListSpec;

/** The back-office screen of each subject type whose page is `<screen>/<id>`. */
const SUBJECT_SCREENS: Record<string, string> = {
  ad: '/admin/posts',
  user: '/admin/users',
  report: '/admin/reports',
  package: '/admin/packages',
  company: '/admin/companies',
  badge: '/admin/badges',
  city: '/admin/cities',
  banner: '/admin/banners',
  taxonomy: '/admin/taxonomies',
  category: '/admin/categories',
};

/**
 * The page of a revision's subject in the back office, when that screen is built and `staff` may
 * open it; else null.
 */
export function subjectAdminPath(type: string, id: string, staff: StaffUser | null | undefined): string | null {
  const path = SUBJECT_SCREENS[type];
  const screen = path ? ADMIN_SCREENS.find((s) => s.path === path) : undefined;
  if (!screen?.ready || !can(staff, screen.permission) || !REVISION_SUBJECT.test(id)) return null;
  return `${screen.path}/${id}`;
}
