// Where an ad is shown on a map: never the owner's exact pin (docs/product/site.md, "Maps").
// A pin is moved by a fixed offset derived from the ad id (the same every time, so repeated visits
// cannot average it out) and drawn as a circle around the moved point; without a pin, the area's or
// the city's centre with a circle of their size.

export interface ApproximateLocation {
  lat: number;
  lng: number;
  /** Metres: the circle the ad is somewhere in. */
  radius: number;
}

interface Point {
  lat: number;
  lng: number;
}

const EARTH_METRES_PER_DEGREE = 111_320;
/** The greatest distance a pin is moved, and the circle drawn around it. */
export const PIN_JITTER_METRES = 400;
export const PIN_RADIUS_METRES = 800;
export const AREA_RADIUS_METRES = 1_500;
export const CITY_RADIUS_METRES = 6_000;

/** Two numbers in [0, 1) from an integer, always the same for the same integer (a small hash). */
function unitPair(seed: number): [number, number] {
  let x = (seed ^ 0x9e3779b9) >>> 0;
  const next = () => {
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
    x = (x ^ (x >>> 16)) >>> 0;
    return x / 2 ** 32;
  };
  return [next(), next()];
}

/** `point` moved by up to `metres` in a direction and distance fixed by `seed`. */
export function jitter(point: Point, seed: number, metres: number): Point {
  const [a, b] = unitPair(seed);
  const angle = a * 2 * Math.PI;
  // At least a quarter of the way out (never the spot itself); sqrt spreads the rest over the ring
  // rather than bunching it near the centre.
  const distance = (0.25 + 0.75 * Math.sqrt(b)) * metres;
  const dLat = (distance * Math.cos(angle)) / EARTH_METRES_PER_DEGREE;
  const dLng = (distance * Math.sin(angle)) / (EARTH_METRES_PER_DEGREE * Math.cos((point.lat * Math.PI) / 180));
  const round = (v: number) => Math.round(v * 1e5) / 1e5;
  return { lat: round(point.lat + dLat), lng: round(point.lng + dLng) };
}

export function approximateLocation(
  adId: number,
  pin: { lat: number | null; lng: number | null },
  area: Point | null,
  city: Point,
): ApproximateLocation {
  if (pin.lat !== null && pin.lng !== null) {
    return { ...jitter({ lat: pin.lat, lng: pin.lng }, adId, PIN_JITTER_METRES), radius: PIN_RADIUS_METRES };
  }
  if (area) return { lat: area.lat, lng: area.lng, radius: AREA_RADIUS_METRES };
  return { lat: city.lat, lng: city.lng, radius: CITY_RADIUS_METRES };
}
