// Banners on the public pages (docs/product/back-office.md, "Banners"): a link to the tracked
// redirect around a <picture> (the narrow screens' image by media query, every stored width in
// srcset), in a box of its place's shape so nothing moves when the image arrives. Plain HTML: the
// home hero's carousel script loads only when it holds more than one banner, after the page has
// been hydrated (./hero-banners.tsx). Each banner reports itself once seen (app/lib/banner-impressions.ts).
import { type CSSProperties, useEffect, useRef } from 'react';
import { useT } from '~/i18n/use-t.ts';
import { watchBanner } from '~/lib/banner-impressions.ts';
import type { PublicBanner } from '../../../server/domain/banners/public.ts';
import classes from './banners.module.css';

export type { PublicBanner };

export function BannerLink({
  banner,
  priority = false,
  lazy = false,
}: {
  banner: PublicBanner;
  /** The page's largest paint (the first hero banner): fetched first. */
  priority?: boolean;
  /** Below the fold: fetched when it nears the screen. */
  lazy?: boolean;
}) {
  const { t } = useT('common');
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => (ref.current ? watchBanner(ref.current, banner.id) : undefined), [banner.id]);
  const style = {
    '--banner-ratio': banner.look.ratio,
    '--banner-ratio-narrow': banner.look.narrowRatio,
  } as CSSProperties;
  return (
    <a
      ref={ref}
      href={banner.href}
      className={classes.box}
      style={style}
      rel={banner.external ? 'sponsored noopener' : 'sponsored'}
      data-banner={banner.id}
    >
      <picture>
        {banner.mobile ? (
          <source
            media={banner.look.narrow}
            srcSet={banner.mobile.srcset}
            sizes={banner.look.sizes}
            width={banner.mobile.width}
            height={banner.mobile.height}
          />
        ) : null}
        <img
          src={banner.desktop.src}
          srcSet={banner.desktop.srcset}
          sizes={banner.look.sizes}
          width={banner.desktop.width}
          height={banner.desktop.height}
          alt={banner.alt}
          loading={lazy ? 'lazy' : undefined}
          fetchPriority={priority ? 'high' : undefined}
          decoding={priority ? 'sync' : 'async'}
        />
      </picture>
      <span className={classes.sponsored} aria-hidden>
        {t('banner.sponsored')}
      </span>
    </a>
  );
}

/** The one banner of a place (the first in the back office's order), or nothing. */
export function BannerSlot({
  banners,
  label,
  lazy,
  className,
}: {
  banners: readonly PublicBanner[];
  label: string;
  lazy?: boolean;
  className?: string;
}) {
  const banner = banners[0];
  if (!banner) return null;
  return (
    <aside aria-label={label} className={className}>
      <BannerLink banner={banner} lazy={lazy} />
    </aside>
  );
}

export { classes as bannerClasses };
