// The tabs of /profile/posts and the statuses each shows (shared by the page and the server).
export const OWNER_TABS = {
  active: ['published'],
  pending: ['pending'],
  rejected: ['rejected'],
  expired: ['expired'],
  sold: ['sold'],
  drafts: ['draft'],
} as const;
export type OwnerTab = keyof typeof OWNER_TABS;
export const isOwnerTab = (v: unknown): v is OwnerTab => typeof v === 'string' && Object.hasOwn(OWNER_TABS, v);
