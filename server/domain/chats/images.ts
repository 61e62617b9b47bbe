// Photos in chats (docs/product/chats.md): checked and re-encoded like ad photos
// (server/media/images.ts: the bytes decide the type, size and pixel limits, auto-rotated, EXIF and
// GPS stripped), stored as two WebP variants under `chats/<yyyy>/<mm>/<random>`. As with ad photos,
// the random part (128 bits) is what keeps a photo's address private.
import { randomBytes } from 'node:crypto';
import { CHAT_IMAGE_MAX_BYTES } from '../../../app/lib/chats.ts';
import { type ImageVariantSpec, processImage } from '../../media/images.ts';
import type { MediaStorage } from '../../media/storage.ts';

export const CHAT_IMAGE_VARIANTS = [
  { name: 'small', width: 480, height: 960, fit: 'inside' },
  { name: 'large', width: 1600, height: 3200, fit: 'inside' },
] as const satisfies readonly ImageVariantSpec[];

/** The largest photo file accepted (before processing): the ad photos' limit, MAX_IMAGE_BYTES. */
export const MAX_CHAT_IMAGE_BYTES = CHAT_IMAGE_MAX_BYTES;

export interface StoredChatImage {
  key: string;
  /** Of the large variant. */
  width: number;
  height: number;
}

/** Storage keys of a chat photo's files. */
export const chatImageKeys = (key: string) => CHAT_IMAGE_VARIANTS.map((v) => `${key}-${v.name}.webp`);

/**
 * Checks, re-encodes and stores a photo; Invalid({ image: [code] }) when the bytes are refused
 * (too large, not an image, too many pixels, unreadable).
 */
export async function storeChatImage(storage: MediaStorage, bytes: Buffer, now = new Date()): Promise<StoredChatImage> {
  const processed = await processImage(bytes, { variants: CHAT_IMAGE_VARIANTS, maxBytes: MAX_CHAT_IMAGE_BYTES });
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const key = `chats/${now.getUTCFullYear()}/${month}/${randomBytes(16).toString('hex')}`;
  try {
    await Promise.all(processed.variants.map((v) => storage.put(`${key}-${v.name}.webp`, v.bytes, v.contentType)));
  } catch (error) {
    await deleteChatImage(storage, key);
    throw error;
  }
  const large = processed.variants.find((v) => v.name === 'large') ?? processed.variants[0];
  return { key, width: large?.width ?? 0, height: large?.height ?? 0 };
}

/** Removes a photo's files (a message that was not stored after all); a hiccup is not an error. */
export async function deleteChatImage(storage: MediaStorage, key: string): Promise<void> {
  await Promise.allSettled(chatImageKeys(key).map((k) => storage.delete(k)));
}
