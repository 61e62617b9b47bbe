// Photos of the demo ads: simple drawings (a gradient in the category's colour, a motif of the
// taxonomy — a car, a house, a phone… — and a few shapes that move from photo to photo), rendered
// by sharp and then processed and stored exactly like a member's upload (processImage with
// AD_PHOTO_VARIANTS, `ads/<yyyy>/<mm>/<random>-<variant>.webp` in the storage), so pages show real
// WebP variants. No text is drawn: the machine may have no fonts.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { AD_PHOTO_VARIANTS, processImage } from '../../media/images.ts';
import type { MediaStorage } from '../../media/storage.ts';
import type { Rng } from './ad-content.ts';

/** 640 × 480 (or 480 × 640): the large and medium variants are then the source size, which keeps seeding quick. */
const LONG_SIDE = 640;
const SHORT_SIDE = 480;

export interface StoredPhoto {
  key: string;
  width: number;
  height: number;
  variants: { name: string; width: number; height: number }[];
}

/** A stable hue per category slug, so a category's photos share a colour. */
export function categoryHue(slug: string): number {
  let h = 2166136261;
  for (let i = 0; i < slug.length; i++) h = Math.imul(h ^ slug.charCodeAt(i), 16777619);
  return (h >>> 0) % 360;
}

const MOTIFS: Record<string, (c: string) => string> = {
  motors: (c) => `
    <path d="M120 360 L190 270 Q210 245 250 245 L520 245 Q560 245 590 275 L660 350 L700 360 Q730 365 730 395 L730 430 L90 430 L90 390 Q90 365 120 360 Z" fill="${c}"/>
    <path d="M230 270 L505 270 L575 350 L175 350 Z" fill="rgba(255,255,255,0.55)"/>
    <rect x="380" y="270" width="10" height="80" fill="${c}"/>
    <circle cx="225" cy="435" r="55" fill="#222"/><circle cx="225" cy="435" r="24" fill="#bbb"/>
    <circle cx="585" cy="435" r="55" fill="#222"/><circle cx="585" cy="435" r="24" fill="#bbb"/>`,
  property: (c) => `
    <rect x="220" y="250" width="360" height="230" fill="${c}"/>
    <polygon points="190,260 400,120 610,260" fill="rgba(0,0,0,0.35)"/>
    <rect x="370" y="370" width="70" height="110" fill="rgba(255,255,255,0.7)"/>
    <rect x="260" y="300" width="70" height="60" fill="rgba(255,255,255,0.8)"/>
    <rect x="480" y="300" width="70" height="60" fill="rgba(255,255,255,0.8)"/>`,
  electronics: (c) => `
    <rect x="300" y="110" width="200" height="380" rx="30" fill="#1d1d1f"/>
    <rect x="315" y="140" width="170" height="320" rx="12" fill="${c}"/>
    <circle cx="400" cy="125" r="6" fill="#555"/>
    <circle cx="360" cy="240" r="40" fill="rgba(255,255,255,0.45)"/>
    <rect x="340" y="330" width="120" height="16" rx="8" fill="rgba(255,255,255,0.6)"/>`,
  'home-garden': (c) => `
    <rect x="160" y="300" width="480" height="120" rx="30" fill="${c}"/>
    <rect x="190" y="230" width="420" height="100" rx="30" fill="rgba(0,0,0,0.2)"/>
    <rect x="130" y="280" width="70" height="150" rx="30" fill="${c}"/>
    <rect x="600" y="280" width="70" height="150" rx="30" fill="${c}"/>
    <rect x="190" y="420" width="20" height="50" fill="#333"/><rect x="590" y="420" width="20" height="50" fill="#333"/>`,
  fashion: (c) => `
    <path d="M330 140 Q400 190 470 140 L590 200 L550 290 L500 265 L500 480 L300 480 L300 265 L250 290 L210 200 Z" fill="${c}"/>
    <path d="M330 140 Q400 210 470 140" stroke="rgba(255,255,255,0.7)" stroke-width="10" fill="none"/>`,
  jobs: (c) => `
    <rect x="220" y="220" width="360" height="240" rx="24" fill="${c}"/>
    <rect x="340" y="170" width="120" height="60" rx="14" fill="none" stroke="${c}" stroke-width="22"/>
    <rect x="220" y="310" width="360" height="18" fill="rgba(0,0,0,0.25)"/>
    <rect x="380" y="300" width="40" height="40" rx="6" fill="rgba(255,255,255,0.8)"/>`,
  services: (c) => `
    <circle cx="400" cy="300" r="120" fill="${c}"/>
    ${Array.from({ length: 8 }, (_, i) => `<rect x="375" y="150" width="50" height="60" rx="8" fill="${c}" transform="rotate(${i * 45} 400 300)"/>`).join('')}
    <circle cx="400" cy="300" r="50" fill="rgba(255,255,255,0.75)"/>`,
  'hobbies-pets': (c) => `
    <ellipse cx="400" cy="370" rx="110" ry="90" fill="${c}"/>
    <ellipse cx="290" cy="250" rx="42" ry="55" fill="${c}"/><ellipse cx="360" cy="195" rx="42" ry="55" fill="${c}"/>
    <ellipse cx="440" cy="195" rx="42" ry="55" fill="${c}"/><ellipse cx="510" cy="250" rx="42" ry="55" fill="${c}"/>`,
};

