// User-uploaded images → clean WebP variants (avatars now, ad photos next).
// Uploads are hostile input: the bytes alone decide the type (never the file name or the client's Content-Type),
// dimensions are checked from the header before any pixel is decoded, and every variant is re-encoded from pixels,
// so no EXIF, GPS, XMP or ICC data reaches storage.
import sharp, { type Metadata, type OutputInfo, type SharpOptions } from 'sharp';
import { Invalid } from '../domain/errors.ts';

export type ImageType = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'heic';
export type ImageErrorCode = 'image-too-large' | 'image-unsupported-type' | 'image-too-many-pixels' | 'image-corrupt';

export interface ImageVariantSpec {
  /** Part of the storage key, so keep it to [a-z0-9_-]. */
  name: string;
  width: number;
  /** Without a height the variant only bounds the width. */
  height?: number;
  /** cover: fill the box, cropping the overflow (centred). inside: fit within the box, keeping the aspect ratio. */
  fit: 'cover' | 'inside';
}

export interface ProcessImageOptions {
  variants: readonly ImageVariantSpec[];
  /** Default MAX_IMAGE_BYTES. */
  maxBytes?: number;
  /** Width × height limit, checked from the header before decoding. Default MAX_IMAGE_PIXELS. */
  maxPixels?: number;
  /** Either side's limit, so a 1 × 40 000 000 strip is refused too. Default MAX_IMAGE_SIDE. */
  maxSide?: number;
}

export interface ImageVariant {
  name: string;
  width: number;
  height: number;
  bytes: Buffer;
  contentType: 'image/webp';
}

export interface ProcessedImage {
  type: ImageType;
  /** Of the source after EXIF orientation is applied. */
  width: number;
  height: number;
  variants: ImageVariant[];
}

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_SIDE = 16_384;

export const AVATAR_VARIANTS: readonly ImageVariantSpec[] = [
  { name: 'large', width: 256, height: 256, fit: 'cover' },
  { name: 'small', width: 64, height: 64, fit: 'cover' },
];

/**
 * Ad photos (up to 10 per ad): thumbnail, card (a card is about 185 px wide on a phone, so 320 px falls short from a
 * pixel ratio of 1.75 and 800 px is three times what it needs), ad page, zoom. Each fits inside its box, keeping the aspect ratio and
 * never upscaled. The width is what srcset describes; the height bound (twice the width) only keeps a very tall strip
 * or a long screenshot from becoming a huge file, and leaves every ordinary portrait photo (3:4, 9:16) width-bound.
 */
export const AD_PHOTO_VARIANTS = [
  { name: 'thumb', width: 320, height: 640, fit: 'inside' },
  { name: 'small', width: 480, height: 960, fit: 'inside' },
  { name: 'medium', width: 800, height: 1600, fit: 'inside' },
  { name: 'large', width: 1600, height: 3200, fit: 'inside' },
] as const satisfies readonly ImageVariantSpec[];

export type AdPhotoVariantName = (typeof AD_PHOTO_VARIANTS)[number]['name'];

// Effort measured on a 4000×3000 JPEG (2 cores): avatars take ~60 ms at any effort; 1600 + 800 + 320 px variants
// take ~300 ms at effort 2 and ~500 ms at 4 (libwebp's default) for ~5 % smaller files. Files are served many
// times and encoded once, so 4, still well under a second for a 12 MP photo.
const WEBP = { quality: 80, effort: 4 } as const;
// A guard against pathological files that pass the size checks but decode very slowly.
const TIMEOUT_SECONDS = 15;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** The image type by magic bytes, or null for anything else (SVG, TIFF, PDF, text…). */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'png';
  const head = ascii(bytes, 0, 6);
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  // HEIF family (ISO BMFF): an `ftyp` box whose major or compatible brands name AVIF or HEIC.
  if (ascii(bytes, 4, 8) === 'ftyp') {
    const size = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
    const end = Math.min(size, bytes.length);
    if (size < 16) return null;
    const brands = [ascii(bytes, 8, 12)];
    for (let i = 16; i + 4 <= end; i += 4) brands.push(ascii(bytes, i, i + 4));
    for (const brand of brands) {
      if (AVIF_BRANDS.has(brand)) return 'avif';
      if (HEIC_BRANDS.has(brand)) return 'heic';
    }
  }
  return null;
}

function invalid(code: ImageErrorCode): Invalid {
  return new Invalid({ image: [code] });
}

/** Maps a sharp/libvips failure onto a message code. */
function failure(error: unknown): Invalid {
  const message = error instanceof Error ? error.message : String(error);
  if (/exceeds pixel limit/i.test(message)) return invalid('image-too-many-pixels');
  // HEIC needs an HEVC decoder (libde265) that sharp's prebuilt libvips doesn't ship; libheif says so on decode.
  if (/not been built in|decoder plugin|unsupported codec/i.test(message)) return invalid('image-unsupported-type');
  return invalid('image-corrupt');
}

