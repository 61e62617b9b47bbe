// The ad page's full-screen photo viewer (./ad-gallery.tsx opens it): swipe between photos, pinch
// or double-tap to zoom, a counter and a strip of thumbnails, Escape and the arrow keys, focus kept
// inside while it is open. It loads when a visitor first reaches for a photo, so it stays out of
// the page's first-load JavaScript (docs/performance.md, "First-load JavaScript").
import { ActionIcon } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconX } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { localeDirs } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './ad-gallery.module.css';
import type { GalleryPhoto } from './ad-gallery.tsx';

const MAX_ZOOM = 4;
const DOUBLE_TAP_ZOOM = 2.5;
/** How far (share of the width) a swipe must go to change the photo. */
const SWIPE_SHARE = 0.18;

interface Zoom {
  scale: number;
  x: number;
  y: number;
}
const NO_ZOOM: Zoom = { scale: 1, x: 0, y: 0 };

export default function GalleryViewer({
  photos,
  title,
  start,
  onClose,
}: {
  photos: GalleryPhoto[];
  title: string;
  start: number;
  onClose: () => void;
}) {
  const { t } = useT('ads');
  const { locale } = useLocale();
  const dir = localeDirs[locale];
  const rtl = dir === 'rtl';
  const [index, setIndex] = useState(start);
  const [drag, setDrag] = useState(0);
  const [zoom, setZoom] = useState<Zoom>(NO_ZOOM);
  const dialog = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLElement>(null);
  const last = photos.length - 1;

  const go = useCallback(
    (to: number) => {
      setIndex(Math.max(0, Math.min(last, to)));
      setZoom(NO_ZOOM);
      setDrag(0);
    },
    [last],
  );

  // Keys: Escape closes; the arrows follow the reading direction; Tab stays inside.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
      } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        e.preventDefault();
        const forward = (e.key === 'ArrowRight') !== rtl;
        setIndex((i) => Math.max(0, Math.min(last, i + (forward ? 1 : -1))));
        setZoom(NO_ZOOM);
      } else if (e.key === 'Tab' && dialog.current) {
        const items = [...dialog.current.querySelectorAll<HTMLElement>('button:not([disabled])')];
        const firstItem = items[0];
        const lastItem = items[items.length - 1];
        if (!firstItem || !lastItem) return;
        if (e.shiftKey && document.activeElement === firstItem) {
          e.preventDefault();
          lastItem.focus();
        } else if (!e.shiftKey && document.activeElement === lastItem) {
          e.preventDefault();
          firstItem.focus();
        } else if (!dialog.current.contains(document.activeElement)) {
          e.preventDefault();
          firstItem.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose, rtl, last]);

  // The page under it does not scroll; focus starts on the close button.
  useEffect(() => {
    const html = document.documentElement;
    const overflow = html.style.overflow;
    html.style.overflow = 'hidden';
    dialog.current?.querySelector<HTMLElement>('button')?.focus();
    return () => {
      html.style.overflow = overflow;
    };
  }, []);

  // The current thumbnail stays in view.
  useEffect(() => {
    dialog.current?.querySelector(`[data-index="${index}"]`)?.scrollIntoView({ block: 'nearest', inline: 'center' });
  }, [index]);

  // Pointers: one finger swipes (or pans a zoomed photo), two pinch; a quick second tap zooms.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{
    startX: number;
    startY: number;
    zoom: Zoom;
    distance: number;
    moved: boolean;
  } | null>(null);
  const lastTap = useRef<{ time: number; x: number; y: number } | null>(null);

  /** When a double tap last zoomed: the browser's own dblclick that may follow it is not a second one. */
  const lastToggle = useRef(0);
  const toggleZoomAt = (clientX: number, clientY: number) => {
    const box = stage.current?.getBoundingClientRect();
    if (!box) return;
    lastToggle.current = Date.now();
    setZoom((z) => {
      if (z.scale > 1) return NO_ZOOM;
      // Keep the tapped point where it is.
      const dx = clientX - (box.left + box.width / 2);
      const dy = clientY - (box.top + box.height / 2);
      return { scale: DOUBLE_TAP_ZOOM, x: -dx * (DOUBLE_TAP_ZOOM - 1), y: -dy * (DOUBLE_TAP_ZOOM - 1) };
    });
  };

  const spread = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };

  const onPointerDown = (e: React.PointerEvent) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    gesture.current = { startX: e.clientX, startY: e.clientY, zoom, distance: spread(), moved: false };
  };

  const onPointerMove = (e: React.PointerEvent) => {
    const g = gesture.current;
    if (!g || !pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const dx = e.clientX - g.startX;
    const dy = e.clientY - g.startY;
    if (Math.abs(dx) > 6 || Math.abs(dy) > 6) g.moved = true;
    if (pointers.current.size >= 2 && g.distance > 0) {
      const scale = Math.max(1, Math.min(MAX_ZOOM, (g.zoom.scale * spread()) / g.distance));
      setZoom({ scale, x: scale === 1 ? 0 : g.zoom.x, y: scale === 1 ? 0 : g.zoom.y });
      g.moved = true;
    } else if (g.zoom.scale > 1) {
      setZoom({ scale: g.zoom.scale, x: g.zoom.x + dx, y: g.zoom.y + dy });
    } else {
      setDrag(dx);
    }
  };

  const onPointerUp = (e: React.PointerEvent) => {
    const g = gesture.current;
    pointers.current.delete(e.pointerId);
    if (!g) return;
    if (pointers.current.size > 0) {
      // One finger of a pinch lifted: the other goes on from here.
      const [rest] = [...pointers.current.values()];
      if (rest) gesture.current = { startX: rest.x, startY: rest.y, zoom, distance: 0, moved: true };
      return;
    }
    gesture.current = null;
    const width = stage.current?.clientWidth ?? 1;
    if (g.zoom.scale === 1 && zoom.scale === 1 && Math.abs(drag) > width * SWIPE_SHARE) {
      // In Arabic the next photo comes from the left: a swipe to the right.
      const forward = rtl ? drag > 0 : drag < 0;
      go(index + (forward ? 1 : -1));
      lastTap.current = null;
      return;
    }
    setDrag(0);
    if (g.moved) return;
    const now = Date.now();
    const tap = lastTap.current;
    if (tap && now - tap.time < 320 && Math.hypot(tap.x - e.clientX, tap.y - e.clientY) < 30) {
      lastTap.current = null;
      toggleZoomAt(e.clientX, e.clientY);
    } else {
      lastTap.current = { time: now, x: e.clientX, y: e.clientY };
    }
  };

  const shift = `calc(${(rtl ? 100 : -100) * index}% + ${drag}px)`;
  const Prev = rtl ? IconChevronRight : IconChevronLeft;
  const Next = rtl ? IconChevronLeft : IconChevronRight;
  return createPortal(
    <div
      ref={dialog}
      className={classes.viewer}
      role="dialog"
      aria-modal="true"
      aria-label={t('page.gallery', { title })}
      dir={dir}
    >
      <div className={classes.top}>
        <ActionIcon
          variant="subtle"
          color="gray.0"
          size={48}
          radius="xl"
          onClick={onClose}
          aria-label={t('page.zoom-close')}
        >
          <IconX aria-hidden />
        </ActionIcon>
        <p className={classes.counter} aria-live="polite" data-testid="gallery-counter">
          {t('page.gallery-counter', { n: index + 1, total: photos.length })}
        </p>
        <span className={classes.topSpace} />
      </div>
      <section
        ref={stage}
        className={classes.stage}
        aria-label={t('page.photo-n', { n: index + 1 })}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDoubleClick={(e) => {
          // Double taps are read from the pointers; a dblclick they did not already handle (a
          // browser that reports only this) zooms too.
          if (Date.now() - lastToggle.current > 500) toggleZoomAt(e.clientX, e.clientY);
        }}
      >
        <div
          className={classes.track}
          style={{ transform: `translateX(${shift})`, transition: drag === 0 ? undefined : 'none' }}
        >
          {photos.map((p, i) => (
            <div key={p.id} className={classes.slide} aria-hidden={i !== index}>
              <img
                src={p.urls.large}
                alt={t('page.photo-n', { n: i + 1 })}
                draggable={false}
                loading={Math.abs(i - index) <= 1 ? 'eager' : 'lazy'}
                className={classes.image}
                style={
                  i === index && zoom.scale > 1
                    ? { transform: `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})` }
                    : undefined
                }
              />
            </div>
          ))}
        </div>
        {photos.length > 1 ? (
          <>
            <ActionIcon
              className={`${classes.step} ${classes.stepPrev}`}
              variant="filled"
              color="dark.6"
              size={48}
              radius="xl"
              disabled={index === 0}
              onClick={() => go(index - 1)}
              aria-label={t('page.photo-previous')}
            >
              <Prev aria-hidden />
            </ActionIcon>
            <ActionIcon
              className={`${classes.step} ${classes.stepNext}`}
              variant="filled"
              color="dark.6"
              size={48}
              radius="xl"
              disabled={index === last}
              onClick={() => go(index + 1)}
              aria-label={t('page.photo-next')}
            >
              <Next aria-hidden />
            </ActionIcon>
          </>
        ) : null}
      </section>
      {photos.length > 1 ? (
        <div className={classes.strip}>
          {photos.map((p, i) => (
            <button
              key={p.id}
              type="button"
              className={classes.stripThumb}
              data-index={i}
              aria-label={t('page.photo-n', { n: i + 1 })}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => go(i)}
            >
              <img src={p.urls.thumb} alt="" loading="lazy" />
            </button>
          ))}
        </div>
      ) : null}
    </div>,
    document.body,
  );
}
