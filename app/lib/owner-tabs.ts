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

/** The tab that shows an ad of this status (a status no tab shows: the default tab, active). */
export function ownerTabOf(status: string): OwnerTab {
  const tabs = Object.keys(OWNER_TABS) as OwnerTab[];
  return tabs.find((tab) => (OWNER_TABS[tab] as readonly string[]).includes(status)) ?? 'active';
}

/** The path and query of a tab of /profile/posts (Arabic form); the active tab is the bare page. */
export function ownerTabPath(tab: OwnerTab, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...(tab === 'active' ? {} : { status: tab }), ...extra }).toString();
  return `/profile/posts${query ? `?${query}` : ''}`;
}
