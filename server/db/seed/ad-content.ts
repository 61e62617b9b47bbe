// What a demo ad says: title, description, price and attribute values, written per taxonomy from
// templates with Libyan details (makes and models, neighbourhoods, "حوش", generators for the power
// cuts, sheep for the Eid…), in Arabic or English. Pure functions of a seeded PRNG, so a seed gives
// the same ads on every run. Values always satisfy the leaf category's attributes: required ones
// are set, options come from the lists and numbers stay within min/max (server/db/seed/ads.ts).
import type { PriceType } from '../../../app/lib/validation/ads.ts';

export type Lang = 'ar' | 'en';
/** [Arabic, English] */
export type Pair = readonly [string, string];
export type AttrValue = string | number | boolean | string[];

// ───────────────────────── deterministic randomness ─────────────────────────

export interface Rng {
  /** [0, 1) */
  next(): number;
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(list: readonly T[]): T;
  /** One of the values, by weight. */
  weighted<T>(list: readonly (readonly [T, number])[]): T;
  /** `n` distinct elements, in list order. */
  some<T>(list: readonly T[], n: number): T[];
}

/** mulberry32: small, fast and good enough for sample data; the same seed gives the same stream. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
    weighted: (list) => {
      let total = 0;
      for (let i = 0; i < list.length; i++) total += list[i][1];
      let x = next() * total;
      for (let i = 0; i < list.length; i++) {
        x -= list[i][1];
        if (x < 0) return list[i][0];
      }
      return list[list.length - 1][0];
    },
    some: (list, n) => {
      const idx = list.map((_, i) => i);
      for (let i = idx.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [idx[i], idx[j]] = [idx[j], idx[i]];
      }
      return idx
        .slice(0, Math.max(0, Math.min(n, list.length)))
        .sort((x, y) => x - y)
        .map((i) => list[i]);
    },
  };
  return rng;
}

// ───────────────────────── the catalogue as the writer sees it ─────────────────────────

export interface ContentOption {
  value: string;
  ar: string;
  en: string;
}

export interface ContentAttribute {
  key: string;
  type: 'text' | 'number' | 'select' | 'multiselect' | 'boolean' | 'year' | 'date';
  required: boolean;
  options: ContentOption[];
  min: number | null;
  max: number | null;
}

/** A leaf category with every attribute its ads carry (taxonomy, ancestors, own). */
export interface ContentCategory {
  slug: string;
  name_ar: string;
  name_en: string;
  parentSlug: string | null;
  taxonomySlug: string;
  attributes: ContentAttribute[];
}

export interface ContentPlace {
  city: { name_ar: string; name_en: string };
  area: { name_ar: string; name_en: string } | null;
}

export interface AdContent {
  lang: Lang;
  title: string;
  description: string;
  price_type: PriceType;
  price: number | null;
  currency: 'LYD' | 'USD';
  attrs: Record<string, AttrValue>;
}

interface PriceSpec {
  lo: number;
  hi: number;
  /** Weights of the price types (default: fixed and negotiable). */
  types?: readonly (readonly [PriceType, number])[];
}

interface Spec {
  title: Pair;
  /** Sentences about this item; a few general ones of the taxonomy are added. */
  lines: Pair[];
  price: PriceSpec;
}

const YEAR_NOW = 2026;

const parsedWeights = new Map<string, (readonly [string, number])[]>();

/** Weighted choices written compactly: `w('new:1 used:3')` (parsed once per spec). */
function w<T extends string = string>(spec: string): (readonly [T, number])[] {
  let list = parsedWeights.get(spec);
  if (!list) {
    list = spec.split(' ').map((part) => {
      const at = part.lastIndexOf(':');
      return [part.slice(0, at), Number(part.slice(at + 1))] as const;
    });
    parsedWeights.set(spec, list);
  }
  return list as (readonly [T, number])[];
}

const attributesByKey = new WeakMap<ContentCategory, Map<string, ContentAttribute>>();

/** Holds the attribute values while a generator writes the ad. */
class Draft {
  readonly r: Rng;
  readonly category: ContentCategory;
  readonly place: ContentPlace;
  readonly attrs: Record<string, AttrValue> = {};
  readonly #byKey: Map<string, ContentAttribute>;