const LOADER: Record<ImageType, Metadata['format']> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  avif: 'heif',
  heic: 'heif',
};

const HEIF_CODECS: Partial<Record<string, ImageType>> = { av1: 'avif', hevc: 'heic' };

/** Output size: never larger than the source; a small source given a `cover` box is only cropped to its shape. */
function targetSize(srcWidth: number, srcHeight: number, v: ImageVariantSpec): { width: number; height: number } {
  if (v.fit === 'cover' && v.height) {
    const k = Math.min(1, srcWidth / v.width, srcHeight / v.height);
    return { width: Math.max(1, Math.round(v.width * k)), height: Math.max(1, Math.round(v.height * k)) };
  }
  const k = Math.min(1, v.width / srcWidth, v.height ? v.height / srcHeight : 1);
  return { width: Math.max(1, Math.round(srcWidth * k)), height: Math.max(1, Math.round(srcHeight * k)) };
}

/**
 * Validates an upload and renders its variants as metadata-free sRGB WebP.
 * Throws Invalid({ image: [code] }) with one of the ImageErrorCode values.
 */
export async function processImage(input: Buffer, options: ProcessImageOptions): Promise<ProcessedImage> {
  const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
  const maxPixels = options.maxPixels ?? MAX_IMAGE_PIXELS;
  const maxSide = options.maxSide ?? MAX_IMAGE_SIDE;
  if (options.variants.length === 0) throw new Error('processImage needs at least one variant');

  if (input.length > maxBytes) throw invalid('image-too-large');
  const sniffed = sniffImageType(input);
  // Only bytes we recognise reach libvips, so its SVG, PDF, TIFF… loaders are never exposed to uploads.
  if (!sniffed) throw invalid('image-unsupported-type');

  // limitInputPixels makes libvips refuse from the header alone; pages: 1 takes the first frame of an animation.
  // failOn 'error' refuses broken or truncated data but tolerates harmless warnings some cameras trigger.
  const inputOptions: SharpOptions = { limitInputPixels: maxPixels, failOn: 'error', pages: 1 };
  let meta: Metadata;
  try {
    meta = await sharp(input, inputOptions).metadata();
  } catch (error) {
    throw failure(error);
  }
  if (meta.format !== LOADER[sniffed]) throw invalid('image-unsupported-type');
  // The HEIF container says which codec it really holds; trust that over the ftyp brand.
  const type = meta.format === 'heif' ? HEIF_CODECS[meta.compression ?? ''] : sniffed;
  if (!type) throw invalid('image-unsupported-type');
  const { width, height } = meta;
  if (!width || !height) throw invalid('image-corrupt');
  if (width * height > maxPixels || width > maxSide || height > maxSide) throw invalid('image-too-many-pixels');

  const oriented = meta.autoOrient;
  const targets = options.variants.map((v) => ({ name: v.name, ...targetSize(oriented.width, oriented.height, v) }));
  // Decode once, at the smallest size that still serves every variant (JPEG and WebP shrink while decoding), then cut
  // each variant from those pixels: a PNG or a 12 MP photo is decoded once, not once per variant.
  const scale = Math.max(...targets.map((t) => Math.max(t.width / oriented.width, t.height / oriented.height)));
  // The epsilon keeps float noise (256 / 3000 * 3000 = 256.00000000000006) from adding a pixel.
  const span = (side: number) => Math.min(side, Math.ceil(side * scale - 1e-6));
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    // No keepMetadata/withMetadata: sharp converts to sRGB with any embedded profile, and raw pixels carry no
    // EXIF, XMP, IPTC or ICC, so nothing from the upload but its pixels can reach the output.
    pixels = await sharp(input, inputOptions)
      .timeout({ seconds: TIMEOUT_SECONDS })
      .autoOrient()
      .resize(span(oriented.width), span(oriented.height), { fit: 'fill' })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw failure(error);
  }
  const raw = { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels };
  // From here on the input is our own pixels, so a failure is a bug (500), not the upload's fault.
  const variants = await Promise.all(
    targets.map(async (t): Promise<ImageVariant> => {
      const { data, info } = await sharp(pixels.data, { raw })
        .resize(t.width, t.height, { fit: 'cover' })
        .webp(WEBP)
        .toBuffer({ resolveWithObject: true });
      return { name: t.name, width: info.width, height: info.height, bytes: data, contentType: 'image/webp' };
    }),
  );
  return { type, width: oriented.width, height: oriented.height, variants };
}
