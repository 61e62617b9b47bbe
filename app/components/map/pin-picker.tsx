import { Button, Group, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { runInTasks } from '~/lib/tasks.ts';
import {
  creditedTileLayer,
  DEFAULT_CENTRE,
  roundCoordinate,
  useLeafletWhenVisible,
  useTileUrl,
} from './leaflet-map.tsx';
import classes from './map.module.css';

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
  inputs = true,
  removable = true,
  centre,
  noneText,
}: {
  value: Pin | null;
  onChange: (pin: Pin | null) => void;
  /** Render the hidden `lat`/`lng` inputs (false: the form has inputs of its own for them). */
  inputs?: boolean;
  /** Offer to remove the pin (false: a place that must have one, e.g. a city's centre). */
  removable?: boolean;
  /** Where the map opens without a pin (default: Tripoli). */
  centre?: Pin;
  /** What the status line says without a pin (default: the ad form's words). */
  noneText?: string;
}) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  const ref = useRef<HTMLDivElement>(null);
  const leaflet = useLeafletWhenVisible(ref);
  const tiles = useTileUrl();
  const mapRef = useRef<import('leaflet').Map | null>(null);
  const markerRef = useRef<import('leaflet').Marker | null>(null);
  const pinRef = useRef(pin);
  pinRef.current = pin;
  const centreRef = useRef(centre);
  centreRef.current = centre;

  const place = useCallback(
    (lat: number, lng: number) => setPin({ lat: roundCoordinate(lat), lng: roundCoordinate(lng) }),
    [setPin],
  );

  // The map and its view, then the tiles, each in a task of its own (on a phone each takes tens of
  // milliseconds, too long for one task together); `ready` once both are there.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!leaflet || !el) return;
    let map: import('leaflet').Map | null = null;
    const stop = runInTasks([
      () => {
        const start = pinRef.current ?? centreRef.current ?? DEFAULT_CENTRE;
        map = leaflet
          .map(el, { scrollWheelZoom: false, attributionControl: false })
          .setView([start.lat, start.lng], pinRef.current ? 14 : 11);
        map.on('click', (e) => place(e.latlng.lat, e.latlng.lng));
      },
      () => {
        if (!map) return;
        creditedTileLayer(leaflet, map, tiles, 18).addTo(map);
        mapRef.current = map;
        setReady(true);
      },
    ]);
    return () => {
      stop();
      map?.remove();
      mapRef.current = null;
      markerRef.current = null;
      setReady(false);
    };
  }, [leaflet, tiles, place]);

  // The marker follows the state (placed, moved, removed).
  useEffect(() => {
    const map = mapRef.current;
    if (!leaflet || !ready || !map) return;
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
  }, [leaflet, ready, pin, place]);

  return (
    <Stack gap="xs">
      <div
        ref={ref}
        className={`${classes.map} ${classes.tall}`}
        role="application"
        aria-label={t('placing:form.map-label')}
      />
      {inputs ? (
        <>
          <input type="hidden" name="lat" value={pin ? String(pin.lat) : ''} />
          <input type="hidden" name="lng" value={pin ? String(pin.lng) : ''} />
        </>
      ) : null}
      <Group gap="xs" justify="space-between">
        <Text size="sm" c="dimmed" role="status">
          {pin ? t('placing:form.map-pinned') : (noneText ?? t('placing:form.map-none'))}
        </Text>
        <Group gap="xs">
          <Button
            variant="default"
            size="compact-sm"
            radius="xl"
            disabled={!ready}
            onClick={() => {
              const c = mapRef.current?.getCenter();
              if (c) place(c.lat, c.lng);
            }}
          >
            {t('placing:form.map-pin-centre')}
          </Button>
          {pin && removable ? (
            <Button variant="subtle" color="red" size="compact-sm" radius="xl" onClick={() => setPin(null)}>
              {t('placing:form.map-remove')}
            </Button>
          ) : null}
        </Group>
      </Group>
    </Stack>
  );
}
