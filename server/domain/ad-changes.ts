// "An ad changed" (placed, edited, moved along the status machine, bumped, expired), told to whoever
// keeps copies of pages that show ads: the in-memory page cache of this process. Emitted by the
// domain after the change is committed.
import { EventEmitter } from 'node:events';

export interface AdChange {
  adId: number;
  categoryId: number;
  taxonomyId: number;
  userId: string | null;
}

const bus = new EventEmitter();
bus.setMaxListeners(50);

export function adChanged(change: AdChange): void {
  bus.emit('ad', change);
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
  ];
}
