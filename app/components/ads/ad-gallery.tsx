import { lazy, Suspense, useRef, useState } from 'react';
import { useT } from '~/i18n/use-t.ts';
import type { AdImageUrls } from '../../../server/domain/ad-images.ts';
import classes from './ad-gallery.module.css';

// The ad page's photos (docs/product/ads.md, "The ad page on phones"): the first photo with the
// others as thumbnails, and a full-screen viewer on a dark background — swipe between photos,
// pinch or double-tap to zoom, a counter and a strip of thumbnails, Escape and the arrow keys, focus
// kept inside while it is open and given back after. Pointer events and CSS transforms only: no
// gallery library. Without JavaScript the photo is a link to its large version.

export interface GalleryPhoto {
  id: number;
  urls: AdImageUrls;
}

/** The viewer's module, fetched once, when a photo is first pointed at or opened. */
const loadViewer = () => import('./gallery-viewer.tsx');
const GalleryViewer = lazy(loadViewer);

export function AdGallery({ photos, title }: { photos: GalleryPhoto[]; title: string }) {
  const { t } = useT('ads');
  const [open, setOpen] = useState<number | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const show = (i: number, from: HTMLElement) => {
    opener.current = from;
    setOpen(i);
  };
  const first = photos[0];
  if (!first) return null;
  return (
    <div className={classes.gallery}>
      <a
        href={first.urls.large}
        className={classes.hero}
        aria-label={t('page.zoom')}
        // The viewer's script is fetched as soon as a photo is pointed at or focused, before the tap ends.
        onPointerDown={loadViewer}
        onFocus={loadViewer}
        onClick={(e) => {
          e.preventDefault();
          show(0, e.currentTarget);
        }}
      >
        <img
          src={first.urls.large}
          srcSet={`${first.urls.medium} 800w, ${first.urls.large} 1600w`}
          sizes="(max-width: 62em) 100vw, 66vw"
          // The page's largest paint: fetched first, never lazily (docs/performance.md).
          fetchPriority="high"
          alt={title}
          className={classes.heroImage}
        />
        {photos.length > 1 ? (
          <span className={classes.heroCount} aria-hidden>
            {t('page.gallery-counter', { n: 1, total: photos.length })}
          </span>
        ) : null}
      </a>
      {photos.length > 1 ? (
        <ul className={classes.thumbs} aria-label={t('page.gallery-thumbs')}>
          {photos.map((p, i) => (
            <li key={p.id}>
              <a
                href={p.urls.large}
                className={classes.thumb}
                aria-label={t('page.photo-n', { n: i + 1 })}
                onPointerDown={loadViewer}
                onFocus={loadViewer}
                onClick={(e) => {
                  e.preventDefault();
                  show(i, e.currentTarget);
                }}
              >
                <img src={p.urls.thumb} alt="" loading="lazy" />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {open !== null ? (
        <Suspense fallback={null}>
          <GalleryViewer
            photos={photos}
            title={title}
            start={open}
            onClose={() => {
              setOpen(null);
              // Back to the photo or thumbnail that opened it.
              requestAnimationFrame(() => opener.current?.focus());
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
