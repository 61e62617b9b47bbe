// Ad photo uploads over the JSON API against the built server: processing into served WebP
// variants without EXIF, refusals in both languages, size and pixel limits, sign-in and XSRF
// checks, and who may delete a photo.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { BROWSER_UA, type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn } from '../support/members.ts';

const base = inject('baseUrl');
const dataDir = inject('dataDir');

const words = (locale: 'ar' | 'en') =>
  JSON.parse(readFileSync(path.resolve(`app/i18n/locales/${locale}/errors.json`), 'utf8')) as Record<string, string>;
const ar = words('ar');
const en = words('en');

interface Uploaded {
  id: number;
  width: number;
  height: number;
  urls: { thumb: string; medium: string; large: string };
}
interface ApiError {
  message: string;
  errors?: Record<string, string[]>;
}

/** A signed-in member with the XSRF cookie. */
async function member(): Promise<Browser> {
  const b = browser();
  const email = `photos-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await registerAndSignIn(b, { name: 'Salem', email, password: 'photos-passphrase' });
  expect((await b.get('/api/csrf-cookie')).status).toBe(204);
  return b;
}

async function visitor(): Promise<Browser> {
  const b = browser();
  expect((await b.get('/api/csrf-cookie')).status).toBe(204);
  return b;
}

/** A request to the API as `b` would send it from the site's pages. */
function api(
  b: Browser,
  method: string,
  pathname: string,
  opts: { body?: BodyInit; xsrf?: boolean; locale?: 'ar' | 'en' } = {},
) {
  const headers: Record<string, string> = {
    'user-agent': BROWSER_UA,
    cookie: b.cookieHeader(),
    'x-forwarded-for': b.ip,
    accept: 'application/json',
  };
  if (opts.xsrf !== false) headers['x-xsrf-token'] = b.jar.get('XSRF-TOKEN') ?? '';
  if (opts.locale) headers['x-locale'] = opts.locale;
  return fetch(base + pathname, { method, headers, body: opts.body, redirect: 'manual' });
}

const form = (bytes: Uint8Array<ArrayBuffer>, filename = 'photo.jpg', type = 'image/jpeg') => {
  const f = new FormData();
  f.set('photo', new Blob([bytes], { type }), filename);
  return f;
};
const upload = (b: Browser, bytes: Uint8Array<ArrayBuffer>, opts: { locale?: 'ar' | 'en'; xsrf?: boolean } = {}) =>
  api(b, 'POST', '/api/ad-images', { ...opts, body: form(bytes) });

/** A 2400×1800 camera photo with make, model and GPS position in its EXIF. */
const cameraPhoto = async () =>
  new Uint8Array(
    await sharp({
      create: {
        width: 2400,
        height: 1800,
        channels: 3,
        background: '#3a7bd5',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 85 })
      .withExif({
        IFD0: { Make: 'Acme', Model: 'Phone 1' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '32/1 53/1 14/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '13/1 11/1 29/1',
        },
      })
      .toBuffer(),
  );

/** A genuine 20000×20000 PNG (1-bit grey, all black): 400 megapixels in about 50 kB. */
function hugePng(side = 20_000): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, filter 0, no interlace
  // Each row: filter byte 0 and side/8 zero bytes.
  const rows = Buffer.alloc(side * (1 + side / 8));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return new Uint8Array(png);
}
const uploadedFiles = () => {
  const root = path.join(dataDir, 'uploads', 'ads');
  return existsSync(root)
    ? (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.webp'))
    : [];
};

describe('POST /api/ad-images', () => {
  it('turns a camera JPEG into WebP variants served from /uploads, without EXIF', async () => {
    const b = await member();
    const source = await cameraPhoto();
    // The fixture really carries what must not come out.
    const exif = (await sharp(source).metadata()).exif;
    expect(exif?.includes('Acme')).toBe(true);
    // The GPS IFD pointer (tag 0x8825), in either byte order.
    expect(exif?.includes(Buffer.from([0x88, 0x25])) || exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    const res = await upload(b, source);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as Uploaded;
    expect(body).toEqual({
      id: expect.any(Number),
      width: 1600,
      height: 1200,
      urls: {
        thumb: expect.stringMatching(/^\/uploads\/ads\/\d{4}\/\d{2}\/[a-f0-9]{32}-thumb\.webp$/),
        medium: expect.stringMatching(/-medium\.webp$/),
        large: expect.stringMatching(/-large\.webp$/),
      },
    });
    // The card's width (`small`) is named by the cards' srcset only, beside the three URLs.
    const urls = { ...body.urls, small: body.urls.thumb.replace('-thumb.', '-small.') };
    const widths = { thumb: 320, small: 480, medium: 800, large: 1600 };
    for (const [name, width] of Object.entries(widths)) {
      const file = await fetch(base + urls[name as keyof typeof widths]);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await file.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(width);
      expect(meta.height).toBe((width * 3) / 4);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(bytes.includes('Acme')).toBe(false);
      expect(bytes.includes('Exif')).toBe(false);
    }
  });

  it('refuses a text file named .jpg with words in Arabic and English, storing nothing', async () => {
    const b = await member();
    const before = uploadedFiles().length;
    const text = new TextEncoder().encode('This is not a photo at all, only some text.\n'.repeat(20));
    const arRes = await upload(b, text);
    expect(arRes.status).toBe(422);
    expect(await arRes.json()).toEqual({
      message: 'البيانات المدخلة غير صالحة.',
      errors: { photo: [ar['image-unsupported-type']] },
    });
    const enRes = await upload(b, text, { locale: 'en' });
    expect(enRes.status).toBe(422);
    expect(await enRes.json()).toEqual({
      message: 'The data given is not valid.',
      errors: { photo: [en['image-unsupported-type']] },
    });
    expect(uploadedFiles().length).toBe(before);
  });

  it('asks for a file when the form has none', async () => {
    const b = await member();
    const f = new FormData();
    f.set('title', 'no photo here');
    const res = await api(b, 'POST', '/api/ad-images', { body: f, locale: 'en' });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ApiError).errors).toEqual({ photo: ['The photo field is required'] });
  });

  it('refuses an 11 MB body with a translated error', async () => {
    const b = await member();
    const big = new Uint8Array(11 * 1024 * 1024);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    for (const locale of ['ar', 'en'] as const) {
      const res = await upload(b, big, { locale });
      expect([413, 422]).toContain(res.status);
      const body = (await res.json()) as ApiError;
      expect(body.errors?.photo).toEqual([(locale === 'ar' ? ar : en)['image-too-large']]);
    }
  });

  it('answers 413 at once to a body declared far beyond the limit, without waiting for it', async () => {
    const b = await member();
    const started = Date.now();
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${base}/api/ad-images`, {
        method: 'POST',
        headers: {
          cookie: b.cookieHeader(),
          'x-xsrf-token': b.jar.get('XSRF-TOKEN') ?? '',
          'x-forwarded-for': b.ip,
          'x-locale': 'en',
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(200 * 1024 * 1024),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: text });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write('--x\r\n'); // and never the rest
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ message: en['image-too-large'] });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a 20000×20000 PNG from its header, quickly', async () => {
    const b = await member();
    const png = hugePng();
    expect(png.length).toBeLessThan(200_000);
    expect(await sharp(png, { limitInputPixels: false }).metadata()).toMatchObject({
      format: 'png',
      width: 20_000,
      height: 20_000,
    });
    const started = performance.now();
    const res = await api(b, 'POST', '/api/ad-images', { body: form(png, 'huge.png', 'image/png'), locale: 'en' });
    const ms = performance.now() - started;
    expect(res.status).toBe(422);
    expect(((await res.json()) as ApiError).errors).toEqual({ photo: [en['image-too-many-pixels']] });
    expect(ms).toBeLessThan(1000);
  });

  it('is for signed-in members only', async () => {
    const res = await upload(await visitor(), await cameraPhoto(), { locale: 'en' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: en['sign-in-required'] });
    const arRes = await api(await visitor(), 'DELETE', '/api/ad-images/1');
    expect(arRes.status).toBe(401);
    expect(await arRes.json()).toEqual({ message: ar['sign-in-required'] });
  });

  it('needs the XSRF header', async () => {
    const b = await member();
    const before = uploadedFiles().length;
    const res = await upload(b, await cameraPhoto(), { xsrf: false, locale: 'en' });
    expect(res.status).toBe(419);
    expect(await res.json()).toEqual({ message: en['csrf-mismatch'] });
    expect(uploadedFiles().length).toBe(before);
  });
});

