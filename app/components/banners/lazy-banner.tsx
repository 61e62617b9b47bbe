// The listing's, the category page's and the ad page's banner: rendered in place by the server,
// its script loaded only after the page has hydrated, and only where there is a banner, so the
// pages' first-load JavaScript does not carry it (docs/performance.md, "Pages on a phone").
import { type ComponentProps, Suspense } from 'react';
import { lazyComponent } from '~/lib/lazy-component.tsx';
import type { BannerSlot } from './banner.tsx';

const Slot = lazyComponent(() => import('./banner-slot.tsx'));

/** For the loaders: the server renders the banner in place. */
export const preloadBannerSlot = () => Slot.preload();

export function LazyBannerSlot(props: ComponentProps<typeof BannerSlot>) {
  if (props.banners.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Slot {...props} />
    </Suspense>
  );
}
