// "Banners of these placements changed" (created, edited, switched on or off, deleted), told to the
// in-memory page cache of this process (server/http/page-cache.ts) after the change is committed:
// it drops the pages that show those placements. Pages declare the same tags (bannerTags).
import { EventEmitter } from 'node:events';
import type { BannerPlacement } from '../../../app/lib/banners.ts';

const bus = new EventEmitter();
bus.setMaxListeners(50);

/** The page-cache tag of the pages showing a placement. */
export const bannerTag = (placement: BannerPlacement) => `banners:${placement}`;

export function bannersChanged(placements: readonly BannerPlacement[]): void {
  if (placements.length > 0) bus.emit('banners', [...new Set(placements)].map(bannerTag));
}

/** Calls `listener` with the stale tags on every committed banner change of this process. */
export function onBannersChange(listener: (tags: string[]) => void): () => void {
  bus.on('banners', listener);
  return () => bus.off('banners', listener);
}