/** The drawing of one photo of an ad, as SVG. */
export function demoPhotoSvg(r: Rng, taxonomySlug: string, hue: number, portrait: boolean): string {
  const w = portrait ? SHORT_SIDE : LONG_SIDE;
  const h = portrait ? LONG_SIDE : SHORT_SIDE;
  const light = `hsl(${hue},65%,${r.int(72, 82)}%)`;
  const dark = `hsl(${(hue + r.int(20, 50)) % 360},55%,${r.int(30, 42)}%)`;
  const ink = `hsl(${(hue + 180) % 360},45%,${r.int(35, 50)}%)`;
  const angle = r.int(0, 359);
  const bubbles = Array.from({ length: r.int(3, 7) }, () => {
    const op = (0.08 + r.next() * 0.2).toFixed(2);
    return `<circle cx="${r.int(0, w)}" cy="${r.int(0, h)}" r="${r.int(30, 180)}" fill="rgba(255,255,255,${op})"/>`;
  }).join('');
  const motif = (MOTIFS[taxonomySlug] ?? MOTIFS.services)(ink);
  // The motif is drawn on an 800 × 600 canvas; each photo shows it at its own size and place.
  // Portrait photos (phones, clothes) show their narrow motif larger.
  const scale = (portrait ? 0.85 : Math.min(w / 800, h / 600)) * (0.75 + r.next() * 0.35);
  const dx = (w - 800 * scale) / 2 + r.int(-w, w) * 0.06;
  const dy = (h - 600 * scale) / 2 + r.int(-h, h) * 0.05;
  const tilt = r.int(-8, 8);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs><linearGradient id="g" gradientTransform="rotate(${angle} 0.5 0.5)">
    <stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>
  <rect width="${w}" height="${h}" fill="url(#g)"/>
  ${bubbles}
  <rect y="${Math.round(h * 0.78)}" width="${w}" height="${Math.round(h * 0.22)}" fill="rgba(0,0,0,0.12)"/>
  <g transform="translate(${dx.toFixed(1)} ${dy.toFixed(1)}) scale(${scale.toFixed(3)}) rotate(${tilt} 400 300)">${motif}</g>
</svg>`;
}

/** The drawing as a PNG, the kind of file a member might upload. */
export async function demoPhotoBytes(r: Rng, taxonomySlug: string, hue: number, portrait = false): Promise<Buffer> {
  return sharp(Buffer.from(demoPhotoSvg(r, taxonomySlug, hue, portrait)))
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * Processes and stores one photo the way an upload is (server/domain/ad-images.ts); `key` names
 * the files (`<key>-<variant>.webp`), a fresh random one under `ads/<yyyy>/<mm>/` by default.
 */
export async function storeDemoPhoto(
  storage: MediaStorage,
  bytes: Buffer,
  now: Date,
  key?: string,
): Promise<StoredPhoto> {
  const processed = await processImage(bytes, { variants: AD_PHOTO_VARIANTS });
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const prefix = key ?? `ads/${now.getUTCFullYear()}/${month}/${randomBytes(16).toString('hex')}`;
  await Promise.all(processed.variants.map((v) => storage.put(`${prefix}-${v.name}.webp`, v.bytes, v.contentType)));
  const variants = processed.variants.map((v) => ({ name: v.name, width: v.width, height: v.height }));
  const large = variants.find((v) => v.name === 'large') ?? variants[0];
  return { key: prefix, width: large.width, height: large.height, variants };
}
