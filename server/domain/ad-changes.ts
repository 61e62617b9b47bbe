// "An ad changed" (placed, edited, moved along the status machine, bumped, expired), told to whoever
// keeps copies of pages that show ads: the in-memory page cache of this process. Emitted by the
// domain after the change is committed.
import { EventEmitter } from 'node:events';

export interface AdChange {
  adId: number;
  categoryId: number;
  taxonomyId: number;
  userId: string | null;
  /** The owner's company (ads.company_id), whose page lists the ad. */
  companyId?: number | null;
}

const bus = new EventEmitter();
bus.setMaxListeners(50);

export function adChanged(change: AdChange): void {
  bus.emit('ad', change);
}

/**
 * Pages showing something other than an ad changed (a company's name or logo, a badge): the pages
 * carrying any of these cache tags are stale. Emitted after the change is committed.
 */
export function pagesChanged(tags: string[]): void {
  if (tags.length > 0) bus.emit('tags', tags);
}

/** Calls `listener` with the tags of every committed change of this process that is not one ad's. */
export function onPagesChange(listener: (tags: string[]) => void): () => void {
  bus.on('tags', listener);
  return () => bus.off('tags', listener);
}

/** Calls `listener` on every committed ad change of this process; returns the unsubscribe. */
export function onAdChange(listener: (change: AdChange) => void): () => void {
  bus.on('ad', listener);
  return () => bus.off('ad', listener);
}

/** The cache tags a change makes stale (pages declare theirs with the same names). */
export function tagsOf(change: AdChange): string[] {
  return [
    // Pages listing ads from everywhere (the search without a category, the home page's latest).
    'ads',
    `ad:${change.adId}`,
    `category:${change.categoryId}`,
    `taxonomy:${change.taxonomyId}`,
    ...(change.userId ? [`user:${change.userId}`] : []),
    ...(change.companyId ? [`company:${change.companyId}`] : []),
  ];
}
