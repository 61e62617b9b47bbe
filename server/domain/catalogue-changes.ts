// "The catalogue changed" (staff created, renamed, moved, reordered, switched on or off a category,
// or edited attributes: server/domain/admin/catalogue.ts), told after commit to whoever keeps
// copies made from it in this process: the page cache (server/http/page-cache.ts) forgets every
// page, since the header, breadcrumbs, filters and cards of any page may show catalogue words.
import { EventEmitter } from 'node:events';

const bus = new EventEmitter();
bus.setMaxListeners(50);

export function catalogueChanged(): void {
  bus.emit('catalogue');
}

/** Calls `listener` after every committed catalogue change of this process; returns the unsubscribe. */
export function onCatalogueChange(listener: () => void): () => void {
  bus.on('catalogue', listener);
  return () => bus.off('catalogue', listener);
}
