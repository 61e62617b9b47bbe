// "The catalogue changed", told after commit to whoever keeps copies made from it in this process:
// a city or area added, edited, reordered, merged or deleted (server/domain/admin/places.ts), or a
// category created, renamed, moved, reordered, switched on or off, or its attributes edited
// (server/domain/admin/catalogue.ts). The anonymous page cache (server/http/page-cache.ts) drops
// every page (the header, breadcrumbs, filters and cards of any page may show catalogue words),
// and the search engine (server/domain/search/service.ts) reads its catalogue again. Other
// processes follow by their own clocks: the search catalogue within 30 s (CATALOGUE_TTL_MS), cached
// pages within PAGE_CACHE_SECONDS.
import { EventEmitter } from 'node:events';

export interface CatalogueChange {
  /** What changed: `places` (cities and areas) or `categories` (categories and attributes). */
  kind: 'places' | 'categories';
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
