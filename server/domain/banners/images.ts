// Banner images: each upload checked by its content and re-encoded by the image pipeline
// (server/media/images.ts: sniffed type, size and pixel limits, metadata stripped, WebP variants
// that fit inside their width, never upscaled). Files: `banners/<yyyy>/<mm>/<random>-<variant>.webp`.
import { randomBytes } from 'node:crypto';
import type { BannerImage } from '../../db/schema.ts';
import { type ImageVariantSpec, processImage } from '../../media/images.ts';
import { type MediaStorage, UPLOADS_PUBLIC_PATH } from '../../media/storage.ts';

/**
 * Widths for srcset: a phone (390 px at 2–3×) takes 800–1200, a wide hero 1600. The height bound
 * only keeps a tall strip from becoming a huge file.
 */
export const BANNER_VARIANTS = [
  { name: 'small', width: 480, height: 960, fit: 'inside' },
  { name: 'medium', width: 960, height: 1920, fit: 'inside' },
  { name: 'large', width: 1600, height: 3200, fit: 'inside' },
] as const satisfies readonly ImageVariantSpec[];

/** Processes and stores one banner image; throws Invalid({ image: [code] }) for a refused upload. */
export async function storeBannerImage(
  storage: MediaStorage,
  bytes: Buffer,
  maxBytes: number,
  now = new Date(),
): Promise<BannerImage> {
  const processed = await processImage(bytes, { variants: BANNER_VARIANTS, maxBytes });
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const key = `banners/${now.getUTCFullYear()}/${month}/${randomBytes(16).toString('hex')}`;
  const keys = processed.variants.map((v) => `${key}-${v.name}.webp`);
  try {
    await Promise.all(processed.variants.map((v, i) => storage.put(keys[i] as string, v.bytes, v.contentType)));
  } catch (error) {
    await deleteBannerFiles(storage, [{ key }]);
    throw error;
  }
  const variants = processed.variants.map((v) => ({ name: v.name, width: v.width, height: v.height }));
  const large = variants.find((v) => v.name === 'large') ?? variants[0];
  return { key, width: large?.width ?? processed.width, height: large?.height ?? processed.height, variants };
}

/** Storage keys of an image's files: only under `banners/`, whatever a row holds. */
export function bannerImageKeys(image: Pick<BannerImage, 'key'>): string[] {
  if (!/^banners\/\d{4}\/\d{2}\/[a-f0-9]{32}$/.test(image.key)) return [];
  return BANNER_VARIANTS.map((v) => `${image.key}-${v.name}.webp`);
}

export async function deleteBannerFiles(storage: MediaStorage, images: readonly Pick<BannerImage, 'key'>[]) {
  // A leftover file is harmless (random key, linked from nowhere).
  await Promise.allSettled(images.flatMap(bannerImageKeys).map((key) => storage.delete(key)));
}

const url = (key: string, storage?: Pick<MediaStorage, 'url'>) =>
  storage ? storage.url(key) : `${UPLOADS_PUBLIC_PATH}/${key}`;

/** The URL of one variant (the largest stored when the name is not). */
export function bannerImageUrl(
  image: BannerImage,
  name: 'small' | 'medium' | 'large',
  storage?: Pick<MediaStorage, 'url'>,
) {
  const stored = image.variants.find((v) => v.name === name) ?? image.variants.at(-1);
  return url(`${image.key}-${stored?.name ?? name}.webp`, storage);
}

/** A srcset of every distinct stored width. */
export function bannerSrcSet(image: BannerImage, storage?: Pick<MediaStorage, 'url'>): string {
  const seen = new Set<number>();
  return [...image.variants]
    .filter((v) => /^[a-z]+$/.test(v.name) && Number.isInteger(v.width))
    .sort((a, b) => a.width - b.width)
    .filter((v) => !seen.has(v.width) && seen.add(v.width))
    .map((v) => `${url(`${image.key}-${v.name}.webp`, storage)} ${v.width}w`)
    .join(', ');
}
