// The cost of one ad photo: a 12-megapixel camera JPEG (4000×3000, photo-like gradients and sensor
// noise, EXIF included) through processImage into every ad variant, as an upload does. Median of
// several runs after a warm-up; the target is ≤ 1.5 s. Part of `npm run bench`, or on its own:
//   node scripts/bench-photos.ts [--runs 5]
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { AD_PHOTO_VARIANTS, processImage } from '../server/media/images.ts';

export const PHOTO_TARGET_MS = 1500;

export interface PhotoBench {
  source: { width: number; height: number; megapixels: number; bytes: number };
  variants: { name: string; width: number; height: number; bytes: number }[];
  runs_ms: number[];
  median_ms: number;
  target_ms: number;
  cpus: number;
  libvips_threads: number;
}

/**
 * A 4000×3000 JPEG that weighs and compresses like a phone photo (~4 MB): smooth colour gradients
 * under noise at three scales (blotches, texture, sensor grain), so detail survives downscaling.
 */
export async function twelveMegapixelJpeg(width = 4000, height = 3000): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (255 * x) / width;
      raw[i + 1] = 128 + 100 * Math.sin((x + y) / 300);
      raw[i + 2] = (255 * y) / height;
    }
  }
  const noise = (scale: number, sigma: number) =>
    sharp({
      create: {
        width: Math.round(width / scale),
        height: Math.round(height / scale),
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma },
      },
    })
      .resize(width, height, { kernel: 'cubic' })
      .raw()
      .toBuffer();
  const layers = await Promise.all([noise(16, 60), noise(4, 40), noise(1, 20)]);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .composite(layers.map((input) => ({ input, raw: { width, height, channels: 3 }, blend: 'soft-light' as const })))
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'Bench', Model: 'Camera' } })
    .toBuffer();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export async function benchPhotos(runs = 5): Promise<PhotoBench> {
  const jpeg = await twelveMegapixelJpeg();
  const meta = await sharp(jpeg).metadata();
  let last = await processImage(jpeg, { variants: AD_PHOTO_VARIANTS }); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    last = await processImage(jpeg, { variants: AD_PHOTO_VARIANTS });
    times.push(Math.round(performance.now() - started));
  }
  return {
    source: {
      width: meta.width ?? 0,
      height: meta.height ?? 0,
      megapixels: Math.round(((meta.width ?? 0) * (meta.height ?? 0)) / 1e5) / 10,
      bytes: jpeg.length,
    },
    variants: last.variants.map((v) => ({ name: v.name, width: v.width, height: v.height, bytes: v.bytes.length })),
    runs_ms: times,
    median_ms: median(times),
    target_ms: PHOTO_TARGET_MS,
    cpus: availableParallelism(),
    libvips_threads: sharp.concurrency(),
  };
}

export function printPhotoBench(r: PhotoBench): void {
  const verdict = r.median_ms <= r.target_ms ? 'within' : 'OVER';
  console.log(
    `\nAd photo: ${r.source.width}×${r.source.height} JPEG (${r.source.megapixels} MP, ${Math.round(r.source.bytes / 1024)} kB) → ${r.variants
      .map((v) => `${v.name} ${v.width}×${v.height} (${Math.round(v.bytes / 1024)} kB)`)
      .join(', ')}`,
  );
  console.log(
    `  median ${r.median_ms} ms of ${r.runs_ms.length} runs [${r.runs_ms.join(', ')}], ${verdict} the ${r.target_ms} ms target (${r.cpus} CPUs, libvips ${r.libvips_threads} threads)`,
  );
}

if (import.meta.main) {
  const i = process.argv.indexOf('--runs');
  printPhotoBench(await benchPhotos(i > 0 ? Number(process.argv[i + 1]) : 5));
}
