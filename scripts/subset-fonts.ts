// `npm run fonts`: makes the site's web fonts from the npm packages and writes their faces.
//   app/styles/fonts/noto-sans-arabic.woff2  Noto Sans Arabic (variable): Arabic letters, the
//       letters of loanwords (پ چ ژ ڤ گ ک ی), harakat, Arabic-Indic digits and Arabic punctuation,
//       with the glyphs shaping reaches through the layout tables (HarfBuzz's subsetter keeps
//       GSUB/GPOS and follows them: initial, medial, final and isolated forms, lam-alef, marks).
//   app/styles/fonts/inter-latin.woff2  Inter (variable): the letters of Basic Latin and Latin-1,
//       the spaces and the curly quotes.
//   app/styles/fonts/inter-symbols.woff2  Inter (variable): the other symbols (# $ & @ ° × € ™ …),
//       which the interface does not write: downloaded only by a page whose text has one.
//   app/styles/fonts/inter-digits-punctuation.woff2  Inter (variable): the Western digits and the
//       signs the site's numbers, prices, dates and times are written with (app/lib/intl.ts), the
//       punctuation Arabic text takes from Latin's block, and the letters of the language switch's
//       "English". Arabic pages write their numbers in Western digits
//       (docs/decisions/0012-western-digits.md) and every one shows that switch: an Arabic page
//       without Latin words downloads this small file and not the Latin one. The file is two faces:
//       the digits and punctuation as part of the Inter family, the letters as a family of their own
//       that only the switch's label uses (app/styles/global.css), since the Latin face draws them
//       everywhere else.
//   app/styles/fonts.css  their @font-face rules, each limited by unicode-range to what its file
//       holds (a page without Latin letters never downloads inter-latin.woff2; the three Inter faces
//       are one family and never claim the same character), and metric-matched fallbacks.
// All keep only the weights the interface uses (400–800). The output is committed; run this again
// after upgrading @fontsource-variable/noto-sans-arabic or @fontsource-variable/inter, or changing
// the Arabic catalogue's `language.other-name` (tests/unit/fonts.test.ts fails until then). See
// docs/performance.md, "Fonts".
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Blob, Face, Font } from 'harfbuzzjs';
import subsetFont from 'subset-font';

