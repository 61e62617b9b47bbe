import 'leaflet/dist/leaflet.css';
import { Anchor, Text } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import type { Map as LeafletMap } from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { runInTasks } from '~/lib/tasks.ts';
import classes from './map.module.css';

// Leaflet maps (docs/product/site.md: Leaflet + OpenStreetMap tiles from MAP_TILE_URL). Leaflet needs `window`,
// so it is loaded in the browser only, when a map is about to be seen; the server renders the map's
// box and its text alternative.

export type Leaflet = typeof import('leaflet');

/** Tripoli (docs/product/site.md, "Maps"): where a map with nothing to show opens. */
export const DEFAULT_CENTRE = { lat: 32.8872, lng: 13.1913 } as const;
/** Five decimals: about a metre, more than a pin needs. */
/** A coordinate to five decimals (about a metre). */
export const roundCoordinate = (v: number) => Math.round(v * 1e5) / 1e5;
const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

/**
 * The map's tile layer (for the caller to add, in the same task), its attribution control added to
 * the map now. Maps are made with `attributionControl: false` and drawn in steps a task apart: a
 * control made with the map would show Leaflet's own link alone, a small tap target outside any
 * sentence, until the tiles' credit joined it.
 */
export function creditedTileLayer(leaflet: Leaflet, map: LeafletMap, url: string, maxZoom: number) {
  leaflet.control.attribution().addTo(map);
  return leaflet.tileLayer(url, { attribution: ATTRIBUTION, maxZoom });
}

export function useTileUrl(): string {
  const root = useRouteLoaderData('root') as { mapTileUrl?: string } | undefined;
  return root?.mapTileUrl ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
}

/**
 * Leaflet, once `ref`'s element is near the viewport (maps low on a page cost nothing until
 * scrolled to); null until then.
 */
export function useLeafletWhenVisible(ref: React.RefObject<HTMLElement | null>): Leaflet | null {
  const [leaflet, setLeaflet] = useState<Leaflet | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let cancelled = false;
    const load = () => {
      import('leaflet').then((mod) => {
        if (!cancelled) setLeaflet((mod as { default?: Leaflet }).default ?? mod);
      });
    };
    if (!('IntersectionObserver' in window)) {
      load();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          load();
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(el);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [ref]);
  return leaflet;
}

/** Where "open in a map" goes: OpenStreetMap around the approximate position, with no marker. */
export function openMapHref(location: { lat: number; lng: number; radius: number }): string {
  const zoom = location.radius <= 1000 ? 15 : location.radius <= 2000 ? 14 : 12;
  return `https://www.openstreetmap.org/#map=${zoom}/${roundCoordinate(location.lat)}/${roundCoordinate(location.lng)}`;
}

/**
 * The ad page's map: a circle around where the ad is, approximately (never the owner's pin). Until
 * its tiles show — before it is scrolled to, without JavaScript, and for good when the tiles cannot
 * be loaded (every tile of the first view failed) — the box holds the place's name and a link to
 * open it in a map, never an empty box.
 */
export function LocationMap({
  location,
  label,
  place,
}: {
  location: { lat: number; lng: number; radius: number };
  /** What the map shows, in words (the place's name), for screen readers and before it loads. */
  label: string;
  /** The city (and area) name shown when there is no map to see. */
  place: string;
}) {
  const { t } = useT('ads');
  const ref = useRef<HTMLElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const leaflet = useLeafletWhenVisible(ref);
  const tiles = useTileUrl();
  const [state, setState] = useState<'waiting' | 'shown' | 'failed'>('waiting');
  useEffect(() => {
    const el = box.current;
    if (!leaflet || !el) return;
    let map: LeafletMap | null = null;
    let loaded = 0;
    let removed = false;
    const remove = () => {
      if (removed) return;
      removed = true;
      map?.remove();
    };
    const centre = leaflet.latLng(location.lat, location.lng);
    // The map and its view, the tiles, then the area: each in a task of its own (on a phone each
    // takes tens of milliseconds, too long for one task together).
    const stop = runInTasks([
      () => {
        map = leaflet.map(el, { scrollWheelZoom: false, attributionControl: false });
        // The view first: a layer added to a map without one waits, and its bounds are not known yet.
        map.fitBounds(centre.toBounds(location.radius * 2), { padding: [16, 16] });
      },
      () => {
        if (!map) return;
        const layer = creditedTileLayer(leaflet, map, tiles, 18);
        layer.on('tileload', () => {
          loaded++;
          setState('shown');
        });
        // Fired once every tile of the view has loaded or failed: none loaded, no map.
        layer.on('load', () => {
          if (loaded > 0) return;
          setState('failed');
          // After the event: Leaflet fires it from inside its own tile handling, which still reads
          // the map once the listeners return (removing it there throws in the browser).
          setTimeout(remove, 0);
        });
        layer.addTo(map);
      },
      () => {
        if (!map || removed) return;
        leaflet
          .circle(centre, { radius: location.radius, className: classes.area, fillOpacity: 0.15, weight: 2 })
          .addTo(map);
      },
    ]);
    return () => {
      stop();
      remove();
    };
  }, [leaflet, tiles, location.lat, location.lng, location.radius]);
  return (
    <section ref={ref} className={classes.frame} aria-label={label}>
      <div ref={box} className={classes.map} hidden={state === 'failed'} />
      {state !== 'shown' ? (
        <div className={classes.fallback} data-map-fallback={state}>
          <IconMapPin size={28} aria-hidden />
          {state === 'failed' ? <Text size="sm">{t('page.map-failed')}</Text> : null}
          <Text fw={600} dir="auto">
            {place}
          </Text>
          <Anchor href={openMapHref(location)} target="_blank" rel="noopener noreferrer" className={classes.open}>
            {t('page.map-open', { place })}
          </Anchor>
        </div>
      ) : null}
    </section>
  );
}
