import { describe, expect, it } from 'vitest';
import {
  AREA_RADIUS_METRES,
  approximateLocation,
  CITY_RADIUS_METRES,
  jitter,
  PIN_JITTER_METRES,
  PIN_RADIUS_METRES,
} from '../../server/domain/geo.ts';

const metresBetween = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  Math.hypot((a.lat - b.lat) * 111_320, (a.lng - b.lng) * 111_320 * Math.cos((a.lat * Math.PI) / 180));

describe('approximate locations', () => {
  const pin = { lat: 32.88123, lng: 13.17456 };
  const city = { lat: 32.8872, lng: 13.1913 };
  const area = { lat: 32.85, lng: 13.2 };

  it('moves a pin by a stable offset within the jitter distance, at least a quarter of it (never the spot itself)', () => {
    const distances: number[] = [];
    for (let id = 1; id <= 2000; id++) {
      const moved = jitter(pin, id, PIN_JITTER_METRES);
      expect(jitter(pin, id, PIN_JITTER_METRES)).toEqual(moved);
      const d = metresBetween(pin, moved);
      expect(d).toBeLessThanOrEqual(PIN_JITTER_METRES + 1);
      expect(d).toBeGreaterThanOrEqual(PIN_JITTER_METRES / 4 - 1);
      distances.push(d);
    }
    // Spread over the disc: neither all near the centre nor all on the rim.
    const near = distances.filter((d) => d < PIN_JITTER_METRES / 2).length / distances.length;
    expect(near).toBeGreaterThan(0.05);
    expect(near).toBeLessThan(0.2);
    expect(new Set(distances.map((d) => Math.round(d))).size).toBeGreaterThan(200);
  });

  it('draws a circle around the moved pin, else the area, else the city', () => {
    const pinned = approximateLocation(7, pin, area, city);
    expect(pinned.radius).toBe(PIN_RADIUS_METRES);
    expect(pinned.lat === pin.lat && pinned.lng === pin.lng).toBe(false);
    expect(metresBetween(pin, pinned)).toBeLessThan(pinned.radius);
    expect(approximateLocation(7, { lat: null, lng: null }, area, city)).toEqual({
      ...area,
      radius: AREA_RADIUS_METRES,
    });
    expect(approximateLocation(7, { lat: null, lng: null }, null, city)).toEqual({
      ...city,
      radius: CITY_RADIUS_METRES,
    });
  });
});
