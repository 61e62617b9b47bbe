// Regenerates the raster icons in public/ from public/favicon.svg (run after changing the logo).
import { readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';

const svg = readFileSync('public/favicon.svg');
const png = (size) =>
  sharp(svg, { density: 72 * (size / 64) * 1.2 })
    .resize(size, size)
    .png()
    .toBuffer();

// favicon.ico holding PNG images of 16, 32 and 48 px.
const sizes = [16, 32, 48];
const images = await Promise.all(sizes.map(png));
const header = Buffer.alloc(6 + 16 * sizes.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(sizes.length, 4);
let offset = header.length;
sizes.forEach((size, i) => {
  const e = 6 + 16 * i;
  header.writeUInt8(size, e);
  header.writeUInt8(size, e + 1);
  header.writeUInt16LE(1, e + 4);
  header.writeUInt16LE(32, e + 6);
  header.writeUInt32LE(images[i].length, e + 8);
  header.writeUInt32LE(offset, e + 12);
  offset += images[i].length;
});
writeFileSync('public/favicon.ico', Buffer.concat([header, ...images]));
writeFileSync('public/images/apple-touch-icon.png', await png(180));
writeFileSync('public/images/icon-192.png', await png(192));
writeFileSync('public/images/icon-512.png', await png(512));

// Share image: the logo centred on the brand green, 1200×630 (large-summary card).
const logo = await png(360);
await sharp({ create: { width: 1200, height: 630, channels: 3, background: '#2D9C68' } })
  .composite([{ input: logo, gravity: 'center' }])
  .png()
  .toFile('public/images/logo-only.png');
console.log('icons written');