describe('DELETE /api/ad-images/:id', () => {
  it('lets the owner delete, never anyone else, and the files go with the row', async () => {
    const owner = await member();
    const res = await upload(owner, await cameraPhoto());
    expect(res.status).toBe(201);
    const photo = (await res.json()) as Uploaded;
    const urls = Object.values(photo.urls);

    const other = await member();
    const refused = await api(other, 'DELETE', `/api/ad-images/${photo.id}`, { locale: 'en' });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ message: en['not-found'] });
    for (const url of urls) expect((await fetch(base + url)).status).toBe(200);

    expect((await api(owner, 'DELETE', `/api/ad-images/${photo.id}`, { xsrf: false })).status).toBe(419);
    expect((await api(owner, 'DELETE', '/api/ad-images/not-a-number')).status).toBe(404);

    const deleted = await api(owner, 'DELETE', `/api/ad-images/${photo.id}`);
    expect(deleted.status).toBe(204);
    for (const url of urls) expect((await fetch(base + url)).status).toBe(404);
    expect((await api(owner, 'DELETE', `/api/ad-images/${photo.id}`)).status).toBe(404);
  });
});

describe('the API description', () => {
  it('lists both operations', async () => {
    const doc = await (await fetch(`${base}/api/openapi.json`)).json();
    expect(Object.keys(doc.paths['/ad-images'])).toEqual(['post']);
    expect(Object.keys(doc.paths['/ad-images/{id}'])).toEqual(['delete']);
    expect(doc.components.schemas.AdImage.required).toEqual(['id', 'width', 'height', 'urls']);
  });
});
