// "The catalogue changed" (a city or area added, edited, reordered, merged or deleted by staff),
// told to whoever keeps copies of what it shows in this process: the anonymous page cache
// (server/http/page-cache.ts drops every page: names and places show on most of them) and the
// search engine (server/domain/search/service.ts reads its catalogue again, and its map positions
// if places moved). Emitted by the domain after the change is committed. Other processes follow
// by their own clocks: the search catalogue within 30 s (CATALOGUE_TTL_MS), cached pages within
// PAGE_CACHE_SECONDS.
import { EventEmitter } from 'node:events';

export interface CatalogueChange {
  /** What changed: `places` (cities and areas). */
  kind: 'places';
}

const bus = new EventEmitter();
bus.setMaxListeners(50);

export function catalogueChanged(change: CatalogueChange): void {
  bus.emit('catalogue', change);
}

/** Calls `listener` on every committed catalogue change of this process; returns the unsubscribe. */
export function onCatalogueChange(listener: (change: CatalogueChange) => void): () => void {
  bus.on('catalogue', listener);
  return () => bus.off('catalogue', listener);
}
