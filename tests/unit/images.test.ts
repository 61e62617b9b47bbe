import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { Invalid } from '../../server/domain/errors.ts';
import {
  AVATAR_VARIANTS,
  type ImageErrorCode,
  type ProcessedImage,
  processImage,
  sniffImageType,
} from '../../server/media/images.ts';
import { createLocalStorage, createStorage } from '../../server/media/storage.ts';

// Every fixture is generated here, so the tests show exactly what each input contains.

/** Left half red, right half blue: shows where the left edge ends up after orientation. */
function halves(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(x < width / 2 ? [220, 20, 20] : [20, 20, 220], (y * width + x) * 3);
  }
  return raw;
}
const picture = (width = 300, height = 200) =>
  sharp(halves(width, height), { raw: { width, height, channels: 3 } }).composite([
    {
      input: {
        create: { width, height, channels: 4, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 20 } },
      },
      blend: 'soft-light',
    },
  ]);

/** 200×100 JPEG stored sideways (orientation 6) with camera and GPS EXIF, like a phone photo. */
const phoneJpeg = () =>
  picture(200, 100)
    .jpeg()
    .withExif({
      IFD0: { Make: 'Acme', Model: 'Phone 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '25/1 12/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '55/1 16/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();

/** A PNG whose header declares any size; the pixel data stays 1×1, so the file is tiny. */
async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  // IHDR: length(4) type(4) at 8, width at 16, height at 20, CRC over type+data (bytes 12–28) at 29.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/**
 * An HEIC-shaped file: a real AVIF whose codec boxes are relabelled HEVC (av01 → hvc1, av1C → a valid hvcC),
 * enough for libheif to parse the container and then ask for an HEVC decoder.
 */
async function fakeHeic(): Promise<Buffer> {
  const avif = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
    .avif()
    .toBuffer();
  const hvcC = Buffer.concat([
    Buffer.from([0, 0, 0, 31]),
    Buffer.from('hvcC'),
    Buffer.from('0101600000009000000000005df000fcfdf8f800000f00', 'hex'),
  ]);
  const at = avif.indexOf('av1C') - 4;
  const oldSize = avif.readUInt32BE(at);
  const out = Buffer.concat([avif.subarray(0, at), hvcC, avif.subarray(at + oldSize)]);
  const grow = hvcC.length - oldSize;
  // Enclosing boxes (meta, iprp, ipco) grow, and the iloc extent offset of the image data moves with the mdat.
  for (const box of ['meta', 'iprp', 'ipco']) {
    const pos = out.indexOf(box) - 4;
    out.writeUInt32BE(out.readUInt32BE(pos) + grow, pos);
  }
  const iloc = out.indexOf('iloc') - 4;
  // Version 0, 4-byte offset/length/base-offset fields, one item: its base offset sits at byte 20 of the box.
  expect([out.readUInt32BE(iloc + 8), out.readUInt32BE(iloc + 12)]).toEqual([0, 0x44400001]);
  out.writeUInt32BE(out.readUInt32BE(iloc + 20) + grow, iloc + 20);
  for (let i = out.indexOf('avif'); i >= 0; i = out.indexOf('avif')) out.write('heic', i, 'latin1');
  out.write('hvc1', out.indexOf('av01'), 'latin1');
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<ImageErrorCode> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Invalid);
  const codes = (error as Invalid).errors.image;
  expect(codes).toHaveLength(1);
  return codes[0] as ImageErrorCode;
}

async function expectCleanWebp(result: ProcessedImage) {
  for (const v of result.variants) {
    const meta = await sharp(v.bytes).metadata();
    expect(v.contentType).toBe('image/webp');
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([v.width, v.height]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.hasProfile).toBe(false);
    expect(meta.orientation).toBeUndefined();
  }
}

const sizes = (r: ProcessedImage) => r.variants.map((v) => [v.name, v.width, v.height]);

describe('sniffImageType', () => {
  it('goes by the bytes only', async () => {
    const base = picture(40, 30);
    expect(sniffImageType(await base.clone().jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImageType(await base.clone().png().toBuffer())).toBe('png');
    expect(sniffImageType(await base.clone().webp().toBuffer())).toBe('webp');
    expect(sniffImageType(await base.clone().gif().toBuffer())).toBe('gif');
    expect(sniffImageType(await base.clone().avif().toBuffer())).toBe('avif');
    expect(sniffImageType(await fakeHeic())).toBe('heic');
    expect(sniffImageType(await base.clone().tiff().toBuffer())).toBeNull();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(new Uint8Array([0xff, 0xd8]))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe('processImage', () => {
  it('turns each accepted type into metadata-free WebP variants of the right sizes', async () => {
    const base = picture(600, 400);
    const inputs = {
      jpeg: await phoneJpeg(),
      png: await base.clone().png().withIccProfile('p3').toBuffer(),
      webp: await base.clone().webp().toBuffer(),
      gif: await base.clone().gif().toBuffer(),
      avif: await base.clone().avif({ effort: 0 }).toBuffer(),
    };
    // The fixture really carries what must be stripped: EXIF with a GPS IFD pointer (tag 0x8825) and orientation.
    const jpegMeta = await sharp(inputs.jpeg).metadata();
    expect(jpegMeta.orientation).toBe(6);
    expect(jpegMeta.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    expect((await sharp(inputs.png).metadata()).hasProfile).toBe(true);

    for (const [type, input] of Object.entries(inputs)) {
      const result = await processImage(input, { variants: AVATAR_VARIANTS });
      expect(result.type).toBe(type);
      const large = type === 'jpeg' ? 100 : 256; // the phone JPEG is only 100 px wide once upright
      expect(sizes(result)).toEqual([
        ['large', large, large],
        ['small', 64, 64],
      ]);
      await expectCleanWebp(result);
    }
  });

  it('applies EXIF orientation: a 200×100 JPEG with orientation 6 comes out portrait', async () => {
    const result = await processImage(await phoneJpeg(), {
      variants: [{ name: 'full', width: 1000, fit: 'inside' }],
    });
    expect([result.width, result.height]).toEqual([100, 200]);
    expect(sizes(result)).toEqual([['full', 100, 200]]);
    // Orientation 6 turns the stored image 90° clockwise, so its red left half is now on top.
    const { data, info } = await sharp(result.variants[0].bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels).subarray(0, 3)];
    const [top, bottom] = [pixel(50, 20), pixel(50, 180)];
    expect(top[0]).toBeGreaterThan(top[2]);
    expect(bottom[2]).toBeGreaterThan(bottom[0]);
  });

  it('converts an embedded ICC profile to sRGB before dropping it', async () => {
    const raw = Buffer.alloc(32 * 32 * 3);
    for (let i = 0; i < raw.length; i += 3) raw.set([200, 100, 50], i);
    // Stored as Display P3 values (different numbers), tagged with the P3 profile.
    const p3 = await sharp(raw, { raw: { width: 32, height: 32, channels: 3 } })
      .png()
      .withIccProfile('p3')
      .toBuffer();
    expect([...(await sharp(p3, { ignoreIcc: true }).raw().toBuffer()).subarray(0, 3)]).not.toEqual([200, 100, 50]);
    const result = await processImage(p3, { variants: [{ name: 'x', width: 32, fit: 'inside' }] });
    await expectCleanWebp(result);
    const out = [...(await sharp(result.variants[0].bytes).raw().toBuffer()).subarray(0, 3)];
    out.forEach((v, i) => {
      expect(Math.abs(v - [200, 100, 50][i])).toBeLessThanOrEqual(4);
    });
  });

  it('takes the first frame of an animated GIF', async () => {
    const frame = (background: string) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background } })
        .png()
        .toBuffer();
    const gif = await sharp(await Promise.all(['#f00', '#0f0', '#00f'].map(frame)), { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(3);
    const result = await processImage(gif, { variants: [{ name: 'x', width: 40, fit: 'inside' }] });
    expect([result.width, result.height]).toEqual([40, 30]);
    const { data } = await sharp(result.variants[0].bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[1]).toBeLessThan(50);
  });

  it('never upscales: a small image is only cropped to the box shape', async () => {
    const small = await picture(100, 50).png().toBuffer();
    const result = await processImage(small, {
      variants: [...AVATAR_VARIANTS, { name: 'wide', width: 1600, height: 1600, fit: 'inside' }],
    });
    expect(sizes(result)).toEqual([
      ['large', 50, 50],
      ['small', 50, 50],
      ['wide', 100, 50],
    ]);
  });

  it('refuses a text file named .jpg and an SVG as unsupported', async () => {
    const text = Buffer.from('Definitely a photo.jpg\n'.repeat(20));
    expect(await rejection(processImage(text, { variants: AVATAR_VARIANTS }))).toBe('image-unsupported-type');
    const svg = Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' +
        '<rect width="100" height="100" fill="red"/></svg>',
    );
    expect(await sharp(svg).metadata()).toMatchObject({ format: 'svg' }); // sharp itself would happily render it
    expect(await rejection(processImage(svg, { variants: AVATAR_VARIANTS }))).toBe('image-unsupported-type');
    const tiff = await picture(40, 30).tiff().toBuffer();
    expect(await rejection(processImage(tiff, { variants: AVATAR_VARIANTS }))).toBe('image-unsupported-type');
  });

  // Prebuilt sharp has libheif with AV1 only: HEIC needs libde265, which it doesn't ship.
  it.skipIf('de265' in sharp.versions || !sharp.versions.heif)(
    'refuses HEIC where sharp cannot decode it',
    async () => {
      const heic = await fakeHeic();
      expect(await sharp(heic).metadata()).toMatchObject({ format: 'heif', compression: 'hevc' });
      expect(await rejection(processImage(heic, { variants: AVATAR_VARIANTS }))).toBe('image-unsupported-type');
    },
  );

  it('refuses a truncated JPEG as corrupt', async () => {
    const jpeg = await picture(400, 300).jpeg().toBuffer();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    expect(await rejection(processImage(truncated, { variants: AVATAR_VARIANTS }))).toBe('image-corrupt');
  });

  it('refuses a file over maxBytes before looking at it', async () => {
    const jpeg = await picture().jpeg().toBuffer();
    expect(await rejection(processImage(jpeg, { variants: AVATAR_VARIANTS, maxBytes: jpeg.length - 1 }))).toBe(
      'image-too-large',
    );
    expect(await rejection(processImage(Buffer.alloc(10 * 1024 * 1024 + 1), { variants: AVATAR_VARIANTS }))).toBe(
      'image-too-large',
    );
  });

  it('refuses a decompression bomb from its header, quickly', async () => {
    const bomb = await pngDeclaring(30_000, 30_000);
    expect(bomb.length).toBeLessThan(100);
    const started = performance.now();
    expect(await rejection(processImage(bomb, { variants: AVATAR_VARIANTS }))).toBe('image-too-many-pixels');
    expect(performance.now() - started).toBeLessThan(250);
    // Either side is limited too, and a caller's lower pixel limit applies.
    const strip = await pngDeclaring(20_000, 10);
    expect(await rejection(processImage(strip, { variants: AVATAR_VARIANTS }))).toBe('image-too-many-pixels');
    const photo = await picture(300, 200).png().toBuffer();
    expect(await rejection(processImage(photo, { variants: AVATAR_VARIANTS, maxPixels: 50_000 }))).toBe(
      'image-too-many-pixels',
    );
  });
});

describe('local storage', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'souq-media-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('puts, serves and deletes by key, writing atomically', async () => {
    const storage = createLocalStorage(root);
    const key = 'avatars/u-1/large.webp';
    await storage.put(key, Buffer.from('first'), 'image/webp');
    await storage.put(key, Buffer.from('second'), 'image/webp');
    expect(readFileSync(path.join(root, key), 'utf8')).toBe('second');
    expect(readdirSync(path.join(root, 'avatars/u-1'))).toEqual(['large.webp']); // no temp files left behind
    expect(storage.url(key)).toBe('/uploads/avatars/u-1/large.webp');
    await storage.delete(key);
    expect(existsSync(path.join(root, key))).toBe(false);
    await storage.delete(key); // already gone: fine
  });

  it('rejects keys that could escape the uploads folder or are not ours', async () => {
    const storage = createLocalStorage(root);
    for (const key of [
      '../x.webp',
      'a/../../x.webp',
      '/etc/x.webp',
      'a\\..\\x.webp',
      '.hidden.webp',
      'a//b.webp',
      'A.webp',
      'x.svg',
      'x.webp.exe',
      '',
    ]) {
      await expect(storage.put(key, Buffer.from('x'), 'image/webp'), key).rejects.toThrow(/Invalid storage key/);
      await expect(storage.delete(key), key).rejects.toThrow(/Invalid storage key/);
      expect(() => storage.url(key), key).toThrow(/Invalid storage key/);
    }
    expect(existsSync(path.join(root, '..', 'x.webp'))).toBe(false);
    await expect(storage.put('ok.webp', Buffer.from('x'), 'image/png')).rejects.toThrow(/does not match/);
  });

  it('createStorage: local under <dataDir>/uploads; s3 says it is not there yet', async () => {
    const storage = createStorage({ dataDir: root, storage: 'local' });
    await storage.put('a.webp', Buffer.from('x'), 'image/webp');
    expect(existsSync(path.join(root, 'uploads', 'a.webp'))).toBe(true);
    expect(() => createStorage({ dataDir: root, storage: 's3' })).toThrow('STORAGE=s3 is not implemented yet');
  });
});