const root = path.resolve(import.meta.dirname, '..');
const pkg = (name: string) => path.join(root, 'node_modules', name);
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(path.join(pkg(name), 'package.json'), 'utf8')) as { version: string }).version;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The weights used anywhere in the interface (Mantine's and ours). */
export const WEIGHTS = { min: 400, max: 800 };

/**
 * What numbers are written with: the digits, the signs app/lib/intl.ts's formatters write (grouping
 * comma, decimal point, percent, minus, the colon of a time) and the others found beside numbers
 * (plus, slash, the minus sign U+2212). tests/unit/fonts.test.ts formats numbers, prices, dates and
 * times in both languages and fails when an Arabic page would need another Latin character.
 */
export const NUMERALS = [
  0x25, // %
  0x2b, // +
  0x2c, // ,
  0x2d, // -
  0x2e, // .
  0x2f, // /
  ...range(0x30, 0x39), // 0–9
  0x3a, // :
  0xb2, // ² and ³ of the units of area and volume (م², m³)
  0xb3,
  0x2212, // −
];

/**
 * The punctuation of Latin's block that Arabic text and the interface write, which the Arabic font
 * does not hold: brackets around counts, the required field's asterisk, the search box's ellipsis,
 * the footer's ©, quotation marks and dashes of the information pages, and what members type in ads;
 * with the & and | of the catalogue's English names, which every English listing shows.
 * tests/unit/fonts.test.ts fails when the catalogues, information pages or seeded catalogue of either
 * language need another one from Inter's symbols.
 */
export const PUNCTUATION = [
  0x21, // !
  0x22, // "
  0x26, // & (the catalogue's English names: "Home & Garden")
  0x27, // '
  0x28, // (
  0x29, // )
  0x2a, // *
  0x3b, // ;
  0x3f, // ?
  0x40, // @ (the emails account and admin pages show)
  0x7c, // | (an option's name: "Xbox Series X|S")
  0xa9, // ©
  0xab, // «
  0xb7, // ·
  0xbb, // »
  0x2013, // –
  0x2014, // —
  0x2022, // •
  0x2026, // …
  0x2039, // ‹ › (the search's category chips, the admin's category paths)
  0x203a,
];

/** The characters Inter draws: Basic Latin, Latin-1 (but the soft hyphen, never drawn) and common punctuation. */
const INTER_LATIN = [
  ...range(0x20, 0x7e),
  ...range(0xa0, 0xff).filter((c) => c !== 0xad),
  ...[0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2026, 0x2039, 0x203a, 0x20ac, 0x2122, 0x2212],
];

/**
 * Inter's symbols that neither language's interface writes (# $ & @ ° × € ™ ½ …): a file of their
 * own, downloaded only by a page whose text has one. The letters' file keeps the letters, the spaces
 * and the curly quotes and apostrophes written inside words.
 */
export const SYMBOLS = INTER_LATIN.filter(
  (c) =>
    !NUMERALS.includes(c) &&
    !PUNCTUATION.includes(c) &&
    !/[\p{L}\p{Zs}\u2018\u2019\u201c\u201d]/u.test(String.fromCodePoint(c)),
);

/** The language switch's label on Arabic pages ("English", app/components/layouts/language-switch.tsx). */
export const OTHER_LANGUAGE_NAME = (
  JSON.parse(readFileSync(path.join(root, 'app/i18n/locales/ar/common.json'), 'utf8')) as {
    language: { 'other-name': string };
  }
).language['other-name'];

/** A face of a file under another family: the same download, for other characters. */
interface Alias {
  family: string;
  codePoints: number[];
}

export const FONTS: readonly {
  family: string;
  pkg: string;
  source: string;
  out: string;
  /** The characters of the family's face (its unicode-range). */
  codePoints: readonly number[];
  /** The file's characters under another family, held in the same file. */
  alias?: Alias;
}[] = [
  {
    family: 'Noto Sans Arabic Variable',
    pkg: '@fontsource-variable/noto-sans-arabic',
    source: 'files/noto-sans-arabic-arabic-wght-normal.woff2',
    out: 'app/styles/fonts/noto-sans-arabic.woff2',
    codePoints: [
      0x20, // the space and the no-break space: Arabic text needs no other font for them
      0xa0,
      0x060c, // ،
      0x061b, // ؛
      0x061f, // ؟
      ...range(0x0621, 0x065f), // letters, tatweel, harakat
      ...range(0x0660, 0x066d), // ٠–٩, ٪ ٫ ٬ ٭
      0x0670, // superscript alef
      0x067e, // پ
      0x0686, // چ
      0x0698, // ژ
      0x06a4, // ڤ (v in Libyan spelling of foreign names)
      0x06a9, // ک
      0x06af, // گ
      0x06cc, // ی
      ...range(0x200c, 0x200f), // joiners and direction marks
      // Presentation forms B, as found in text pasted from old documents (U+FE75 is unassigned).
      ...range(0xfe70, 0xfefc).filter((c) => c !== 0xfe75),
    ],
  },
  {
    family: 'Inter Variable',
    pkg: '@fontsource-variable/inter',
    source: 'files/inter-latin-wght-normal.woff2',
    out: 'app/styles/fonts/inter-latin.woff2',
    codePoints: INTER_LATIN.filter((c) => !NUMERALS.includes(c) && !PUNCTUATION.includes(c) && !SYMBOLS.includes(c)),
  },
  {
    family: 'Inter Variable',
    pkg: '@fontsource-variable/inter',
    source: 'files/inter-latin-wght-normal.woff2',
    out: 'app/styles/fonts/inter-symbols.woff2',
    codePoints: SYMBOLS,
  },
  {
    family: 'Inter Variable',
    pkg: '@fontsource-variable/inter',
    source: 'files/inter-latin-wght-normal.woff2',
    out: 'app/styles/fonts/inter-digits-punctuation.woff2',
    codePoints: [...NUMERALS, ...PUNCTUATION],
    alias: {
      family: 'Inter Variable Language Name',
      codePoints: [...new Set([...OTHER_LANGUAGE_NAME].map((ch) => ch.codePointAt(0) as number))],
    },
  },
];

/** Big-endian fields of a few sfnt tables: enough for the fallback metrics. */
function metricsOf(sfnt: Buffer) {
  const tables = new Map<string, number>();
  const count = sfnt.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    tables.set(sfnt.toString('latin1', at, at + 4), sfnt.readUInt32BE(at + 8));
  }
  const head = tables.get('head') as number;
  const hhea = tables.get('hhea') as number;
  return {
    unitsPerEm: sfnt.readUInt16BE(head + 18),
    ascent: sfnt.readInt16BE(hhea + 4),
    descent: sfnt.readInt16BE(hhea + 6),
    lineGap: sfnt.readInt16BE(hhea + 8),
  };
}

/** Ranges of consecutive code points as a CSS unicode-range. */
function unicodeRange(points: number[]) {
  const sorted = [...new Set(points)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
    parts.push(i === j ? `U+${hex(sorted[i])}` : `U+${hex(sorted[i])}-${hex(sorted[j])}`);
    i = j;
  }
  return parts.join(', ');
}

const pct = (n: number) => `${(n * 100).toFixed(2)}%`;

/**
 * Arial's average advance as OpenType's OS/2 table first defined xAvgCharWidth (904 of 2048 units):
 * lowercase letters and the space weighted by their frequency in English text, the weights below.
 */
