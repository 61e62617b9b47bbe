import 'leaflet/dist/leaflet.css';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import classes from './map.module.css';

// Leaflet maps (docs/product/site.md: Leaflet + OpenStreetMap tiles from MAP_TILE_URL). Leaflet needs `window`,
// so it is loaded in the browser only, when a map is about to be seen; the server renders the map's
// box and its text alternative.

export type Leaflet = typeof import('leaflet');

/** Tripoli (docs/product/site.md, "Maps"): where a map with nothing to show opens. */
export const DEFAULT_CENTRE = { lat: 32.8872, lng: 13.1913 } as const;
/** Five decimals: about a metre, more than a pin needs. */
const round = (v: number) => Math.round(v * 1e5) / 1e5;
export const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

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
  return `https://www.openstreetmap.org/#map=${zoom}/${round(location.lat)}/${round(location.lng)}`;
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
    const map = leaflet.map(el, { scrollWheelZoom: false, attributionControl: true });
    let loaded = 0;
    let removed = false;
    const remove = () => {
      if (removed) return;
      removed = true;
      map.remove();
    };
    const layer = leaflet.tileLayer(tiles, { attribution: ATTRIBUTION, maxZoom: 18 });
    layer.on('tileload', () => {
      loaded++;
      setState('shown');
    });
    // Fired once every tile of the view has loaded or failed: none loaded, no map.
    layer.on('load', () => {
      if (loaded > 0) return;
      setState('failed');
      // After the event: Leaflet fires it from inside its own tile handling, which still reads the
      // map once the listeners return (removing it there throws in the browser).
      setTimeout(remove, 0);
    });
    layer.addTo(map);
    // The view first: a layer added to a map without one waits, and its bounds are not known yet.
    const centre = leaflet.latLng(location.lat, location.lng);
    map.fitBounds(centre.toBounds(location.radius * 2), { padding: [16, 16] });
    leaflet
      .circle(centre, { radius: location.radius, className: classes.area, fillOpacity: 0.15, weight: 2 })
      .addTo(map);
    return remove;
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

/**
 * The form's optional map pin: tap or click the map (or drag the pin) to place it; "pin the centre"
 * places it where the map is centred (keyboard users pan with the arrow keys). The position goes
 * into hidden `lat`/`lng` inputs; the ad page only ever shows it approximately.
 */
export interface Pin {
  lat: number;
  lng: number;
}

export function PinPicker({
  value: pin,
  onChange: setPin,
}: {
  value: Pin | null;
  onChange: (pin: Pin | null) => void;
}) {
  const { t } = useT('ads');
  const ref = useRef<HTMLDivElement>(null);
  const leaflet = useLeafletWhenVisible(ref);
  const tiles = useTileUrl();
  const mapRef = useRef<import('leaflet').Map | null>(null);
  const markerRef = useRef<import('leaflet').Marker | null>(null);
  const pinRef = useRef(pin);
  pinRef.current = pin;

  const place = useCallback((lat: number, lng: number) => setPin({ lat: round(lat), lng: round(lng) }), [setPin]);

  useEffect(() => {
    const el = ref.current;
    if (!leaflet || !el) return;
    const start = pinRef.current ?? DEFAULT_CENTRE;
    const map = leaflet.map(el, { scrollWheelZoom: false }).setView([start.lat, start.lng], pinRef.current ? 14 : 11);
    leaflet.tileLayer(tiles, { attribution: ATTRIBUTION, maxZoom: 18 }).addTo(map);
    map.on('click', (e) => place(e.latlng.lat, e.latlng.lng));
    mapRef.current = map;
    return () => {
      map.remove();
      mapRef.current = null;
      markerRef.current = null;
    };
  }, [leaflet, tiles, place]);

  // The marker follows the state (placed, moved, removed).
  useEffect(() => {
    const map = mapRef.current;
    if (!leaflet || !map) return;
    if (!pin) {
      markerRef.current?.remove();
      markerRef.current = null;
      return;
    }
    if (markerRef.current) {
      markerRef.current.setLatLng([pin.lat, pin.lng]);
      return;
    }
    const icon = leaflet.divIcon({
      className: '',
      html: `<svg class="${classes.pin}" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6a2.5 2.5 0 0 1 0 5.5z"/></svg>`,
      iconSize: [0, 0],
    });
    const marker = leaflet.marker([pin.lat, pin.lng], { icon, draggable: true, keyboard: false }).addTo(map);
    marker.on('dragend', () => {
      const at = marker.getLatLng();
      place(at.lat, at.lng);
    });
    markerRef.current = marker;
  }, [leaflet, pin, place]);

  return (
    <Stack gap="xs">
      <div ref={ref} className={`${classes.map} ${classes.tall}`} role="application" aria-label={t('form.map-label')} />
      <input type="hidden" name="lat" value={pin ? String(pin.lat) : ''} />
      <input type="hidden" name="lng" value={pin ? String(pin.lng) : ''} />
      <Group gap="xs" justify="space-between">
        <Text size="sm" c="dimmed" role="status">
          {pin ? t('form.map-pinned') : t('form.map-none')}
        </Text>
        <Group gap="xs">
          <Button
            variant="default"
            size="compact-sm"
            radius="xl"
            disabled={!leaflet}
            onClick={() => {
              const c = mapRef.current?.getCenter();
              if (c) place(c.lat, c.lng);
            }}
          >
            {t('form.map-pin-centre')}
          </Button>
          {pin ? (
            <Button variant="subtle" color="red" size="compact-sm" radius="xl" onClick={() => setPin(null)}>
              {t('form.map-remove')}
            </Button>
          ) : null}
        </Group>
      </Group>
    </Stack>
  );
}
