// Writes public/images/badge-icons.svg: one <symbol> per key of SPRITE_ICONS (app/lib/badges.ts),
// taken from @tabler/icons' SVG files. Badges and company marks draw them with <use>, so no icon
// code reaches the pages' scripts. Run after changing SPRITE_ICONS: `npx node scripts/badge-icons.ts`
// (tests/unit/badges.test.ts fails while the file is not what this writes).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SPRITE_ICONS } from '../app/lib/badges.ts';

export const SPRITE_FILE = path.resolve('public/images/badge-icons.svg');

export function badgeSprite(): string {
  const symbols = Object.entries(SPRITE_ICONS).map(([key, icon]) => {
    const file = path.resolve(
      'node_modules/@tabler/icons/icons',
      icon.filled ? 'filled' : 'outline',
      `${icon.file}.svg`,
    );
    const svg = readFileSync(file, 'utf8');
    // The drawing: every element but the invisible 24×24 frame Tabler puts first.
    const body = [...svg.matchAll(/<(path|circle|rect|line|polyline|polygon|ellipse)\b[^>]*\/>/g)]
      .map((m) => m[0].replace(/\s+/g, ' ').replace(' />', '/>'))
      .filter((el) => !el.includes('d="M0 0h24v24H0z"'))
      .join('');
    const paint = icon.filled
      ? 'fill="currentColor" stroke="none"'
      : 'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"';
    return `<symbol id="${key}" viewBox="0 0 24 24" ${paint}>${body}</symbol>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg">\n<title>Badge and company icons</title>\n<!-- Tabler Icons (MIT), scripts/badge-icons.ts -->\n${symbols.join('\n')}\n</svg>\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(SPRITE_FILE, badgeSprite());
  console.log(`wrote ${path.relative(process.cwd(), SPRITE_FILE)}`);
}