  constructor(r: Rng, category: ContentCategory, place: ContentPlace) {
    this.r = r;
    this.category = category;
    this.place = place;
    let byKey = attributesByKey.get(category);
    if (!byKey) {
      byKey = new Map(category.attributes.map((a) => [a.key, a]));
      attributesByKey.set(category, byKey);
    }
    this.#byKey = byKey;
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  /** Chooses an option (among `prefer` when given and offered), never "other" unless it is all there is. */
  opt(key: string, prefer?: readonly string[] | readonly (readonly [string, number])[]): ContentOption | null {
    const a = this.#byKey.get(key);
    if (!a || a.options.length === 0) return null;
    let value: string | undefined;
    if (prefer && prefer.length > 0) {
      if (typeof prefer[0] === 'string') {
        const offered = (prefer as readonly string[]).filter((v) => a.options.some((o) => o.value === v));
        if (offered.length) value = this.r.pick(offered);
      } else {
        const offered = (prefer as readonly (readonly [string, number])[]).filter(([v]) =>
          a.options.some((o) => o.value === v),
        );
        if (offered.length) value = this.r.weighted(offered);
      }
    }
    if (value === undefined) {
      const plain = a.options.filter((o) => o.value !== 'other');
      value = this.r.pick(plain.length ? plain : a.options).value;
    }
    this.attrs[key] = value;
    return a.options.find((o) => o.value === value) ?? null;
  }

  /** The option already chosen for `key`. */
  chosen(key: string): ContentOption | null {
    const a = this.#byKey.get(key);
    const v = this.attrs[key];
    return a?.options.find((o) => o.value === v) ?? null;
  }

  /** A whole number in [lo, hi] rounded to `step`, kept within the attribute's bounds. */
  num(key: string, lo: number, hi: number, step = 1): number {
    let n = Math.round((lo + this.r.next() * (hi - lo)) / step) * step;
    const a = this.#byKey.get(key);
    if (a?.min !== null && a?.min !== undefined) n = Math.max(n, a.min);
    if (a?.max !== null && a?.max !== undefined) n = Math.min(n, a.max);
    if (a) this.attrs[key] = n;
    return n;
  }

  /** Sets a number as is (clamped to the bounds). */
  setNum(key: string, n: number): number {
    return this.num(key, n, n, 1);
  }

  flag(key: string, p: number): boolean {
    const v = this.r.chance(p);
    if (this.has(key)) this.attrs[key] = v;
    return v;
  }

  multi(key: string, lo: number, hi: number, prefer?: readonly string[]): ContentOption[] {
    const a = this.#byKey.get(key);
    if (!a) return [];
    const pool = prefer ? a.options.filter((o) => prefer.includes(o.value)) : a.options;
    const chosen = this.r.some(pool.length ? pool : a.options, this.r.int(lo, hi));
    this.attrs[key] = chosen.map((o) => o.value);
    return chosen;
  }

  text(key: string, value: string): void {
    if (this.has(key)) this.attrs[key] = value;
  }

  /** Required attributes the generator left unset, and some optional ones, get a plausible value. */
  fillRest(): void {
    for (const a of this.category.attributes) {
      if (a.key in this.attrs) continue;
      // Optional numbers stay empty (a battery health on a sealed phone would be nonsense).
      if (!a.required && (a.type === 'number' || a.type === 'year' || a.type === 'text' || a.type === 'date')) continue;
      if (!a.required && !this.r.chance(0.4)) continue;
      switch (a.type) {
        case 'select':
          this.opt(a.key);
          break;
        case 'multiselect':
          this.multi(a.key, 1, Math.min(3, a.options.length));
          break;
        case 'boolean':
          this.flag(a.key, 0.5);
          break;
        case 'year':
          this.num(a.key, 2008, 2024);
          break;
        case 'number': {
          const lo = a.min ?? 0;
          this.num(a.key, lo, Math.min(a.max ?? lo + 10, lo + 10));
          break;
        }
        case 'date':
          this.attrs[a.key] = `${YEAR_NOW - 1}-0${this.r.int(1, 9)}-1${this.r.int(0, 9)}`;
          break;
        default:
          this.attrs[a.key] = this.category.name_en;
      }
    }
  }
}

const L = (o: ContentOption | null): Pair => (o ? [o.ar, o.en] : ['', '']);
const lower = (s: string) => s.toLowerCase();
/** 12,500 (as toLocaleString('en-US') writes whole numbers, without its cost). */
const fmt = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const where = (d: Draft): Pair => {
  const { city, area } = d.place;
  return area ? [`${area.name_ar}، ${city.name_ar}`, `${area.name_en}, ${city.name_en}`] : [city.name_ar, city.name_en];
};
const condition = (d: Draft, pNew = 0.25, prefer?: readonly (readonly [string, number])[]) =>
  d.opt(
    'condition',
    prefer ?? [
      ['new', pNew],
      ['used', 1 - pNew],
    ],
  );
const isNew = (d: Draft) => d.attrs.condition === 'new';
const conditionLine = (d: Draft): Pair =>
  isNew(d)
    ? d.r.pick<Pair>([
        ['جديد بالكرتونة لم يستعمل.', 'Brand new, still boxed.'],
        ['جديد مع الضمان.', 'New, with warranty.'],
      ])
    : d.r.pick<Pair>([
        ['مستعمل بحالة ممتازة.', 'Used, in excellent condition.'],
        ['مستعمل استعمال خفيف ونظيف جداً.', 'Lightly used and very clean.'],
        ['بحالة جيدة جداً، استعمال شخصي.', 'Very good condition, personal use only.'],
      ]);

// ───────────────────────── motors ─────────────────────────

const words = (list: string) => new Set(list.split(' '));

const PICKUPS = words(
  'land-cruiser-pickup hilux tundra tacoma navara l200 d-max ranger f-150 silverado sierra ram bt-50 ' + 'gladiator',
);
const VANS = words(
  'hiace h1-starex urvan carnival transit vito sprinter caddy transporter kangoo master partner boxer ' +
    'savana bongo porter doblo odyssey',
);
const MINIBUSES = words('coaster npr canter');
const SUVS = words(
  'land-cruiser prado fj-cruiser fortuner highlander rav4 c-hr sequoia creta kona tucson santa-fe ' +
    'palisade seltos sportage sorento mohave juke kicks qashqai x-trail pathfinder patrol gla glc gle ml ' +
    'gls g-class x1 x3 x4 x5 x6 x7 tiguan touareg captiva trax equinox tahoe suburban escape edge ' +
    'explorer expedition asx eclipse-cross outlander pajero 2008 3008 5008 duster koleos mu-x trooper ' +
    'hr-v cr-v pilot cx-3 cx-5 cx-9 vitara grand-vitara jimny defender discovery discovery-sport ' +
    'range-rover range-rover-sport range-rover-velar range-rover-evoque nx rx gx lx q3 q5 q7 q8 wrangler ' +
    'cherokee grand-cherokee compass renegade yukon acadia terrain durango kodiaq tiggo-2 tiggo-4 tiggo-7 ' +
    'tiggo-8 coolray azkarra okavango tugella cs35 cs75 cs85 uni-k zs hs rx5 rx8',
);
const SMALL = words(
  'yaris i10 i20 picanto morning pride micra spark aveo mirage attrage 206 207 208 clio sandero jazz ' +
    'mazda-2 alto celerio swift polo corsa fabia 500 punto a-class 1-series a3 veloster golf',
);
const LUXURY_MAKES = new Set(['mercedes-benz', 'bmw', 'land-rover', 'lexus', 'audi']);
const BIG_CARS = words(
  'land-cruiser land-cruiser-pickup sequoia tundra patrol tahoe suburban expedition yukon sierra ' +
    'silverado ram f-150 lx gls g-class x7 range-rover s-class challenger charger mustang camaro',
);
const OTHER_MAKES: readonly (readonly [Pair, readonly string[]])[] = [
  [
    ['هافال', 'Haval'],
    ['H6', 'Jolion', 'H9'],
  ],
  [
    ['جريت وول', 'Great Wall'],
    ['Wingle 5', 'Wingle 7', 'Poer'],
  ],
  [
    ['جاك', 'JAC'],
    ['J7', 'S3', 'T8'],
  ],
  [
    ['بروتون', 'Proton'],
    ['Saga', 'Persona', 'X50'],
  ],
  [
    ['دايو', 'Daewoo'],
    ['Lanos', 'Nubira', 'Matiz'],
  ],
  [
    ['سوبارو', 'Subaru'],
    ['Forester', 'Impreza', 'Outback'],
  ],
  [
    ['فولفو', 'Volvo'],
    ['XC90', 'S60', 'XC60'],
  ],
  [
    ['إنفينيتي', 'Infiniti'],
    ['QX80', 'Q50', 'QX60'],
  ],
  [
    ['كاديلاك', 'Cadillac'],
    ['Escalade', 'CTS'],
  ],
  [
    ['بي واي دي', 'BYD'],
    ['Atto 3', 'Song Plus', 'Han'],
  ],
];

const carLines: Pair[] = [
  ['السيارة نظيفة جداً، صيانة دورية في الوكالة.', 'Very clean car, serviced regularly at the dealer.'],
  ['المحرك والكمبيو بحالة ممتازة بدون أي أعطال.', 'Engine and gearbox in excellent condition, no faults.'],
  ['التكييف يبرد ثلج، الإطارات جديدة.', 'The A/C blows ice cold, new tyres.'],
  ['دهان وكالة بدون حوادث، الشاصي سليم.', 'Original paint, never in an accident, straight chassis.'],
  ['لا تحتاج أي مصروف، اركب وسافر.', 'Nothing to spend on it: get in and drive.'],
  ['تم تغيير الزيت والفلاتر والبواجي مؤخراً.', 'Oil, filters and spark plugs just changed.'],
  ['الفرش نظيف، بدون تدخين.', 'Clean interior, non-smoker.'],
  ['شاشة وكاميرا خلفية وحساسات.', 'Screen, reversing camera and parking sensors.'],
];
const motorsClosing: Pair[] = [
  ['السعر قابل للتفاوض البسيط للجادين فقط.', 'Slightly negotiable, serious buyers only.'],
  ['إمكانية الفحص في أي ورشة تختارها.', 'Happy for it to be checked at any garage you choose.'],
  ['الأوراق كاملة: الكتيب واللوحات وشهادة الجمرك.', 'Papers complete: logbook, plates and customs certificate.'],
  ['لا أقبل البدل.', 'No swaps.'],
  ['يوجد إمكانية البدل بسيارة أصغر مع الفرق.', 'Open to a swap for a smaller car plus the difference.'],
];

function car(d: Draft): Spec {
  const r = d.r;
  const make: Pair = [d.category.name_ar, d.category.name_en];
  let model: Pair;
  let modelValue = '';
  let makeTitle = make;
  if (d.category.slug === 'other-car-makes') {
    const [m, models] = r.pick(OTHER_MAKES);
    const name = r.pick(models);
    d.text('make', m[1]);
    d.text('model', name);
    makeTitle = m;
    model = [name, name];
  } else {
    const o = d.opt('model');
    modelValue = o?.value ?? '';
    model = L(o);
  }
  const fresh = r.chance(0.08);
  condition(d, fresh ? 1 : 0);
  const year = fresh
    ? r.int(YEAR_NOW - 1, YEAR_NOW)
    : r.weighted([
        [r.int(2004, 2009), 2],
        [r.int(2010, 2015), 4],
        [r.int(2016, 2020), 4],
        [r.int(2021, 2025), 2],
      ] as const);
  d.setNum('year', year);
  const km = fresh ? 0 : Math.max(5000, (YEAR_NOW - year) * r.int(8, 19) * 1000);
  d.setNum('mileage', km);
  const body = PICKUPS.has(modelValue)
    ? 'pickup'
    : VANS.has(modelValue)
      ? 'van'
      : MINIBUSES.has(modelValue)
        ? 'minibus'
        : SUVS.has(modelValue)
          ? 'suv'
          : SMALL.has(modelValue)
            ? r.pick(['hatchback', 'sedan'])
            : d.category.slug === 'other-car-makes'
              ? r.pick(['sedan', 'suv', 'pickup'])
              : 'sedan';
  d.opt('body_type', [body]);
  const heavy = body === 'pickup' || body === 'minibus' || body === 'van';
  d.opt(
    'fuel',
    modelValue === 'prius' ? ['hybrid'] : heavy ? w('diesel:5 petrol:5') : w('petrol:90 hybrid:4 gas:3 diesel:3'),
  );
  const luxury = LUXURY_MAKES.has(d.category.slug);
  d.opt('transmission', luxury ? ['automatic'] : w(`automatic:${heavy ? 4 : 8} manual:2`));
  d.opt(
    'cylinders',
    BIG_CARS.has(modelValue)
      ? ['8', '6']
      : body === 'suv' || body === 'pickup'
        ? ['6', '4']
        : SMALL.has(modelValue)
          ? ['4', '3']
          : ['4'],
  );
  const korean = d.category.slug === 'hyundai' || d.category.slug === 'kia';
  const chinese = ['chery', 'geely', 'changan', 'mg'].includes(d.category.slug);
  const origin = d.opt(
    'import_origin',
    fresh
      ? ['local']
      : korean
        ? w('korean:6 gulf:2 local:1')
        : chinese
          ? w('chinese:5 local:3')
          : w('gulf:5 american:4 european:3 canadian:1 local:2'),
  );
  const colour = d.opt('colour', w('white:6 silver:4 black:4 grey:3 blue:1 red:1 beige:1 gold:1'));
  const transmission = d.chosen('transmission');
  const fuel = d.chosen('fuel');
  // Roughly what a new one costs in dinars, losing a tenth a year.
  const base = luxury ? 380_000 : BIG_CARS.has(modelValue) ? 420_000 : chinese ? 110_000 : 150_000;
  const value = Math.max(9000, base * 0.9 ** (YEAR_NOW - year) * (SMALL.has(modelValue) ? 0.6 : 1));
  const suffix = r.pick<Pair>([
    origin && origin.value !== 'local' ? [` ${origin.ar}`, ` – ${origin.en}`] : [' وكالة', ' – dealer car'],
    [' نظيفة جداً', ' – very clean'],
    [' بحالة ممتازة', ' – excellent condition'],
    ['', ''],
  ]);
  const title: Pair = [
    `${r.chance(0.35) ? 'سيارة ' : ''}${model[0].startsWith(makeTitle[0]) ? '' : `${makeTitle[0]} `}${model[0]} ${year}${suffix[0]}`,
    `${year} ${model[1].startsWith(makeTitle[1]) ? '' : `${makeTitle[1]} `}${model[1]}${suffix[1]}`,
  ];
  const lines: Pair[] = [
    fresh
      ? ['سيارة جديدة زيرو كيلو، ضمان الوكيل.', 'Brand new, zero kilometres, dealer warranty.']
      : [
          `ماشية ${fmt(km)} كم، ${transmission?.ar ?? 'أوتوماتيك'}، ${fuel?.ar ?? 'بنزين'}، اللون ${colour?.ar ?? ''}.`,
          `${fmt(km)} km, ${lower(transmission?.en ?? 'automatic')}, ${lower(fuel?.en ?? 'petrol')}, ${lower(colour?.en ?? '')}.`,
        ],
    ...r.some(carLines, r.int(2, 4)),
  ];
  return {
    title,
    lines,
    price: {
      lo: value * 0.85,
      hi: value * 1.15,
      types: w('fixed:4 negotiable:6 exchange:0.4'),
    },
  };
}

function motorcycle(d: Draft): Spec {
  const kind = d.opt('motorcycle_type', w('scooter:4 sport:2 off-road:2 atv:3 cruiser:1'));
  const makers: Record<string, string[]> = {
    scooter: ['sym', 'kymco', 'honda', 'yamaha', 'haojue'],
    atv: ['honda', 'yamaha', 'suzuki', 'kawasaki', 'kymco'],
    cruiser: ['harley-davidson', 'bmw', 'honda'],
  };
  const make = d.opt(
    'make',
    makers[kind?.value ?? ''] ?? ['honda', 'yamaha', 'suzuki', 'kawasaki', 'ktm', 'ducati', 'bmw'],
  );
  const ranges: Record<string, [number, number]> = {
    scooter: [110, 180],
    sport: [250, 1000],
    'off-road': [125, 450],
    atv: [150, 700],
    cruiser: [600, 1800],
  };
  const [ccLo, ccHi] = ranges[kind?.value ?? 'scooter'] ?? [110, 250];
  const cc = d.num('engine_cc', ccLo, ccHi, 10);
  condition(d, 0.2);
  const year = d.num('year', isNew(d) ? YEAR_NOW - 1 : 2012, isNew(d) ? YEAR_NOW : 2024);
  const km = isNew(d) ? 0 : d.num('mileage', 2000, 40000, 500);
  const atv = kind?.value === 'atv';
  return {
    title: atv
      ? [`دباب رباعي ${make?.ar ?? ''} ${cc} سي سي ${year}`, `${year} ${make?.en ?? ''} ${cc}cc quad bike`]
      : [
          `دراجة نارية ${make?.ar ?? ''} ${cc} سي سي موديل ${year}`,
          `${year} ${make?.en ?? ''} ${cc}cc ${lower(kind?.en ?? 'motorcycle')}`,
        ],
    lines: [
      conditionLine(d),
      km ? [`ماشية ${fmt(km)} كم فقط.`, `Only ${fmt(km)} km on the clock.`] : ['زيرو لم تستعمل.', 'Zero kilometres.'],
      atv
        ? ['مناسب للرحلات في الصحراء والبحر.', 'Great for trips to the desert and the beach.']
        : ['اقتصادية في البنزين وسريعة في الزحمة.', 'Easy on fuel and quick through traffic.'],
    ],
    price: { lo: cc * (atv ? 30 : 18) + 2500, hi: cc * (atv ? 45 : 30) + 5000 },
  };
}

function truck(d: Draft): Spec {
  const r = d.r;
  const make = d.opt('make', ['mercedes-benz', 'man', 'volvo', 'scania', 'iveco', 'isuzu', 'hino', 'sinotruk']);
  const kind = d.opt('truck_type');
  condition(d, 0.1);
  const year = d.num('year', 1998, 2022);
  const km = d.num('mileage', 150_000, 900_000, 1000);
  // Some types already say "truck" (شاحنة برافعة).
  const noun = kind?.ar.startsWith('شاحنة') ? '' : 'شاحنة ';
  return {
    title: [
      `${noun}${kind?.ar ?? ''} ${make?.ar ?? ''} موديل ${year}`,
      `${year} ${make?.en ?? ''} ${lower(kind?.en ?? '')} truck`,
    ],
    lines: [
      [`ماشية ${fmt(km)} كم، محرك قوي وجاهزة للشغل.`, `${fmt(km)} km, strong engine, ready for work.`],
      r.pick<Pair>([
        ['القير والدفرنس بحالة ممتازة.', 'Gearbox and differential in excellent condition.'],
        ['إطارات جديدة وبطاريات جديدة.', 'New tyres and new batteries.'],
        ['تعمل حالياً على خط طرابلس – مصراتة.', 'Currently working the Tripoli – Misrata route.'],
      ]),
    ],
    price: { lo: 90_000 + (year - 1998) * 6000, hi: 160_000 + (year - 1998) * 12000 },
  };
}

function bus(d: Draft): Spec {
  const make = d.opt('make');
  condition(d, 0.1);
  const year = d.num('year', 2005, 2023);
  const seats = d.setNum('seats', d.r.pick([14, 26, 30, 33, 45, 50]));
  d.num('mileage', 80_000, 700_000, 1000);
  return {
    title: [`حافلة ${make?.ar ?? ''} ${seats} راكب موديل ${year}`, `${year} ${make?.en ?? ''} ${seats}-seat bus`],
    lines: [
      ['مناسبة لنقل الطلبة والموظفين والرحلات.', 'Suits school runs, staff transport and trips.'],
      ['التكييف يعمل، الكراسي نظيفة.', 'Working A/C, clean seats.'],
    ],
    price: { lo: 60_000 + seats * 1500, hi: 120_000 + seats * 3000 },
  };
}

function heavyEquipment(d: Draft): Spec {
  const kind = d.opt('equipment_type', [
    'excavator',
    'loader',
    'backhoe-loader',
    'forklift',
    'tractor',
    'concrete-mixer',
    'crane',
  ]);
  const make = d.opt(
    'make',
    kind?.value === 'tractor'
      ? ['massey-ferguson', 'new-holland', 'case']
      : ['caterpillar', 'komatsu', 'jcb', 'hyundai', 'doosan', 'volvo'],
  );
  condition(d, 0.05);
  const year = d.num('year', 2000, 2021);
  const hours = d.num('operating_hours', 2000, 18000, 100);
  return {
    title: [`${kind?.ar ?? ''} ${make?.ar ?? ''} موديل ${year}`, `${year} ${make?.en ?? ''} ${lower(kind?.en ?? '')}`],
    lines: [
      [`عدد ساعات التشغيل ${fmt(hours)} ساعة.`, `${fmt(hours)} operating hours.`],
      ['الهيدروليك سليم بدون تهريب زيت.', 'Hydraulics sound, no oil leaks.'],
      ['جاهزة للعمل في المشاريع فوراً.', 'Ready to go straight to work on site.'],
    ],
    price: { lo: 80_000, hi: 650_000 },
  };
}

function carPart(d: Draft): Spec {
  const make = d.opt('for_make', [
    'toyota',
    'hyundai',
    'kia',
    'nissan',
    'mercedes-benz',
    'peugeot',
    'chevrolet',
    'mitsubishi',
  ]);
  const part = d.opt('part_type');
  condition(d, 0.5);
  return {
    title: [
      `${part?.ar ?? 'قطع غيار'} ${make?.ar ?? ''} ${isNew(d) ? 'جديد' : 'مستعمل نظيف'}`,
      `${make?.en ?? ''} ${lower(part?.en ?? 'parts')} – ${isNew(d) ? 'new' : 'clean used'}`,
    ],
    lines: [
      isNew(d)
        ? ['قطع أصلية وتجارية بأسعار مناسبة.', 'Genuine and aftermarket parts at fair prices.']
        : ['مستعمل أوروبي، مفحوص ومضمون للتركيب.', 'Used European import, tested and guaranteed on fitting.'],
      ['التوصيل متوفر داخل المدينة.', 'Delivery available within the city.'],
    ],
    price: { lo: 150, hi: part?.value === 'engine' || part?.value === 'gearbox' ? 9000 : 1800 },
  };
}

function tyres(d: Draft): Spec {
  const item = d.opt('item_type');
  const size = d.opt('rim_size', ['15', '16', '17', '18', '20']);
  d.opt('for_make');
  condition(d, 0.6);
  return {
    title: [`${item?.ar ?? 'إطارات'} مقاس ${size?.ar ?? ''}`, `${size?.en ?? ''} ${lower(item?.en ?? 'tyres')}`],
    lines: [
      isNew(d)
        ? ['صناعة حديثة، أربع قطع.', 'Recent production date, set of four.']
        : ['مستعملة نظيفة، الممشى ممتاز.', 'Clean used set, plenty of tread left.'],
    ],
    price: { lo: 400, hi: 4500 },
  };
}

const CAR_ACCESSORIES: Pair[] = [
  ['شاشة أندرويد للسيارة 10 بوصة', '10-inch Android car screen'],
  ['كاميرا خلفية مع حساسات ركن', 'Reversing camera with parking sensors'],
  ['فرش جلد كامل للسيارة', 'Full leather seat covers'],
  ['مسجل داش كام أمامي وخلفي', 'Front and rear dash cam'],
  ['ونش سحب كهربائي', 'Electric towing winch'],
];
function carAccessory(d: Draft): Spec {
  const item = d.r.pick(CAR_ACCESSORIES);
  const make = d.opt('for_make');
  condition(d, 0.7);
  return {
    title: [`${item[0]}${make ? ` – ${make.ar}` : ''}`, `${item[1]}${make ? ` – ${make.en}` : ''}`],
    lines: [conditionLine(d), ['التركيب متوفر عندنا في المحل.', 'Fitting available at our shop.']],
    price: { lo: 120, hi: 1500 },
  };
}

const BIKE_PARTS: Pair[] = [
  ['خوذة دراجة نارية', 'Motorcycle helmet'],
  ['إطارات دراجة نارية', 'Motorcycle tyres'],
  ['بطارية دراجة نارية', 'Motorcycle battery'],
  ['شكمان (عادم) رياضي', 'Sports exhaust'],
];
function bikePart(d: Draft): Spec {
  const item = d.r.pick(BIKE_PARTS);
  condition(d, 0.6);
  return { title: item, lines: [conditionLine(d)], price: { lo: 80, hi: 900 } };
}

function boat(d: Draft): Spec {
  const kind = d.opt('boat_type', w('fishing-boat:5 speedboat:2 jet-ski:2 inflatable:1 boat-engine:1'));
  condition(d, 0.15);
  const year = d.num('year', 2005, 2024);
  const length =
    kind?.value === 'boat-engine'
      ? 0
      : d.num('length_m', kind?.value === 'jet-ski' ? 3 : 5, kind?.value === 'fishing-boat' ? 9 : 8);
  const hp = d.num('engine_hp', 40, 300, 5);
  return {
    title:
      kind?.value === 'boat-engine'
        ? [`محرك قارب ياماها ${hp} حصان`, `Yamaha ${hp} hp outboard engine`]
        : [
            `${kind?.ar ?? 'قارب'} ${length} متر بمحرك ${hp} حصان`,
            `${length} m ${lower(kind?.en ?? 'boat')}, ${hp} hp engine`,
          ],
    lines: [
      [`موديل ${year}، جاهز للنزول للبحر.`, `${year} model, ready for the water.`],
      ['مع المقطورة والأوراق كاملة من الميناء.', 'Comes with the trailer and full harbour papers.'],
    ],
    price: { lo: 6000 + hp * 80, hi: 20000 + hp * 250 },
  };
}

// ───────────────────────── property ─────────────────────────

const propertyLines: Pair[] = [
  ['قريبة من المدارس والمساجد والخدمات.', 'Close to schools, mosques and shops.'],
  ['الكهرباء والمياه والصرف الصحي متوفرة.', 'Mains electricity, water and sewerage connected.'],
  ['الشارع معبد والمنطقة هادئة.', 'Paved street in a quiet neighbourhood.'],
  ['تشطيب ممتاز وسيراميك جديد.', 'High-quality finishing with new tiles.'],
  ['مطبخ مجهز بالكامل.', 'Fully fitted kitchen.'],
];
const propertyClosing: Pair[] = [
  ['المعاينة بموعد مسبق.', 'Viewing by appointment.'],
  ['السعر قابل للتفاوض للجادين.', 'Price negotiable for serious buyers.'],
  ['لا نتعامل مع السماسرة.', 'No agents please.'],
  ['الأوراق جاهزة للتنازل في المحكمة.', 'Papers ready for transfer at the registry.'],
];

const amenitiesLine = (list: ContentOption[]): Pair | null =>
  list.length
    ? [`المميزات: ${list.map((o) => o.ar).join('، ')}.`, `Features: ${list.map((o) => lower(o.en)).join(', ')}.`]
    : null;

function residential(d: Draft, kind: 'apartment' | 'villa' | 'house', rent: boolean): Spec {
  const r = d.r;
  const at = where(d);
  const beds = d.num('bedrooms', kind === 'apartment' ? 1 : 3, kind === 'apartment' ? 4 : 7);
  d.num('bathrooms', 1, Math.max(1, Math.min(5, beds - 1)));
  const size = d.num(
    'size_m2',
    kind === 'apartment' ? 70 + beds * 25 : 180 + beds * 50,
    kind === 'apartment' ? 110 + beds * 35 : 300 + beds * 90,
    5,
  );
  if (kind === 'apartment') d.num('floor', 0, 9);
  else d.num('floors_count', 1, kind === 'villa' ? 3 : 2);
  d.num('building_age', 0, 35);
  const furnished = d.flag('furnished', rent ? 0.45 : 0.15);
  const amenities = d.multi(
    'amenities',
    1,
    4,
    kind === 'apartment'
      ? ['parking', 'elevator', 'generator', 'water-tank', 'split-ac', 'balcony', 'solar-power', 'sea-view']
      : ['parking', 'generator', 'water-tank', 'water-well', 'garden', 'pool', 'central-ac', 'solar-power', 'security'],
  );
  if (!rent) d.opt('ownership_document', w('registered-title:6 customary-contract:3 under-registration:1'));
  const period = rent ? d.opt('rent_period', w('monthly:8 yearly:2')) : null;
  const noun: Pair =
    kind === 'apartment' ? ['شقة', 'apartment'] : kind === 'villa' ? ['فيلا', 'villa'] : ['حوش', 'house'];
  const deal: Pair = rent ? ['للإيجار', 'for rent'] : ['للبيع', 'for sale'];
  const title: Pair = [
    `${noun[0]} ${deal[0]} ${beds} غرف نوم في ${at[0]}`,
    `${beds}-bedroom ${noun[1]} ${deal[1]} in ${at[1]}`,
  ];
  const lines: Pair[] = [
    [
      `المساحة ${fmt(size)} م²، ${beds} غرف نوم وصالة ومطبخ${furnished ? '، مفروشة بالكامل' : ''}.`,
      `${fmt(size)} m², ${beds} bedrooms, living room and kitchen${furnished ? ', fully furnished' : ''}.`,
    ],
    ...r.some(propertyLines, 2),
  ];
  const a = amenitiesLine(amenities);
  if (a) lines.push(a);
  if (rent) {
    const yearly = period?.value === 'yearly';
    const monthly = kind === 'apartment' ? [1200, 4000] : kind === 'villa' ? [4000, 12000] : [1500, 4500];
    lines.push(
      yearly
        ? ['الإيجار سنوي يدفع مقدماً.', 'Yearly rent, paid in advance.']
        : ['الإيجار شهري مع تأمين شهر.', 'Monthly rent plus one month deposit.'],
      ['للعائلات فقط.', 'Families only.'],
    );
    const k = yearly ? 11 : 1;
    return { title, lines, price: { lo: monthly[0] * k, hi: monthly[1] * k } };
  }
  const perM2 = d.place.city.name_en === 'Tripoli' || d.place.city.name_en === 'Benghazi' ? [2500, 5500] : [1200, 3000];
  return { title, lines, price: { lo: size * perM2[0], hi: size * perM2[1] } };
}

function land(d: Draft): Spec {
  const at = where(d);
  const kind = d.opt('land_type', w('residential:6 agricultural:3 commercial:2 industrial:1'));
  const size = d.num(
    'size_m2',
    kind?.value === 'agricultural' ? 2500 : 300,
    kind?.value === 'agricultural' ? 40000 : 1500,
    50,
  );
  const corner = d.flag('corner_plot', 0.3);
  d.opt('ownership_document', w('registered-title:5 customary-contract:4'));
  const perM2 = kind?.value === 'agricultural' ? [40, 150] : [350, 1400];
  return {
    title: [
      `أرض ${kind?.ar ?? ''} ${fmt(size)} م² للبيع في ${at[0]}`,
      `${fmt(size)} m² ${lower(kind?.en ?? '')} plot for sale in ${at[1]}`,
    ],
    lines: [
      corner
        ? ['قطعة ناصية على شارعين.', 'Corner plot on two streets.']
        : ['واجهة على شارع رئيسي.', 'Frontage on a main road.'],
      ['الأوراق سليمة وجاهزة للتنازل.', 'Clean papers, ready for transfer.'],
      ['الكهرباء قريبة من الأرض.', 'Mains power close by.'],
    ],
    price: { lo: size * perM2[0], hi: size * perM2[1] },
  };
}

function farm(d: Draft): Spec {
  const at = where(d);
  const size = d.num('size_m2', 5000, 60000, 500);
  const house = d.flag('has_house', 0.6);
  const well = d.flag('has_well', 0.75);
  d.opt('ownership_document', ['registered-title', 'customary-contract']);
  const ha = Math.round(size / 1000) / 10;
  return {
    title: [`مزرعة ${ha} هكتار للبيع في ${at[0]}`, `${ha}-hectare farm for sale in ${at[1]}`],
    lines: [
      [
        `فيها أشجار زيتون ونخيل ولوز${well ? '، بئر مياه عذبة بمضخة' : ''}${house ? '، واستراحة من غرفتين' : ''}.`,
        `Olive, palm and almond trees${well ? ', a sweet-water well with a pump' : ''}${house ? ', and a two-room rest house' : ''}.`,
      ],
      ['مسورة بالكامل بسور بلوك.', 'Fully walled with a block wall.'],
    ],
    price: { lo: size * 25, hi: size * 90 },
  };
}

function commercial(d: Draft, rent: boolean): Spec {
  const at = where(d);
  const kind = d.opt('commercial_type', ['shop', 'office', 'warehouse', 'showroom', 'restaurant-cafe', 'clinic']);
  const size = d.num('size_m2', kind?.value === 'warehouse' ? 200 : 30, kind?.value === 'warehouse' ? 1200 : 250, 5);
  if (rent) d.opt('rent_period', w('monthly:7 yearly:3'));
  else d.opt('ownership_document', ['registered-title', 'under-registration']);
  const yearly = d.attrs.rent_period === 'yearly';
  return {
    title: [
      `${kind?.ar ?? 'محل'} ${rent ? 'للإيجار' : 'للبيع'} ${fmt(size)} م² في ${at[0]}`,
      `${kind?.en ?? 'Shop'} ${rent ? 'for rent' : 'for sale'}, ${fmt(size)} m², ${at[1]}`,
    ],
    lines: [
      ['على شارع تجاري حيوي، مناسب لجميع الأنشطة.', 'On a busy commercial street, suits any business.'],
      ['يوجد موقف سيارات وعداد كهرباء مستقل.', 'Parking and a separate electricity meter.'],
    ],
    price: rent
      ? { lo: size * 15 * (yearly ? 11 : 1), hi: size * 45 * (yearly ? 11 : 1) }
      : { lo: size * 3000, hi: size * 8000 },
  };
}

function chalet(d: Draft): Spec {
  const at = where(d);
  const beds = d.num('bedrooms', 1, 4);
  d.num('bathrooms', 1, 2);
  d.num('size_m2', 60, 200, 5);
  d.opt('rent_period', w('daily:8 monthly:2'));
  d.multi('amenities', 1, 3, ['sea-view', 'pool', 'parking', 'split-ac', 'garden']);
  const daily = d.attrs.rent_period === 'daily';
  return {
    title: [
      `شاليه للإيجار ${daily ? 'اليومي' : 'الشهري'} على البحر في ${at[0]}`,
      `Seaside chalet for ${daily ? 'daily' : 'monthly'} rent in ${at[1]}`,
    ],
    lines: [
      [`${beds} غرف، مطبخ مجهز، قريب من الشاطئ.`, `${beds} bedrooms, fitted kitchen, a short walk to the beach.`],
      ['داخل قرية سياحية مع حراسة.', 'Inside a guarded resort.'],
      ['الحجز للعائلات فقط، أيام الأعياد بسعر خاص.', 'Families only; holiday prices differ.'],
    ],
    price: daily ? { lo: 250, hi: 900 } : { lo: 3000, hi: 8000 },
  };
}

function room(d: Draft): Spec {
  const at = where(d);
  d.num('size_m2', 12, 30);
  d.opt('rent_period', ['monthly']);
  const furnished = d.flag('furnished', 0.7);
  const bath = d.flag('private_bathroom', 0.5);
  return {
    title: [`غرفة للإيجار لطالب أو موظف في ${at[0]}`, `Room for rent for a student or professional in ${at[1]}`],
    lines: [
      [
        `${furnished ? 'مفروشة' : 'غير مفروشة'}${bath ? ' مع حمام خاص' : ''}، الإنترنت والكهرباء مشمولة.`,
        `${furnished ? 'Furnished' : 'Unfurnished'}${bath ? ' with a private bathroom' : ''}; internet and electricity included.`,
      ],
      ['قريبة من الجامعة والمواصلات.', 'Close to the university and transport.'],
    ],
    price: { lo: 350, hi: 950 },
  };
}

// ───────────────────────── electronics ─────────────────────────

const electronicsClosing: Pair[] = [
  ['التسليم يد بيد داخل المدينة.', 'Hand-over in person within the city.'],
  ['يوجد توصيل لجميع المدن عن طريق شركات الشحن.', 'Delivery to every city through a courier.'],
  ['السعر نهائي.', 'Price is final.'],
  ['قابل للتجربة قبل الشراء.', 'You can test it before buying.'],
];

const OTHER_PHONES: Record<string, readonly string[]> = {
  honor: ['X8b', 'Magic6 Lite', '90'],
  realme: ['C67', '11 Pro', 'GT 6'],
  infinix: ['Hot 40', 'Note 30'],
  tecno: ['Spark 20', 'Camon 30'],
  oneplus: ['12', 'Nord 3'],
  'google-pixel': ['8', '8 Pro', '7a'],
};

function phone(d: Draft, brand: Pair | null, models: readonly string[] | null, top: number): Spec {
  const r = d.r;
  condition(d, 0.3, w('new:3 used:6 refurbished:1'));
  let name: Pair;
  let tier = 1;
  const modelAttr = d.category.attributes.find((a) => a.key === 'model');
  if (modelAttr) {
    // Newer models (listed first) are advertised more often.
    const options = modelAttr.options.filter((o) => o.value !== 'other' && !o.value.startsWith('older-'));
    const i = Math.min(options.length - 1, Math.floor(r.next() ** 1.6 * options.length));
    const o = d.opt('model', [options[i].value]);
    name = L(o);
    tier = 1 - i / options.length;
  } else {
    const otherBrand = d.has('brand')
      ? d.opt('brand', ['honor', 'realme', 'infinix', 'tecno', 'oneplus', 'google-pixel'])
      : null;
    const b = brand ?? L(otherBrand);
    const m = r.pick(models ?? OTHER_PHONES[otherBrand?.value ?? ''] ?? ['5G']);
    name = [`${b[0]} ${m}`, `${b[1]} ${m}`];
    tier = r.next() * 0.7;
  }
  // Older models are only ever sold used.
  if (tier < 0.5 && isNew(d)) d.opt('condition', ['used']);
  const storage = d.opt(
    'storage',
    tier > 0.85 ? ['256gb', '512gb', '1tb'] : tier > 0.5 ? ['128gb', '256gb', '512gb'] : ['64gb', '128gb', '256gb'],
  );
  const colour = d.opt('colour');
  const battery = d.has('battery_health') && !isNew(d) ? d.num('battery_health', 78, 100) : null;
  const price = top * (0.25 + 0.75 * tier) * (isNew(d) ? 1 : 0.72);
  return {
    title: [
      `${name[0]} ${storage?.ar ?? ''} ${isNew(d) ? 'جديد مسكر' : 'نظيف'}`.replace(/\s+/g, ' ').trim(),
      `${name[1]} ${storage?.en ?? ''} ${isNew(d) ? '– new, sealed' : '– clean'}`.replace(/\s+/g, ' ').trim(),
    ],
    lines: [
      conditionLine(d),
      [
        `اللون ${colour?.ar ?? ''}${battery ? `، البطارية ${battery}%` : ''}.`,
        `${colour?.en ?? ''}${battery ? `, battery health ${battery}%` : ''}.`,
      ],
      r.pick<Pair>([
        ['مع العلبة والشاحن الأصلي.', 'With the box and original charger.'],
        ['بدون أي خدش، كان في جراب من أول يوم.', 'Not a scratch: in a case since day one.'],
        ['مفتوح لجميع الشبكات (ليبيانا والمدار).', 'Unlocked for every network (Libyana and Al-Madar).'],
      ]),
    ],
    price: { lo: price * 0.9, hi: price * 1.1 },
  };
}

const TABLETS: Record<string, readonly string[]> = {
  apple: ['iPad Pro 11', 'iPad Air', 'iPad 10th gen', 'iPad mini'],
  samsung: ['Galaxy Tab S9', 'Galaxy Tab A9'],
  huawei: ['MatePad 11', 'MatePad T10'],
  xiaomi: ['Pad 6', 'Redmi Pad SE'],
  lenovo: ['Tab M10', 'Tab P11'],
};
function tablet(d: Draft): Spec {
  condition(d, 0.3, w('new:3 used:7'));
  const brand = d.opt('brand', ['apple', 'samsung', 'huawei', 'xiaomi', 'lenovo']);
  const model = d.r.pick(TABLETS[brand?.value ?? 'apple'] ?? ['Tab']);
  const storage = d.opt('storage', ['64gb', '128gb', '256gb']);
  return {
    title: [`تابلت ${model} ${storage?.ar ?? ''}`, `${model} ${storage?.en ?? ''} tablet`],
    lines: [conditionLine(d), ['مناسب للدراسة والأطفال.', 'Ideal for studying and for the kids.']],
    price: { lo: brand?.value === 'apple' ? 1500 : 600, hi: brand?.value === 'apple' ? 5500 : 2200 },
  };
}

const LAPTOPS: Record<string, readonly string[]> = {
  apple: ['MacBook Air', 'MacBook Pro 14', 'MacBook Pro 16'],
  dell: ['Latitude 5420', 'XPS 13', 'Inspiron 15', 'Vostro 3510'],
  hp: ['EliteBook 840', 'ProBook 450', 'Pavilion 15', 'Victus 16'],
  lenovo: ['ThinkPad T14', 'IdeaPad 5', 'Legion 5', 'ThinkPad X1 Carbon'],
  asus: ['ROG Strix G15', 'VivoBook 15', 'ZenBook 14', 'TUF Gaming F15'],
  acer: ['Aspire 5', 'Nitro 5', 'Swift 3'],
  msi: ['Katana GF66', 'Modern 14'],
  microsoft: ['Surface Laptop 5', 'Surface Pro 9'],
  samsung: ['Galaxy Book3'],
  toshiba: ['Satellite Pro'],
  huawei: ['MateBook D15'],
};
function laptop(d: Draft): Spec {
  condition(d, 0.25, w('new:3 used:6 refurbished:1'));
  const brand = d.opt('brand', Object.keys(LAPTOPS));
  const apple = brand?.value === 'apple';
  const model = d.r.pick(LAPTOPS[brand?.value ?? 'dell'] ?? ['Laptop']);
  const cpu = d.opt(
    'processor',
    apple
      ? ['apple-m1', 'apple-m2', 'apple-m3', 'apple-m4']
      : ['intel-core-i5', 'intel-core-i7', 'amd-ryzen-5', 'amd-ryzen-7', 'intel-core-i3'],
  );
  const ram = d.opt('ram', ['8gb', '16gb', '16gb', '32gb']);
  const ssd = d.opt('storage', ['256gb', '512gb', '1tb']);
  const screen = d.num('screen_size', 13, 16);
  return {
    title: [
      `لابتوب ${model} ${cpu?.ar ?? ''} رام ${ram?.ar ?? ''}`,
      `${model} laptop – ${cpu?.en ?? ''}, ${ram?.en ?? ''} RAM`,
    ],
    lines: [
      conditionLine(d),
      [`شاشة ${screen} بوصة، تخزين ${ssd?.ar ?? ''} SSD.`, `${screen}-inch screen, ${ssd?.en ?? ''} SSD.`],
      d.r.pick<Pair>([
        ['مناسب للمبرمجين والمصممين وطلبة الهندسة.', 'Suits developers, designers and engineering students.'],
        ['البطارية تدوم حتى 6 ساعات.', 'Battery lasts up to six hours.'],
        ['ويندوز أصلي مفعل مع أوفيس.', 'Genuine Windows activated, with Office.'],
      ]),
    ],
    price: { lo: apple ? 3000 : 1200, hi: apple ? 9000 : 5500 },
  };
}

function desktop(d: Draft): Spec {
  condition(d, 0.3, w('new:3 used:7'));
  const brand = d.opt('brand', ['custom-build', 'custom-build', 'dell', 'hp', 'apple', 'lenovo']);
  const custom = brand?.value === 'custom-build';
  d.opt(
    'processor',
    custom ? ['intel-core-i7', 'amd-ryzen-7', 'intel-core-i9', 'amd-ryzen-5'] : ['intel-core-i5', 'intel-core-i7'],
  );
  const ram = d.opt('ram', ['16gb', '32gb']);
  d.opt('storage', ['512gb', '1tb', '2tb']);
  const gpu = d.r.pick(['RTX 3060', 'RTX 4060', 'RTX 4070', 'RX 6700 XT']);
  return {
    title: custom
      ? [`كمبيوتر قيمنق تجميع كرت ${gpu} رام ${ram?.ar ?? ''}`, `Gaming PC – ${gpu}, ${ram?.en ?? ''} RAM`]
      : [`كمبيوتر مكتبي ${brand?.ar ?? ''} للمكاتب والشركات`, `${brand?.en ?? ''} desktop for office work`],
    lines: [
      conditionLine(d),
      custom
        ? [
            'يشغل كل الألعاب الحديثة على إعدادات عالية، مع شاشة 144 هرتز.',
            'Runs every recent game on high settings; 144 Hz monitor included.',
          ]
        : ['مع الشاشة ولوحة المفاتيح والفأرة.', 'Comes with monitor, keyboard and mouse.'],
    ],
    price: { lo: custom ? 3500 : 900, hi: custom ? 12000 : 3500 },
  };
}

const ACCESSORIES: Record<string, readonly Pair[]> = {
  monitors: [
    ['شاشة سامسونج 27 بوصة', 'Samsung 27-inch monitor'],
    ['شاشة ديل 24 بوصة IPS', 'Dell 24-inch IPS monitor'],
  ],
  printers: [
    ['طابعة HP ليزر أبيض وأسود', 'HP mono laser printer'],
    ['طابعة كانون ملونة مع سكانر', 'Canon colour printer with scanner'],
  ],
  'keyboards-mice': [['لوحة مفاتيح ميكانيكية مع فأرة قيمنق', 'Mechanical keyboard with gaming mouse']],
  networking: [
    ['راوتر TP-Link واي فاي 6', 'TP-Link Wi-Fi 6 router'],
    ['راوتر 4G ليبيانا', 'Libyana 4G router'],
  ],
  'storage-drives': [
    ['هارد خارجي 2 تيرا', '2 TB external hard drive'],
    ['SSD سامسونج 1 تيرا', 'Samsung 1 TB SSD'],
  ],
  components: [
    ['كرت شاشة RTX 3070', 'RTX 3070 graphics card'],
    ['رامات 16 جيجا DDR4', '16 GB DDR4 RAM kit'],
  ],
};
function computerAccessory(d: Draft): Spec {
  const kind = d.opt('accessory_type', Object.keys(ACCESSORIES));
  const item = d.r.pick(ACCESSORIES[kind?.value ?? 'monitors'] ?? ACCESSORIES.monitors);
  condition(d, 0.5, w('new:5 used:5'));
  return { title: item, lines: [conditionLine(d)], price: { lo: 60, hi: 1500 } };
}

function tvAudio(d: Draft): Spec {
  const kind = d.opt('item_type', w('tv:5 satellite-receiver:2 speakers:2 home-theatre:1 headphones:1 projector:1'));
  condition(d, 0.4, w('new:4 used:6'));
  if (kind?.value === 'tv') {
    const brand = d.opt('brand', ['samsung', 'lg', 'sony', 'tcl', 'hisense']);
    const inches = d.setNum('screen_size', d.r.pick([32, 43, 50, 55, 65, 75]));
    return {
      title: [`شاشة ${brand?.ar ?? ''} ${inches} بوصة سمارت 4K`, `${brand?.en ?? ''} ${inches}-inch 4K smart TV`],
      lines: [
        conditionLine(d),
        ['فيها نتفليكس ويوتيوب ورسيفر داخلي.', 'Netflix and YouTube built in, plus an internal receiver.'],
      ],
      price: { lo: inches * 25, hi: inches * 70 },
    };
  }
  if (kind?.value === 'satellite-receiver') {
    return {
      title: ['رسيفر HD مع اشتراك سنة', 'HD satellite receiver with a one-year subscription'],
      lines: [conditionLine(d), ['يلقط نايل سات وعرب سات.', 'Picks up Nilesat and Arabsat.']],
      price: { lo: 80, hi: 350 },
    };
  }
  const brand = d.opt('brand', ['jbl', 'sony', 'samsung', 'lg', 'philips']);
  return {
    title: [`${kind?.ar ?? 'سماعات'} ${brand?.ar ?? ''}`, `${brand?.en ?? ''} ${lower(kind?.en ?? 'speakers')}`],
    lines: [conditionLine(d), ['الصوت نقي وقوي.', 'Clear, powerful sound.']],
    price: { lo: 150, hi: 2500 },
  };
}

const CAMERAS: Record<string, Pair> = {
  dslr: ['كاميرا كانون EOS 250D مع عدسة 18-55', 'Canon EOS 250D with 18-55 lens'],
  mirrorless: ['كاميرا سوني A7 III بودي', 'Sony A7 III body'],
  compact: ['كاميرا صغيرة سوني سايبر شوت', 'Sony Cyber-shot compact camera'],
  action: ['كاميرا جو برو هيرو 11', 'GoPro Hero 11'],
  drone: ['طائرة درون DJI Mini 3 برو', 'DJI Mini 3 Pro drone'],
  lens: ['عدسة نيكون 50 مم f/1.8', 'Nikon 50 mm f/1.8 lens'],
  surveillance: ['نظام كاميرات مراقبة 8 كاميرات مع DVR', '8-camera security system with DVR'],
};
function camera(d: Draft): Spec {
  const kind = d.opt('camera_type', Object.keys(CAMERAS));
  const item = CAMERAS[kind?.value ?? 'dslr'] ?? CAMERAS.dslr;
  const brand = item[1].split(' ')[0].toLowerCase();
  d.opt('brand', [
    brand === 'dji' || brand === 'gopro' || brand === 'sony' || brand === 'canon' || brand === 'nikon'
      ? brand
      : 'other',
  ]);
  condition(d, 0.3, w('new:3 used:7'));
  return {
    title: item,
    lines: [conditionLine(d), ['مناسبة للتصوير الاحترافي والمناسبات.', 'Great for professional shoots and events.']],
    price: { lo: 600, hi: 7000 },
  };
}

function videoGames(d: Draft): Spec {
  const platform = d.opt('platform', w('playstation-5:5 playstation-4:3 xbox-series:2 nintendo-switch:2 pc:1'));
  condition(d, 0.35, w('new:4 used:6'));
  const p = L(platform);
  if (d.category.slug === 'consoles') {
    return {
      title: [`${p[0]} مع يدتين وألعاب`, `${p[1]} with two controllers and games`],
      lines: [conditionLine(d), ['معاه فيفا وكول أوف ديوتي.', 'Comes with EA FC and Call of Duty.']],
      price: {
        lo: platform?.value === 'playstation-5' ? 1800 : 600,
        hi: platform?.value === 'playstation-5' ? 3200 : 1500,
      },
    };
  }
  if (d.category.slug === 'games') {
    const game = d.r.pick(['EA Sports FC 25', 'Call of Duty', 'GTA V', 'Spider-Man 2', 'God of War Ragnarök']);
    return {
      title: [`لعبة ${game} – ${p[0]}`, `${game} – ${p[1]}`],
      lines: [conditionLine(d), ['الديسك سليم بدون خدوش.', 'Disc in perfect shape, no scratches.']],
      price: { lo: 60, hi: 280 },
    };
  }
  return {
    title: [`يد تحكم أصلية ${p[0]}`, `Original ${p[1]} controller`],
    lines: [conditionLine(d)],
    price: { lo: 120, hi: 450 },
  };
}

const PHONE_ACCESSORIES: Record<string, Pair> = {
  'chargers-cables': ['شاحن سريع أصلي 25 واط', 'Original 25 W fast charger'],
  'cases-covers': ['جرابات آيفون وسامسونج بالجملة', 'iPhone and Samsung cases, wholesale'],
  'screen-protectors': ['لاصقات حماية زجاجية لجميع الأنواع', 'Tempered glass screen protectors for every model'],
  earphones: ['سماعات إيربودز برو', 'AirPods Pro earbuds'],
  'power-banks': ['باور بانك 20000 مللي أمبير', '20,000 mAh power bank'],
  smartwatches: ['ساعة أبل سيريس 9', 'Apple Watch Series 9'],
};
function phoneAccessory(d: Draft): Spec {
  const kind = d.opt('accessory_type', Object.keys(PHONE_ACCESSORIES));
  condition(d, 0.7, w('new:8 used:2'));
  return {
    title: PHONE_ACCESSORIES[kind?.value ?? 'earphones'] ?? PHONE_ACCESSORIES.earphones,
    lines: [conditionLine(d), ['الكمية متوفرة والتوصيل داخل المدينة.', 'In stock, delivery within the city.']],
    price: { lo: 30, hi: kind?.value === 'smartwatches' ? 1800 : 400 },
  };
}

// ───────────────────────── home & garden ─────────────────────────

const FURNITURE: Record<string, readonly Pair[]> = {
  'living-room': [
    ['صالون مغربي 7 مقاعد', 'Moroccan-style salon, 7 seats'],
    ['طقم كنب تركي مع طاولة وسط', 'Turkish sofa set with coffee table'],
    ['ركنة كبيرة على شكل L', 'Large L-shaped corner sofa'],
  ],
  bedroom: [
    ['غرفة نوم كاملة تركي', 'Complete Turkish bedroom set'],
    ['سرير مزدوج مع دولاب 6 أبواب', 'Double bed with a six-door wardrobe'],
  ],
  dining: [
    ['طاولة سفرة 6 كراسي', 'Dining table with six chairs'],
    ['طاولة سفرة 8 كراسي مع بوفيه', 'Eight-seat dining table with sideboard'],
  ],
  'kids-furniture': [
    ['سرير أطفال بطابقين', 'Children’s bunk bed'],
    ['غرفة نوم أطفال كاملة', 'Complete children’s bedroom'],
  ],
  'office-furniture': [
    ['مكتب مدير مع كرسي جلد', 'Executive desk with leather chair'],
    ['كراسي مكتب طبية', 'Ergonomic office chairs'],
  ],
};
const FURNITURE_PRICES: Record<string, PriceSpec> = {
  'living-room': { lo: 1500, hi: 9000 },
  bedroom: { lo: 1500, hi: 8000 },
  dining: { lo: 800, hi: 5000 },
  'kids-furniture': { lo: 300, hi: 2500 },
  'office-furniture': { lo: 200, hi: 3500 },
};

function furniture(d: Draft): Spec {
  const item = d.r.pick(FURNITURE[d.category.slug] ?? FURNITURE['living-room']);
  const material = d.opt('material', ['wood', 'mdf', 'upholstered', 'leather', 'metal']);
  condition(d, 0.3);
  return {
    title: [`${item[0]} ${isNew(d) ? 'جديد' : 'مستعمل نظيف'}`, `${item[1]} – ${isNew(d) ? 'new' : 'clean, used'}`],
    lines: [
      conditionLine(d),
      [`الخامة ${material?.ar ?? 'خشب'}، شغل ممتاز.`, `${material?.en ?? 'Wood'}, very well made.`],
      d.r.pick<Pair>([
        ['السبب: السفر خارج ليبيا.', 'Selling because I am moving abroad.'],
        ['السبب: تغيير الأثاث.', 'Selling because we are changing our furniture.'],
        ['النقل على حساب المشتري.', 'Buyer arranges transport.'],
      ]),
    ],
    price: FURNITURE_PRICES[d.category.slug] ?? { lo: 400, hi: 4000 },
  };
}

function appliance(d: Draft): Spec {
  const brand = d.opt('brand', ['samsung', 'lg', 'beko', 'ariston', 'haier', 'gree', 'midea', 'bosch']);
  condition(d, 0.45);
  const b = L(brand);
  let name: Pair;
  let price: [number, number];
  switch (d.category.slug) {
    case 'refrigerators': {
      const kind = d.opt('fridge_type', ['top-freezer', 'bottom-freezer', 'side-by-side', 'chest-freezer']);
      name = [`ثلاجة ${b[0]} ${kind?.ar ?? ''}`, `${b[1]} ${lower(kind?.en ?? '')} fridge`];
      price = [900, 6500];
      break;
    }
    case 'washing-machines': {
      const kind = d.opt('washer_type');
      const kg = d.num('capacity_kg', 6, 12);
      name =
        kind?.value === 'dishwasher'
          ? [`غسالة صحون ${b[0]}`, `${b[1]} dishwasher`]
          : [`غسالة ${b[0]} ${kind?.ar ?? ''} ${kg} كيلو`, `${b[1]} ${kg} kg ${lower(kind?.en ?? '')} washing machine`];
      price = [700, 3800];
      break;
    }
    case 'air-conditioners': {
      const kind = d.opt('ac_type', ['split', 'split', 'floor-standing', 'window']);
      const btu = d.opt('capacity_btu', ['12000', '18000', '24000']);
      const inverter = d.flag('inverter', 0.6);
      name = [
        `مكيف ${b[0]} ${kind?.ar ?? ''} ${btu?.ar ?? ''}${inverter ? ' انفرتر' : ''}`,
        `${b[1]} ${btu?.en ?? ''} ${lower(kind?.en ?? '')} A/C${inverter ? ', inverter' : ''}`,
      ];
      price = [1200, 5500];
      break;
    }
    case 'cookers-ovens': {
      const fuel = d.opt('cooker_fuel');
      name = [`طباخة ${b[0]} 5 عيون ${fuel?.ar ?? ''}`, `${b[1]} five-burner ${lower(fuel?.en ?? '')} cooker`];
      price = [600, 3000];
      break;
    }
    case 'water-heaters':
      name = [`سخان مياه ${b[0]} 80 لتر`, `${b[1]} 80-litre water heater`];
      price = [350, 1200];
      break;
    default: {
      const item = d.r.pick<Pair>([
        ['قلاية هوائية', 'air fryer'],
        ['مكنسة كهربائية', 'vacuum cleaner'],
        ['ميكروويف', 'microwave'],
        ['خلاط وعجانة', 'blender and mixer'],
      ]);
      name = [`${item[0]} ${b[0]}`, `${b[1]} ${item[1]}`];
      price = [80, 900];
    }
  }
  return {
    title: name,
    lines: [conditionLine(d), ['يعمل بكفاءة ممتازة وموفر للكهرباء.', 'Works perfectly and is energy efficient.']],
    price: { lo: price[0], hi: price[1] },
  };
}

function power(d: Draft): Spec {
  const kind = d.opt(
    'power_item_type',
    w('diesel-generator:3 petrol-generator:3 solar-panels:2 inverter-ups:3 batteries:2'),
  );
  condition(d, 0.4);
  const v = kind?.value ?? 'petrol-generator';
  const kva = v.includes('generator')
    ? d.num('power_kva', v === 'diesel-generator' ? 10 : 3, v === 'diesel-generator' ? 60 : 9)
    : v === 'inverter-ups'
      ? d.num('power_kva', 3, 10)
      : 0;
  const title: Pair =
    v === 'solar-panels'
      ? ['ألواح طاقة شمسية 550 واط مع التركيب', '550 W solar panels, installation included']
      : v === 'batteries'
        ? ['بطاريات جل 200 أمبير للانفرتر', '200 Ah gel batteries for inverters']
        : v === 'inverter-ups'
          ? [`انفرتر ${kva} كيلو مع منظم شحن`, `${kva} kVA inverter with charge controller`]
          : [`${kind?.ar ?? 'مولد'} ${kva} ك.ف.أ`, `${kva} kVA ${lower(kind?.en ?? 'generator')}`];
  return {
    title,
    lines: [
      conditionLine(d),
      ['الحل الأمثل لانقطاع الكهرباء وطرح الأحمال.', 'The answer to power cuts and load shedding.'],
      v.includes('generator')
        ? ['صوت هادئ واستهلاك وقود قليل.', 'Quiet, with low fuel consumption.']
        : ['نوفر التركيب والضمان.', 'Installation and warranty available.'],
    ],
    price: { lo: v === 'diesel-generator' ? 9000 : 900, hi: v === 'diesel-generator' ? 45000 : 9000 },
  };
}

const HOME_ITEMS: Record<string, readonly Pair[]> = {
  kitchenware: [
    ['طقم أواني طبخ جرانيت 12 قطعة', '12-piece granite cookware set'],
    ['طقم صحون بورسلان 72 قطعة', '72-piece porcelain dinner set'],
    ['طنجرة ضغط وكسكاس', 'Pressure cooker and couscous steamer'],
  ],
  'home-decor': [
    ['نجفة كريستال للصالون', 'Crystal chandelier for the salon'],
    ['لوحات جدارية وساعة حائط', 'Wall art and a wall clock'],
  ],
  'carpets-curtains': [
    ['سجاد تركي 3×4 متر', 'Turkish carpet, 3 × 4 m'],
    ['ستائر صالون مع التركيب', 'Salon curtains, fitting included'],
  ],
  'garden-outdoor': [
    ['طاولة حديقة مع 4 كراسي', 'Garden table with four chairs'],
    ['شتلات زيتون وليمون', 'Olive and lemon saplings'],
    ['مظلة سيارة حديد', 'Steel carport shade'],
  ],
};
function homeItem(d: Draft): Spec {
  const item = d.r.pick(HOME_ITEMS[d.category.slug] ?? HOME_ITEMS.kitchenware);
  condition(d, 0.6);
  return { title: item, lines: [conditionLine(d), ['الكمية محدودة.', 'Limited stock.']], price: { lo: 40, hi: 2500 } };
}

// ───────────────────────── fashion ─────────────────────────

const CLOTHES: Record<string, readonly Pair[]> = {
  'mens-clothing': [
    ['بدلة رجالية تركية', 'Turkish men’s suit'],
    ['جاكيت جلد طبيعي', 'Genuine leather jacket'],
    ['قمصان رجالية قطن', 'Men’s cotton shirts'],
  ],
  'womens-clothing': [
    ['فستان سهرة', 'Evening dress'],
    ['عباية خليجية', 'Gulf-style abaya'],
    ['جلابية مطرزة', 'Embroidered jalabiya'],
  ],
};
function clothing(d: Draft): Spec {
  const r = d.r;
  condition(d, 0.6);
  const size = d.opt('size', ['s', 'm', 'l', 'xl', 'xxl']);
  let item: Pair;
  if (d.category.slug === 'traditional-clothing') {
    const g = d.opt('gender', w('men:5 women:4 kids:1'));
    item =
      g?.value === 'women'
        ? r.pick<Pair>([
            ['رداء ليبي تقليدي (حولي)', 'Traditional Libyan hooli wrap'],
            ['قفطان ليبي للأعراس', 'Libyan wedding kaftan'],
          ])
        : g?.value === 'kids'
          ? ['بدلة عربية للأطفال للعيد', 'Children’s traditional outfit for Eid']
          : r.pick<Pair>([
              ['بدلة عربية ليبية مع الفرملة', 'Libyan traditional suit with farmla waistcoat'],
              ['جرد ليبي صوف', 'Wool Libyan jard'],
              ['شنة حمراء (طاقية ليبية)', 'Red Libyan shanna cap'],
            ]);
  } else item = r.pick(CLOTHES[d.category.slug] ?? CLOTHES['mens-clothing']);
  return {
    title: [`${item[0]} مقاس ${size?.ar ?? ''}`, `${item[1]}, size ${size?.en ?? ''}`],
    lines: [conditionLine(d), ['قماش ممتاز وخياطة نظيفة.', 'Quality fabric and neat tailoring.']],
    price: { lo: 60, hi: d.category.slug === 'traditional-clothing' ? 2500 : 900 },
  };
}

function kidsClothes(d: Draft): Spec {
  condition(d, 0.6);
  const g = d.opt('gender');
  const age = d.opt('age_group');
  return {
    title: [
      `ملابس ${g?.value === 'unisex' ? 'أطفال' : (g?.ar ?? 'أطفال')} ${age?.ar ?? ''}`,
      `${g?.value === 'boys' || g?.value === 'girls' ? g.en : 'Kids'}’ clothes, ${age?.en ?? ''}`,
    ],
    lines: [conditionLine(d), ['مجموعة كاملة بسعر واحد.', 'The whole bundle for one price.']],
    price: { lo: 40, hi: 350 },
  };
}

function shoes(d: Draft): Spec {
  condition(d, 0.6);
  const kids = d.category.slug === 'kids-shoes';
  const women = d.category.slug === 'womens-shoes';
  const size = d.num('shoe_size', kids ? 22 : women ? 36 : 40, kids ? 34 : women ? 41 : 45);
  const item: Pair = kids
    ? ['حذاء رياضي للأطفال', 'Kids’ trainers']
    : women
      ? d.r.pick<Pair>([
          ['حذاء كعب عالي', 'High heels'],
          ['حذاء رياضي نسائي', 'Women’s trainers'],
        ])
      : d.r.pick<Pair>([
          ['حذاء رياضي نايكي', 'Nike trainers'],
          ['حذاء جلد رسمي', 'Leather dress shoes'],
          ['صندل جلد ليبي', 'Libyan leather sandals'],
        ]);
  return {
    title: [`${item[0]} مقاس ${size}`, `${item[1]}, size ${size}`],
    lines: [conditionLine(d)],
    price: { lo: 60, hi: 600 },
  };
}

function watch(d: Draft): Spec {
  condition(d, 0.4);
  const g = d.opt('gender');
  const kind = d.opt('watch_type', ['analog', 'analog', 'smart', 'digital']);
  const item: Pair =
    kind?.value === 'smart'
      ? ['ساعة سامسونج جالكسي ووتش', 'Samsung Galaxy Watch']
      : kind?.value === 'digital'
        ? ['ساعة كاسيو جي شوك', 'Casio G-Shock watch']
        : d.r.pick<Pair>([
            ['ساعة سيكو أوتوماتيك', 'Seiko automatic watch'],
            ['ساعة تيسو سويسرية', 'Tissot Swiss watch'],
          ]);
  return {
    title: [`${item[0]} ${g?.ar ?? ''}`, `${item[1]} – ${lower(g?.en ?? '')}`],
    lines: [conditionLine(d), ['أصلية مع العلبة والضمان.', 'Genuine, with box and warranty card.']],
    price: { lo: 150, hi: 4000 },
  };
}

function jewellery(d: Draft): Spec {
  condition(d, 0.5);
  d.opt('gender', ['women', 'women', 'unisex']);
  const material = d.opt('material', w('gold:6 silver:2 diamond:1 accessories:1'));
  const gold = material?.value === 'gold';
  const karat = gold ? d.opt('gold_karat', ['18k', '21k']) : null;
  const grams = d.num('weight_g', gold ? 5 : 10, gold ? 60 : 120);
  const item = d.r.pick<Pair>([
    ['طقم', 'set'],
    ['خاتم', 'ring'],
    ['سلسلة', 'necklace'],
    ['أساور', 'bracelets'],
    ['خلخال', 'anklet'],
  ]);
  return {
    title: gold
      ? [`${item[0]} ذهب ${karat?.ar ?? ''} وزن ${grams} غرام`, `${karat?.en ?? ''} gold ${item[1]}, ${grams} g`]
      : [`${item[0]} ${material?.ar ?? ''}`, `${material?.en ?? ''} ${item[1]}`],
    lines: [
      gold
        ? ['ذهب ليبي مدموغ، السعر حسب سعر الغرام اليوم.', 'Hallmarked gold; priced at today’s rate per gram.']
        : conditionLine(d),
    ],
    price: gold ? { lo: grams * 420, hi: grams * 520, types: [['fixed', 1]] } : { lo: 80, hi: 6000 },
  };
}

function bag(d: Draft): Spec {
  condition(d, 0.5);
  d.opt('gender', ['women', 'women', 'men', 'unisex']);
  const item = d.r.pick<Pair>([
    ['حقيبة يد نسائية جلد', 'Leather handbag'],
    ['شنطة سفر كبيرة', 'Large travel suitcase'],
    ['حقيبة ظهر للابتوب', 'Laptop backpack'],
  ]);
  return { title: item, lines: [conditionLine(d)], price: { lo: 80, hi: 1200 } };
}

function perfume(d: Draft): Spec {
  d.opt('condition', w('new:9 used:1'));
  d.opt('gender');
  const kind = d.opt('perfume_type', w('oud-oil:3 bakhoor:2 eau-de-parfum:4 eau-de-toilette:1'));
  const item: Pair =
    kind?.value === 'oud-oil'
      ? ['دهن عود كمبودي أصلي', 'Genuine Cambodian oud oil']
      : kind?.value === 'bakhoor'
        ? ['بخور ومعمول فاخر', 'Premium bakhoor and ma’amoul incense']
        : d.r.pick<Pair>([
            ['عطر ديور سوفاج 100 مل', 'Dior Sauvage 100 ml'],
            ['عطر شانيل كوكو مادموزيل', 'Chanel Coco Mademoiselle'],
            ['عطر لطافة عربي', 'Lattafa Arabian perfume'],
          ]);
  return {
    title: item,
    lines: [
      ['أصلي 100% ومضمون.', '100% genuine, guaranteed.'],
      ['يوجد توصيل.', 'Delivery available.'],
    ],
    price: { lo: 80, hi: 1500 },
  };
}

// ───────────────────────── jobs ─────────────────────────

const ROLES: Record<string, readonly [Pair, string][]> = {
  'sales-jobs': [
    [['مندوب مبيعات لشركة مواد غذائية', 'sales representative for a food distributor'], 'sales'],
    [['موظفة مبيعات في محل ملابس', 'sales assistant for a clothing shop'], 'sales'],
  ],
  'it-jobs': [
    [['مبرمج تطبيقات ويب (React / Node.js)', 'web developer (React / Node.js)'], 'it'],
    [['فني شبكات وصيانة حواسيب', 'network and IT support technician'], 'it'],
  ],
  'engineering-jobs': [
    [['مهندس مدني لمشروع سكني', 'civil engineer for a housing project'], 'engineering'],
    [['مهندس كهرباء لشركة مقاولات', 'electrical engineer for a contractor'], 'engineering'],
  ],
  'teaching-jobs': [
    [['معلم لغة إنجليزية لمدرسة خاصة', 'English teacher for a private school'], 'teaching'],
    [['معلمة رياض أطفال', 'kindergarten teacher'], 'teaching'],
  ],
  'medical-jobs': [
    [['ممرضة لمصحة خاصة', 'nurse for a private clinic'], 'medical'],
    [['صيدلي لصيدلية', 'pharmacist'], 'medical'],
  ],
  'driver-jobs': [
    [['سائق بسيارة الشركة', 'driver (company car)'], 'driving'],
    [['سائق شاحنة نقل ثقيل', 'heavy truck driver'], 'driving'],
  ],
  'admin-jobs': [
    [['سكرتيرة تجيد الإنجليزية', 'secretary with good English'], 'admin'],
    [['موظف استقبال', 'receptionist'], 'admin'],
  ],
  'accounting-jobs': [
    [['محاسب خبرة في الأنظمة المحاسبية', 'accountant experienced with accounting software'], 'accounting'],
  ],
  'hospitality-jobs': [
    [['شيف مشويات لمطعم', 'grill chef for a restaurant'], 'hospitality'],
    [['باريستا لمقهى', 'barista for a café'], 'hospitality'],
  ],
  'crafts-jobs': [
    [['فني لحام وحدادة', 'welder and blacksmith'], 'crafts'],
    [['كهربائي مباني', 'building electrician'], 'crafts'],
  ],
  'other-jobs': [[['حارس أمن لشركة', 'security guard'], 'other']],
};
/** People looking for work, by the job field they name. */
const SEEKERS: readonly [Pair, string][] = [
  [['مندوب مبيعات', 'sales representative'], 'sales'],
  [['مبرمج ويب', 'web developer'], 'it'],
  [['مهندس مدني', 'civil engineer'], 'engineering'],
  [['معلم لغة إنجليزية', 'English teacher'], 'teaching'],
  [['ممرض', 'nurse'], 'medical'],
  [['سائق برخصة نقل ثقيل', 'driver with a heavy-vehicle licence'], 'driving'],
  [['موظف إداري', 'office administrator'], 'admin'],
  [['محاسب', 'accountant'], 'accounting'],
  [['طباخ', 'cook'], 'hospitality'],
  [['فني كهرباء', 'electrician'], 'crafts'],
];

function job(d: Draft): Spec {
  const r = d.r;
  const seeker = d.category.slug === 'job-seekers';
  const [role, field] = seeker ? r.pick(SEEKERS) : r.pick(ROLES[d.category.slug] ?? ROLES['other-jobs']);
  d.opt('employment_type', w('full-time:7 part-time:2 contract:1'));
  const years = d.num('experience_years', 0, seeker ? 15 : 5);
  d.opt(
    'education',
    field === 'engineering' || field === 'medical' || field === 'it'
      ? ['bachelors']
      : ['secondary', 'diploma', 'bachelors'],
  );
  if (seeker) d.opt('job_field', [field]);
  else {
    d.opt('salary_period', ['monthly']);
    d.opt('work_location', field === 'it' ? ['remote', 'hybrid', 'on-site'] : ['on-site']);
  }
  const at = where(d);
  if (seeker) {
    return {
      title: [
        `${role[0]} يبحث عن عمل في ${d.place.city.name_ar}`,
        `Experienced ${role[1]} looking for work in ${d.place.city.name_en}`,
      ],
      lines: [
        [
          `خبرة ${years} سنوات، ملتزم وأجيد العمل ضمن فريق.`,
          `${years} years of experience; reliable and a good team player.`,
        ],
        ['السيرة الذاتية متوفرة عند الطلب.', 'CV available on request.'],
      ],
      price: { lo: 0, hi: 0, types: [['on-request', 1]] },
    };
  }
  return {
    title: [`مطلوب ${role[0]} في ${at[0]}`, `Hiring: ${role[1]} in ${at[1]}`],
    lines: [
      [`الخبرة المطلوبة ${years} سنوات على الأقل.`, `At least ${years} years of experience required.`],
      r.pick<Pair>([
        ['راتب مجزي وتأمين صحي.', 'Good salary and health insurance.'],
        ['الدوام من الأحد إلى الخميس.', 'Working days Sunday to Thursday.'],
        ['الأولوية لسكان المنطقة.', 'Locals preferred.'],
      ]),
      ['ترسل السيرة الذاتية عبر الرسائل.', 'Send your CV through the messages.'],
    ],
    price: {
      lo: 1500,
      hi: 5000,
      types: w('fixed:1 on-request:2'),
    },
  };
}

// ───────────────────────── services ─────────────────────────

const HOME_SERVICES: Record<string, Pair> = {
  cleaning: ['شركة تنظيف منازل وشقق بعد التشطيب', 'Home and post-construction cleaning'],
  plumbing: ['سباك لجميع أعمال السباكة والصيانة', 'Plumber for all plumbing jobs and repairs'],
  electrical: ['كهربائي منازل، تمديدات وصيانة', 'Home electrician: wiring and repairs'],
  'ac-repair': ['فني تكييف: تركيب وصيانة وتعبئة غاز', 'A/C technician: fitting, servicing and regassing'],
  'appliance-repair': ['صيانة غسالات وثلاجات في المنزل', 'Washing machine and fridge repairs at home'],
  'painting-decoration': ['دهان وديكور جبس بورد', 'Painting and gypsum-board decoration'],
  'carpentry-aluminium': [
    'ألمنيوم وزجاج: تفصيل نوافذ وأبواب',
    'Aluminium and glass: windows and doors made to measure',
  ],
  moving: ['نقل عفش داخل وخارج المدينة مع الفك والتركيب', 'Furniture removals in and out of town, assembly included'],
  'construction-renovation': ['مقاول بناء وصيانة وترميم', 'Building contractor: construction and renovation'],
};
const CAR_SERVICES: Record<string, Pair> = {
  mechanic: ['ميكانيكي متنقل لجميع أنواع السيارات', 'Mobile mechanic for every make'],
  'auto-electrician': ['كهربائي سيارات وبرمجة كمبيوتر', 'Auto electrician and ECU diagnostics'],
  'body-paint': ['سمكرة ودهان بالفرن', 'Body work and oven paint'],
  'car-wash': ['غسيل وتلميع سيارات متنقل', 'Mobile car wash and detailing'],
  'tyre-service': ['ميزان وترصيص إطارات', 'Wheel alignment and balancing'],
  towing: ['سطحة لنقل السيارات 24 ساعة', '24-hour tow truck'],
  'car-rental': ['تأجير سيارات يومي وأسبوعي', 'Daily and weekly car hire'],
  'driving-lessons': ['تعليم قيادة للمبتدئين', 'Driving lessons for beginners'],
};
const EVENT_SERVICES: Record<string, Pair> = {
  'wedding-halls': ['صالة أفراح تتسع 500 شخص', 'Wedding hall for 500 guests'],
  catering: ['طباخ أعراس ومناسبات (كسكسي وبازين ومبكبكة)', 'Wedding and event catering (couscous, bazeen, mbakbaka)'],
  photography: ['تصوير أعراس ومناسبات فوتو وفيديو', 'Wedding photo and video'],
  decoration: ['تنسيق حفلات وكوشة أعراس', 'Party styling and wedding stage decoration'],
  'tents-equipment': ['خيام ومستلزمات مناسبات للإيجار', 'Event tents and equipment for hire'],
  'music-bands': ['فرقة زمزامات وزكرة للأعراس', 'Traditional zokra band for weddings'],
  'cakes-sweets': ['حلويات ليبية وكيك مناسبات حسب الطلب', 'Libyan sweets and event cakes to order'],
};
const BUSINESS_SERVICES: Record<string, Pair> = {
  accounting: ['مكتب محاسبة ومراجعة حسابات', 'Accounting and audit office'],
  legal: ['مكتب محاماة واستشارات قانونية', 'Law office and legal advice'],
  translation: ['ترجمة معتمدة إنجليزي وإيطالي وتركي', 'Certified translation: English, Italian, Turkish'],
  'printing-advertising': ['طباعة لوحات إعلانية وكروت شخصية', 'Signs and business-card printing'],
  'design-marketing': ['تصميم شعارات وإدارة صفحات التواصل', 'Logo design and social media management'],
  'it-web': ['تصميم مواقع وتطبيقات للشركات', 'Websites and apps for businesses'],
  'shipping-clearance': ['شحن من تركيا والصين وتخليص جمركي', 'Shipping from Turkey and China, customs clearance'],
};
const BEAUTY_SERVICES: Record<string, Pair> = {
  'womens-salon': ['صالون نسائي: شعر ومكياج وعرائس', 'Women’s salon: hair, make-up and brides'],
  barber: ['حلاق رجالي بالمنزل', 'Barber, home visits'],
  makeup: ['خبيرة مكياج للمناسبات', 'Event make-up artist'],
  henna: ['نقش حنة ليبي للعرائس', 'Libyan bridal henna'],
  'fitness-training': ['مدرب لياقة شخصي', 'Personal fitness trainer'],
  'home-nursing': ['تمريض منزلي ورعاية كبار السن', 'Home nursing and elderly care'],
};

function service(d: Draft): Spec {
  const r = d.r;
  const provider = d.opt('provider_type', w('individual:6 company:4'));
  const at = where(d);
  let title: Pair;
  const pick = (table: Record<string, Pair>) => {
    const o = d.opt('service_type', Object.keys(table));
    return table[o?.value ?? ''] ?? Object.values(table)[0];
  };
  switch (d.category.slug) {
    case 'car-services':
      title = pick(CAR_SERVICES);
      break;
    case 'events-services':
      title = pick(EVENT_SERVICES);
      break;
    case 'business-services':
      title = pick(BUSINESS_SERVICES);
      break;
    case 'health-beauty-services':
      title = pick(BEAUTY_SERVICES);
      break;
    default:
      title = HOME_SERVICES[d.category.slug] ?? [d.category.name_ar, d.category.name_en];
  }
  return {
    title: [`${title[0]} – ${d.place.city.name_ar}`, `${title[1]} – ${d.place.city.name_en}`],
    lines: [
      provider?.value === 'company'
        ? ['شركة مرخصة بفريق عمل متكامل.', 'Licensed company with a full team.']
        : ['خبرة أكثر من 10 سنوات.', 'More than ten years of experience.'],
      [`نغطي ${at[0]} وما حولها.`, `We cover ${at[1]} and the surrounding area.`],
      r.pick<Pair>([
        ['أسعار مناسبة وشغل مضمون.', 'Fair prices, guaranteed work.'],
        ['معاينة مجانية قبل البدء.', 'Free inspection before we start.'],
        ['نعمل أيام الجمعة والعطل.', 'We work Fridays and holidays.'],
      ]),
    ],
    price: {
      lo: 50,
      hi: 600,
      types: w('on-request:6 fixed:3 negotiable:1'),
    },
  };
}

const STAGES: Record<string, string> = {
  primary: 'للمرحلة الابتدائية',
  preparatory: 'للمرحلة الإعدادية',
  secondary: 'للمرحلة الثانوية',
  university: 'لطلبة الجامعة',
};

function lessons(d: Draft): Spec {
  d.opt('provider_type', w('individual:8 company:2'));
  const mode = d.opt('lesson_mode');
  const level = d.opt('study_level', ['secondary', 'preparatory', 'primary', 'university']);
  const subject: Pair =
    d.category.slug === 'tutoring'
      ? d.r.pick<Pair>([
          ['رياضيات', 'maths'],
          ['فيزياء', 'physics'],
          ['لغة إنجليزية', 'English'],
          ['كيمياء', 'chemistry'],
        ])
      : d.category.slug === 'language-courses'
        ? d.r.pick<Pair>([
            ['دورة لغة إنجليزية للمحادثة', 'Conversational English course'],
            ['دورة لغة تركية للمبتدئين', 'Turkish for beginners'],
            ['دورة لغة إيطالية', 'Italian course'],
          ])
        : d.category.slug === 'quran-teaching'
          ? ['تحفيظ القرآن الكريم والتجويد للأطفال', 'Quran memorisation and tajweed for children']
          : d.r.pick<Pair>([
              ['دورة ICDL للحاسوب', 'ICDL computer course'],
              ['دورة محاسبة عملية', 'Practical accounting course'],
              ['دورة تصميم جرافيك', 'Graphic design course'],
            ]);
  const title: Pair =
    d.category.slug === 'tutoring'
      ? [
          `مدرس ${subject[0]} ${STAGES[level?.value ?? 'secondary'] ?? ''}`,
          `${subject[1]} tutor – ${lower(level?.en ?? 'secondary')} level`,
        ]
      : subject;
  return {
    title,
    lines: [
      [
        `الدروس ${mode?.ar ?? 'حضوري'}، مجموعات صغيرة أو خصوصي.`,
        `${mode?.en ?? 'In person'}; small groups or one-to-one.`,
      ],
      ['نتائج ممتازة في امتحانات الشهادة.', 'Excellent results in the national exams.'],
    ],
    price: {
      lo: 30,
      hi: 400,
      types: w('fixed:5 negotiable:2 on-request:3'),
    },
  };
}

// ───────────────────────── hobbies & pets ─────────────────────────

function pet(d: Draft): Spec {
  const cat = d.category.slug === 'cats';
  const breed = d.opt(
    'breed',
    cat
      ? ['persian', 'himalayan', 'scottish-fold', 'british-shorthair', 'mixed']
      : ['german-shepherd', 'malinois', 'husky', 'golden-retriever', 'pomeranian', 'saluki'],
  );
  const sex = d.opt('animal_sex');
  const months = d.num('age_months', 2, 30);
  const vaccinated = d.flag('vaccinated', 0.7);
  const pair = sex?.value === 'pair';
  const young = months <= 12;
  const noun: Pair = cat
    ? [
        pair ? 'زوج قطط' : sex?.value === 'female' ? 'قطة' : 'قط',
        `${pair ? 'pair of ' : ''}${young ? 'kitten' : 'cat'}${pair ? 's' : ''}`,
      ]
    : [
        pair ? 'زوج كلاب' : young ? 'جرو' : sex?.value === 'female' ? 'كلبة' : 'كلب',
        `${pair ? 'pair of ' : ''}${young ? 'pupp' : 'dog'}${pair ? (young ? 'ies' : 's') : young ? 'y' : ''}`,
      ];
  return {
    title: [
      `${noun[0]} ${breed?.ar ?? ''}${pair ? '' : ` ${sex?.ar ?? ''}`} عمر ${months} شهر`,
      `${breed?.en ?? ''} ${noun[1]}${pair ? '' : `, ${lower(sex?.en ?? '')}`}, ${months} months`,
    ],
    lines: [
      [
        `${vaccinated ? 'مطعم بالكامل مع كتيب التطعيمات' : 'بصحة ممتازة'}، متعود على البيت.`,
        `${vaccinated ? 'Fully vaccinated with its card' : 'In excellent health'}; house-trained.`,
      ],
      ['يسلم لشخص يهتم به فقط.', 'Only to a caring home.'],
    ],
    price: {
      lo: cat ? 150 : 500,
      hi: cat ? 900 : 3500,
      types: w('fixed:5 negotiable:4 free:1'),
    },
  };
}

function bird(d: Draft): Spec {
  const kind = d.opt('bird_type', [
    'canary',
    'budgie',
    'lovebirds',
    'pigeons',
    'goldfinch',
    'parrot',
    'falcon',
    'chickens',
  ]);
  const pair = d.opt('animal_sex', ['pair', 'male'])?.value === 'pair';
  return {
    title: [
      `${kind?.ar ?? 'طيور'} للبيع${pair ? ' (زوج)' : ''}`,
      `${kind?.en ?? 'Birds'} for sale${pair ? ' – a pair' : ''}`,
    ],
    lines: [
      ['بصحة ممتازة ومنتجة.', 'Healthy breeders.'],
      ['مع القفص إن رغبت.', 'Cage available if you want it.'],
    ],
    price: { lo: 30, hi: kind?.value === 'falcon' ? 9000 : 800 },
  };
}

function livestock(d: Draft): Spec {
  const kind = d.opt('livestock_type', w('sheep:6 goats:2 camels:1 cattle:1 horses:1'));
  const heads = d.num('head_count', 1, kind?.value === 'sheep' || kind?.value === 'goats' ? 30 : 5);
  d.opt('animal_sex');
  d.num('age_months', 6, 48);
  const eid = kind?.value === 'sheep';
  const per =
    kind?.value === 'camels' ? 9000 : kind?.value === 'horses' ? 12000 : kind?.value === 'cattle' ? 7000 : 1600;
  return {
    title: eid
      ? [`خرفان علوش للعيد – العدد ${heads}`, `Sheep for Eid – ${heads} head`]
      : [`${kind?.ar ?? ''} للبيع – العدد ${heads}`, `${kind?.en ?? ''} for sale – ${heads} head`],
    lines: [
      ['السعر للرأس الواحد.', 'Price per head.'],
      ['تربية بلدية على الشعير والعلف الطبيعي.', 'Locally raised on barley and natural feed.'],
      ['المعاينة في المزرعة.', 'Viewing at the farm.'],
    ],
    price: { lo: per * 0.85, hi: per * 1.2 },
  };
}

const HOBBY_ITEMS: Record<string, readonly Pair[]> = {
  'fish-aquariums': [['حوض سمك 120 لتر مع الفلتر والإضاءة', '120-litre aquarium with filter and lights']],
  'pet-supplies': [
    ['قفص كبير للطيور', 'Large bird cage'],
    ['أكل قطط رويال كانين 10 كيلو', 'Royal Canin cat food, 10 kg'],
  ],
  'fishing-gear': [
    ['قصبة صيد شيمانو مع المكينة', 'Shimano fishing rod and reel'],
    ['شباك صيد جديدة', 'New fishing nets'],
  ],
  camping: [
    ['خيمة رحلات 6 أشخاص', 'Six-person camping tent'],
    ['عدة رحلات الصحراء كاملة', 'Complete desert-trip kit'],
  ],
  collectibles: [
    ['عملات ليبية قديمة من العهد الملكي', 'Old Libyan coins from the kingdom era'],
    ['طوابع بريد ليبية نادرة', 'Rare Libyan postage stamps'],
    ['فخار غدامسي تقليدي', 'Traditional Ghadames pottery'],
  ],
};
function hobby(d: Draft): Spec {
  const r = d.r;
  if (d.has('condition')) condition(d, 0.5);
  switch (d.category.slug) {
    case 'sports-equipment': {
      const sport = d.opt('sport', ['gym-fitness', 'football', 'racket-sports', 'swimming-diving']);
      const item: Pair =
        sport?.value === 'gym-fitness'
          ? r.pick<Pair>([
              ['جهاز مشي كهربائي', 'Electric treadmill'],
              ['دمبلز وأوزان 50 كيلو', 'Dumbbells and weights, 50 kg'],
            ])
          : sport?.value === 'football'
            ? ['حذاء كرة قدم وكرة أديداس', 'Football boots and an Adidas ball']
            : sport?.value === 'racket-sports'
              ? ['مضارب بادل مع الكور', 'Padel rackets with balls']
              : ['عدة غوص كاملة', 'Complete diving kit'];
      return { title: item, lines: [conditionLine(d)], price: { lo: 80, hi: 3500 } };
    }
    case 'bicycles': {
      const kind = d.opt('bike_type', ['mountain', 'road', 'hybrid-city', 'kids-bike', 'electric']);
      const wheel = d.opt('wheel_size', kind?.value === 'kids-bike' ? ['16', '20'] : ['26', '27-5', '28-29']);
      return {
        title: [
          `دراجة هوائية ${kind?.ar ?? ''} مقاس ${wheel?.ar ?? ''}`,
          `${kind?.en ?? ''} bicycle, ${wheel?.en ?? ''} wheels`,
        ],
        lines: [conditionLine(d), ['الفرامل والقير بحالة ممتازة.', 'Brakes and gears in perfect order.']],
        price: { lo: 150, hi: kind?.value === 'electric' ? 3500 : 1500 },
      };
    }
    case 'books': {
      const cat = d.opt('book_category');
      d.opt('language', ['arabic', 'arabic', 'english']);
      return {
        title: [`مجموعة ${cat?.ar ?? 'كتب'}`, `${cat?.en ?? 'Books'} – a collection`],
        lines: [conditionLine(d), ['حوالي 30 كتاب بحالة جيدة.', 'About thirty books in good condition.']],
        price: {
          lo: 30,
          hi: 400,
          types: w('fixed:5 negotiable:3 free:1'),
        },
      };
    }
    case 'musical-instruments': {
      const kind = d.opt('instrument_type', ['oud', 'guitar', 'keyboard-piano', 'drums-percussion', 'violin']);
      const item: Pair =
        kind?.value === 'oud'
          ? ['عود عربي صناعة سورية مع الشنطة', 'Syrian-made oud with case']
          : kind?.value === 'keyboard-piano'
            ? ['أورغ ياماها PSR', 'Yamaha PSR keyboard']
            : kind?.value === 'guitar'
              ? ['جيتار كلاسيك مع الحقيبة', 'Classical guitar with gig bag']
              : kind?.value === 'violin'
                ? ['كمان مع القوس والحقيبة', 'Violin with bow and case']
                : ['دربوكة وطبلة', 'Darbuka and drum'];
      return {
        title: item,
        lines: [conditionLine(d), ['الصوت ممتاز.', 'Sounds great.']],
        price: { lo: 250, hi: 4500 },
      };
    }
    default: {
      if (d.category.slug === 'collectibles') d.opt('collectible_type', ['coins', 'stamps', 'handicrafts', 'antiques']);
      const item = r.pick(HOBBY_ITEMS[d.category.slug] ?? HOBBY_ITEMS.camping);
      return {
        title: item,
        lines: [d.has('condition') ? conditionLine(d) : ['قطع مميزة لهواة الجمع.', 'Special pieces for collectors.']],
        price: { lo: 40, hi: 2000 },
      };
    }
  }
}

// ───────────────────────── dispatch ─────────────────────────

type Generator = (d: Draft) => Spec;

const BY_SLUG: Record<string, Generator> = {
  motorcycles: motorcycle,
  trucks: truck,
  buses: bus,
  'heavy-equipment': heavyEquipment,
  'car-parts': carPart,
  'tyres-rims': tyres,
  'car-accessories': carAccessory,
  'motorcycle-parts': bikePart,
  boats: boat,
  'apartments-for-sale': (d) => residential(d, 'apartment', false),
  'villas-for-sale': (d) => residential(d, 'villa', false),
  'houses-for-sale': (d) => residential(d, 'house', false),
  'land-for-sale': land,
  'farms-for-sale': farm,
  'commercial-for-sale': (d) => commercial(d, false),
  'apartments-for-rent': (d) => residential(d, 'apartment', true),
  'villas-for-rent': (d) => residential(d, 'villa', true),
  'houses-for-rent': (d) => residential(d, 'house', true),
  'chalets-for-rent': chalet,
  'rooms-for-rent': room,
  'commercial-for-rent': (d) => commercial(d, true),
  iphone: (d) => phone(d, null, null, 7500),
  'samsung-phones': (d) => phone(d, null, null, 6500),
  'xiaomi-phones': (d) =>
    phone(d, ['شاومي', 'Xiaomi'], ['Redmi Note 13 Pro', '14 Ultra', 'Poco X6 Pro', 'Redmi 13C'], 3200),
  'huawei-phones': (d) => phone(d, ['هواوي', 'Huawei'], ['Nova 12', 'P60 Pro', 'Mate 50', 'Y9a'], 4000),
  'oppo-phones': (d) => phone(d, ['أوبو', 'Oppo'], ['Reno 11', 'A78', 'Find X6'], 3000),
  'other-phones': (d) => phone(d, null, null, 2500),
  tablets: tablet,
  laptops: laptop,
  desktops: desktop,
  'computer-accessories': computerAccessory,
  'tv-audio': tvAudio,
  cameras: camera,
  consoles: videoGames,
  games: videoGames,
  'gaming-accessories': videoGames,
  'phone-accessories': phoneAccessory,
  'generators-solar': power,
  kitchenware: homeItem,
  'home-decor': homeItem,
  'carpets-curtains': homeItem,
  'garden-outdoor': homeItem,
  'mens-clothing': clothing,
  'womens-clothing': clothing,
  'traditional-clothing': clothing,
  'kids-clothing': kidsClothes,
  watches: watch,
  jewellery,
  bags: bag,
  perfumes: perfume,
  cats: pet,
  dogs: pet,
  birds: bird,
  livestock,
};
const BY_PARENT: Record<string, Generator> = {
  cars: car,
  furniture,
  'home-appliances': appliance,
  shoes,
  'job-vacancies': job,
  'education-training': lessons,
};
const BY_TAXONOMY: Record<string, Generator> = { jobs: job, services: service, 'hobbies-pets': hobby };

const CLOSING: Record<string, Pair[]> = {
  motors: motorsClosing,
  property: propertyClosing,
  electronics: electronicsClosing,
  'home-garden': [
    ['التوصيل متوفر داخل المدينة بسعر رمزي.', 'Delivery within the city for a small fee.'],
    ['المعاينة في البيت.', 'Viewing at my home.'],
  ],
  fashion: [
    ['التوصيل لجميع المدن الليبية.', 'Delivery to every Libyan city.'],
    ['التبديل خلال 3 أيام.', 'Exchanges within three days.'],
  ],
  jobs: [['لا يشترط السكن في نفس المدينة.', 'You need not live in the same town.']],
  services: [['للحجز والاستفسار تواصل معنا.', 'Get in touch to book or ask anything.']],
  'hobbies-pets': [['للجادين فقط.', 'Serious enquiries only.']],
};
const CONTACT: Pair[] = [
  ['التواصل عبر الهاتف أو الواتساب.', 'Call or WhatsApp.'],
  ['يفضل التواصل بالرسائل.', 'Messages preferred.'],
  ['الرد من الساعة 9 صباحاً حتى 10 مساءً.', 'I answer from 9 am to 10 pm.'],
];

// ───────────────────────── the long tail of words ─────────────────────────
//
// Templates alone give a few thousand distinct words, each in many ads. Real ads also carry words
// few others use: street and family names, landmarks, model and part numbers. These come from two
// large generated vocabularies drawn with a Zipf–Mandelbrot law (the k-th word about as often as
// 1/(k + q)): a few names turn up in many ads, most in one or two.

/** Arabic consonants and how a Libyan would write them in Latin letters. */
const CONSONANTS: Pair[] = [
  ['ب', 'b'],
  ['ت', 't'],
  ['ج', 'j'],
  ['ح', 'h'],
  ['خ', 'kh'],
  ['د', 'd'],
  ['ر', 'r'],
  ['ز', 'z'],
  ['س', 's'],
  ['ش', 'sh'],
  ['ص', 's'],
  ['ط', 't'],
  ['غ', 'gh'],
  ['ف', 'f'],
  ['ق', 'g'],
  ['ك', 'k'],
  ['ل', 'l'],
  ['م', 'm'],
  ['ن', 'n'],
  ['و', 'w'],
];
/** Family-name shapes (nisba): the three consonants in Arabic, and in Latin with their vowels. */
const NAME_SHAPES: ((a: Pair, b: Pair, c: Pair) => Pair)[] = [
  (a, b, c) => [`ال${a[0]}${b[0]}ا${c[0]}ي`, `${a[1]}a${b[1]}a${c[1]}i`],
  (a, b, c) => [`ال${a[0]}ا${b[0]}${c[0]}ي`, `${a[1]}a${b[1]}${c[1]}i`],
  (a, b, c) => [`ال${a[0]}${b[0]}${c[0]}ي`, `${a[1]}a${b[1]}${c[1]}i`],
  (a, b, c) => [`ال${a[0]}${b[0]}و${c[0]}ي`, `${a[1]}i${b[1]}u${c[1]}i`],
  (a, b, c) => [`ال${a[0]}${b[0]}ي${c[0]}ي`, `${a[1]}a${b[1]}i${c[1]}i`],
];
export const TAIL_NAMES = NAME_SHAPES.length * CONSONANTS.length ** 3;
export const TAIL_CODES = 26 * 26 * 9000;
const NAME_Q = 8;
const CODE_Q = 20;

/** A rank in [0, n) drawn with P(k) ∝ 1/(k + q): log-uniform over [q, n + q). */
export function zipfRank(r: Rng, n: number, q: number): number {
  return Math.min(n - 1, Math.floor(q * ((n + q) / q) ** r.next() - q));
}

/** The family name of a rank, in Arabic and in Latin letters ("الزرامي", "Al-Zarami"). */
export function tailName(rank: number): Pair {
  // A multiplicative hash (a prime, exact in doubles for these ranks) spreads neighbouring ranks
  // over the shapes and letters.
  let i = ((rank + 7919) * 2_654_435_761) % TAIL_NAMES;
  const k = CONSONANTS.length;
  const c = CONSONANTS[i % k];
  i = Math.floor(i / k);
  const b = CONSONANTS[i % k];
  i = Math.floor(i / k);
  const a = CONSONANTS[i % k];
  const [ar, en] = NAME_SHAPES[Math.floor(i / k)](a, b, c);
  return [ar, `Al-${en[0].toUpperCase()}${en.slice(1)}`];
}

/** A model or part number of a rank ("KX4821"). */
export function tailCode(rank: number): string {
  const i = ((rank + 7919) * 1_000_000_007) % TAIL_CODES;
  const letter = (n: number) => String.fromCharCode(65 + (n % 26));
  return `${letter(i)}${letter(Math.floor(i / 26))}${1000 + Math.floor(i / 676)}`;
}

const LANDMARKS: Pair[] = [
  ['جامع', 'mosque'],
  ['مدرسة', 'school'],
  ['مخبز', 'bakery'],
  ['صيدلية', 'pharmacy'],
  ['مصحة', 'clinic'],
  ['محطة وقود', 'petrol station'],
  ['سوق', 'market'],
];
const WITH_CODES = new Set(['motors', 'electronics', 'home-garden']);
const NOT_FOR_SALE = new Set(['jobs', 'services']);
const FIRST_NAMES: Pair[] = [
  ['محمد', 'Mohamed'],
  ['أحمد', 'Ahmed'],
  ['علي', 'Ali'],
  ['عمر', 'Omar'],
  ['سالم', 'Salem'],
  ['خالد', 'Khaled'],
  ['مصطفى', 'Mustafa'],
  ['عبد الله', 'Abdullah'],
  ['إبراهيم', 'Ibrahim'],
  ['يوسف', 'Yousef'],
  ['حسين', 'Hussein'],
  ['فرج', 'Faraj'],
];

/** Lines with rare words: where exactly (street, landmark), a model number, who to ask for. */
function tailLines(r: Rng, category: ContentCategory, at: Pair): Pair[] {
  const lines: Pair[] = [];
  const name = () => tailName(zipfRank(r, TAIL_NAMES, NAME_Q));
  if (r.chance(0.45)) {
    const street = name();
    lines.push([`المكان: ${at[0]}، شارع ${street[0]}.`, `Location: ${at[1]}, ${street[1]} Street.`]);
  } else lines.push([`المكان: ${at[0]}.`, `Location: ${at[1]}.`]);
  if (r.chance(0.3)) {
    const [ar, en] = r.pick(LANDMARKS);
    const near = name();
    lines.push([`قريب من ${ar} ${near[0]}.`, `Near the ${near[1]} ${en}.`]);
  }
  if (WITH_CODES.has(category.taxonomySlug) && r.chance(0.3)) {
    const code = tailCode(zipfRank(r, TAIL_CODES, CODE_Q));
    lines.push([`رقم الموديل ${code}.`, `Model number ${code}.`]);
  }
  if (r.chance(0.15)) {
    const first = r.pick(FIRST_NAMES);
    const family = name();
    lines.push([`اسأل عن ${first[0]} ${family[0]}.`, `Ask for ${first[1]} ${family[1]}.`]);
  }
  return lines;
}

/**
 * Words for search benchmarks, from this generator's vocabulary (as a user would type them):
 * `rare` in a handful of ads per million (family names far down the tail), `common` in a large
 * share of all ads, `prefix` the start of words in many ads (matched as prefixes).
 */
export const BENCH_TERMS = {
  rare: [tailName(3_000)[0], tailName(9_000)[0], tailName(25_000)[1], tailCode(500)],
  common: ['للبيع', 'سيارة', 'شقة', 'جديد', 'location'],
  prefix: ['تويو', 'سيا', 'iph', 'مستع', 'apa'],
} as const;

/** Rounds a price the way people write them (45,000 rather than 44,817). */
export function roundPrice(n: number): number {
  if (n <= 0) return 0;
  const step = n < 100 ? 5 : n < 1000 ? 10 : n < 10_000 ? 50 : n < 100_000 ? 500 : n < 1_000_000 ? 5000 : 50_000;
  return Math.max(step, Math.round(n / step) * step);
}

/** The title, description, price and attribute values of one demo ad in a leaf category. */
export function writeAd(r: Rng, category: ContentCategory, place: ContentPlace): AdContent {
  const d = new Draft(r, category, place);
  const gen =
    BY_SLUG[category.slug] ??
    (category.parentSlug ? BY_PARENT[category.parentSlug] : undefined) ??
    BY_TAXONOMY[category.taxonomySlug] ??
    hobby;
  const spec = gen(d);
  d.fillRest();
  const lang: Lang = r.chance(0.62) ? 'ar' : 'en';
  const i = lang === 'ar' ? 0 : 1;
  const closing = CLOSING[category.taxonomySlug] ?? [];
  const body = [...spec.lines, ...r.some(closing, r.int(1, 2)), ...tailLines(r, category, where(d)), r.pick(CONTACT)]
    .map((p) => p[i])
    .filter((s) => s.trim().length > 0);
  const description = body.join('\n');
  const types = spec.price.types ?? w('fixed:5 negotiable:5');
  const price_type = r.weighted(types);
  const priced = price_type === 'fixed' || price_type === 'negotiable';
  let amount = priced ? roundPrice(spec.price.lo + r.next() * Math.max(0, spec.price.hi - spec.price.lo)) : null;
  let currency: 'LYD' | 'USD' = 'LYD';
  if (amount !== null && amount > 20_000 && r.chance(0.05)) {
    currency = 'USD';
    amount = roundPrice(amount / 6.5);
  }
  // Many sellers start the title with "for sale" (the commonest words of all).
  const forSale =
    !NOT_FOR_SALE.has(category.taxonomySlug) &&
    !category.slug.includes('for-rent') &&
    !spec.title[1].includes('for sale') &&
    r.chance(0.3);
  const title = (forSale ? (lang === 'ar' ? `للبيع ${spec.title[0]}` : `For sale: ${spec.title[1]}`) : spec.title[i])
    .replace(/\s+/g, ' ')
    .replace(/\s+([,،.])/g, '$1')
    .trim();
  return {
    lang,
    title: title.length >= 5 ? title.slice(0, 150) : `${category[lang === 'ar' ? 'name_ar' : 'name_en']} – ${title}`,
    description: description.slice(0, 5000),
    price_type,
    price: amount,
    currency,
    attrs: d.attrs,
  };
}