const ARIAL_AVG_WIDTH = 904 / 2048;
const LETTER_WEIGHTS: Record<string, number> = {
  a: 64,
  b: 14,
  c: 27,
  d: 35,
  e: 100,
  f: 20,
  g: 14,
  h: 42,
  i: 63,
  j: 3,
  k: 6,
  l: 35,
  m: 20,
  n: 56,
  o: 56,
  p: 17,
  q: 4,
  r: 49,
  s: 56,
  t: 71,
  u: 31,
  v: 10,
  w: 18,
  x: 3,
  y: 18,
  z: 2,
  ' ': 166,
};

/** A font's average advance at weight 400 by those weights, in ems. */
async function averageWidth(source: Buffer) {
  const text = Object.keys(LETTER_WEIGHTS).join('');
  const sfnt = await subsetFont(source, text, { targetFormat: 'sfnt', variationAxes: { wght: 400 } });
  const face = new Face(new Blob(sfnt));
  const font = new Font(face);
  let sum = 0;
  for (const [ch, w] of Object.entries(LETTER_WEIGHTS))
    sum += font.glyphHAdvance(font.nominalGlyph(ch.codePointAt(0) as number) ?? 0) * w;
  return sum / 1000 / face.upem;
}

async function main() {
  const faces: string[] = [];
  const record: Record<string, { version: string; sha256: string; bytes: number }> = {};
  for (const [i, font] of FONTS.entries()) {
    const source = readFileSync(path.join(pkg(font.pkg), font.source));
    const text = String.fromCodePoint(...font.codePoints, ...(font.alias?.codePoints ?? []));
    const variationAxes = { wght: WEIGHTS };
    const woff2 = await subsetFont(source, text, { targetFormat: 'woff2', variationAxes });
    writeFileSync(path.join(root, font.out), woff2);
    for (const face of [font, ...(font.alias ? [font.alias] : [])])
      faces.push(
        `@font-face {
  font-family: '${face.family}';
  font-style: normal;
  font-display: swap;
  font-weight: ${WEIGHTS.min} ${WEIGHTS.max};
  src: url(./fonts/${path.basename(font.out)}) format('woff2');
  unicode-range: ${unicodeRange([...face.codePoints])};
}`,
      );
    record[font.out] = {
      version: versionOf(font.pkg),
      sha256: createHash('sha256').update(woff2).digest('hex'),
      bytes: woff2.length,
    };
    console.log(`${font.out}: ${woff2.length} bytes (from ${source.length}, ${font.pkg}@${versionOf(font.pkg)})`);
    // One fallback face per family, after its last face, for everything the family's faces hold.
    if (FONTS.slice(i + 1).some((f) => f.family === font.family)) continue;
    const family = FONTS.filter((f) => f.family === font.family).flatMap((f) => [...f.codePoints]);
    const m = metricsOf(await subsetFont(source, text, { targetFormat: 'sfnt', variationAxes }));
    const arabic = font.family.startsWith('Noto');
    // Inter's letters are wider than Arial's: scale the fallback so lines break in the same places.
    // No widely installed Arabic face has published metrics to scale by; the Arabic fallback only
    // takes the font's vertical metrics, so line boxes keep their height when the font arrives.
    const sizeAdjust = arabic ? 1 : (await averageWidth(source)) / ARIAL_AVG_WIDTH;
    const fallback = arabic
      ? "local('Noto Sans Arabic'), local('Noto Sans Arabic UI'), local('Noto Naskh Arabic'), local('Geeza Pro'), local('Tahoma'), local('Arial')"
      : "local('Arial'), local('Helvetica Neue'), local('Roboto'), local('Liberation Sans')";
    faces.push(
      `@font-face {
  font-family: '${font.family} Fallback';
  src: ${fallback};
  unicode-range: ${unicodeRange(family)};
  size-adjust: ${pct(sizeAdjust)};
  ascent-override: ${pct(m.ascent / m.unitsPerEm / sizeAdjust)};
  descent-override: ${pct(-m.descent / m.unitsPerEm / sizeAdjust)};
  line-gap-override: ${pct(m.lineGap / m.unitsPerEm / sizeAdjust)};
}`,
    );
  }
  const packages = [...new Set(FONTS.map((f) => `${f.pkg}@${versionOf(f.pkg)}`))];
  writeFileSync(
    path.join(root, 'app/styles/fonts.css'),
    `/* Made by scripts/subset-fonts.ts (npm run fonts) from ${packages.join(' and ')}; do not edit. */\n\n${faces.join('\n\n')}\n`,
  );
  writeFileSync(path.join(root, 'app/styles/fonts/fonts.json'), `${JSON.stringify(record, null, 2)}\n`);
  // In the house format, so that `npm run lint` passes on what was made.
  spawnSync(path.join(root, 'node_modules/.bin/biome'), ['format', '--write', 'app/styles/fonts.css'], {
    cwd: root,
    stdio: 'ignore',
  });
}

if (import.meta.main) await main();
