// The committed web fonts (scripts/subset-fonts.ts): made from the installed packages, holding what
// Arabic and Latin pages draw, still shaping Arabic (the layout tables survived the subset), and
// faced so that an Arabic page's numbers need only the small digits file, not the Latin one.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Blob, Face, Font, Buffer as HbBuffer, shape } from 'harfbuzzjs';
import { marked } from 'marked';
import subsetFont from 'subset-font';
import { describe, expect, it } from 'vitest';
import { dates, numberFormat, relativeTimeFormat } from '../../app/lib/intl.ts';
import { FONTS, NUMERALS, OTHER_LANGUAGE_NAME, PUNCTUATION, SYMBOLS } from '../../scripts/subset-fonts.ts';
import { taxonomies } from '../../server/db/seed/data/catalog.ts';
import { cities } from '../../server/db/seed/data/cities.ts';

const root = path.resolve(import.meta.dirname, '../..');
const record = JSON.parse(readFileSync(path.join(root, 'app/styles/fonts/fonts.json'), 'utf8')) as Record<
  string,
  { version: string; sha256: string; bytes: number }
>;
const fontsCss = readFileSync(path.join(root, 'app/styles/fonts.css'), 'utf8');

/** The @font-face rules of app/styles/fonts.css: family, file (none for a local fallback) and the code points of its unicode-range. */
const faces = [...fontsCss.matchAll(/@font-face\s*\{([^}]*)\}/g)].map(([, body]) => {
  const family = /font-family:\s*"([^"]+)"/.exec(body)?.[1] ?? '';
  const file = /url\(\.\/(fonts\/[^)]+)\)/.exec(body)?.[1];
  const points = new Set<number>();
  for (const [, from, to] of (/unicode-range:([^;]+);/.exec(body)?.[1] ?? '').matchAll(
    /U\+([0-9A-F]+)(?:-([0-9A-F]+))?/gi,
  ))
    for (let c = Number.parseInt(from, 16); c <= Number.parseInt(to ?? from, 16); c++) points.add(c);
  return { family, file: file && `app/styles/${file}`, points };
});
const faceOfFile = (out: string, family?: string) =>
  faces.find((f) => f.file === out && (!family || f.family === family));

/** Every character app/lib/intl.ts writes for a spread of numbers, prices, percentages, dates and times. */
function formatted(locale: 'ar' | 'en'): Set<string> {
  const values = [0, 1, 7, 12, 999, 1234, 4650, 2_650_000, 1_234_567.891, -5, -1234.5, 0.5, 0.123, 1960, 2026];
  const out: string[] = [];
  for (const n of values) {
    out.push(numberFormat(locale).format(n));
    out.push(numberFormat(locale, { maximumFractionDigits: 0 }).format(n));
    out.push(numberFormat(locale, { useGrouping: false }).format(n));
    out.push(numberFormat(locale, { style: 'percent' }).format(n));
    out.push(numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n * 1000));
  }
  const { date, dateTime, month, day } = dates(locale);
  for (const when of ['2026-11-25T13:25:00Z', '2026-01-02T00:05:00Z', '2026-06-30T09:59:00Z'])
    out.push(date(when), dateTime(when), month(when), day(when.slice(0, 10)));
  const relative = relativeTimeFormat(locale);
  for (const [n, unit] of [
    [-45, 'second'],
    [-25, 'minute'],
    [-3, 'hour'],
    [-1, 'day'],
    [-2, 'week'],
    [-11, 'month'],
    [-3, 'year'],
  ] as const)
    out.push(relative.format(n, unit));
  return new Set([...out.join('')]);
}

const ENTITIES: Record<string, string> = { quot: '"', '#39': "'", amp: '&', lt: '<', gt: '>' };

/** The text of a language's catalogues, information pages and seeded catalogue (names, options, units), as pages show it. */
function interfaceTexts(locale: 'ar' | 'en'): string[] {
  const texts: string[] = [];
  const seeded = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(seeded);
    else if (v && typeof v === 'object')
      for (const [key, value] of Object.entries(v))
        if (typeof value === 'string' && [locale, `name_${locale}`, `unit_${locale}`].includes(key)) texts.push(value);
        else seeded(value);
  };
  seeded([taxonomies, cities]);
  const strings = (v: unknown): void => {
    if (typeof v === 'string') texts.push(v.replace(/\{\{[^}]*\}\}/g, '').replace(/<\/?[\w-]+>/g, ''));
    else if (v && typeof v === 'object') Object.values(v).forEach(strings);
  };
  const catalogues = path.join(root, 'app/i18n/locales', locale);
  // (mail.json is for emails, which download no web font)
  for (const f of readdirSync(catalogues).filter((f) => f !== 'mail.json'))
    strings(JSON.parse(readFileSync(path.join(catalogues, f), 'utf8')));
  const pages = path.join(root, 'content/pages', locale);
  for (const f of readdirSync(pages)) {
    const html = marked.parse(readFileSync(path.join(pages, f), 'utf8'), { async: false });
    texts.push(html.replace(/<[^>]*>/g, '').replace(/&(quot|#39|amp|lt|gt);/g, (_, e: string) => ENTITIES[e]));
  }
  return texts;
}

const versionOf = (name: string) =>
  (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;

async function faceOf(file: string) {
  const sfnt = await subsetFont(readFileSync(path.join(root, file)), undefined, {
    targetFormat: 'sfnt',
    keepAllGlyphs: true,
  });
  return new Face(new Blob(sfnt));
}

/** The glyph ids HarfBuzz draws for a text, right to left for Arabic. */
function glyphs(face: Face, text: string) {
  const buffer = new HbBuffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  shape(new Font(face), buffer);
  return buffer.getGlyphInfos().map((g) => g.codepoint);
}

describe('web fonts', () => {
  it.each(FONTS.map((f) => [f.out, f] as const))('%s is made from the installed package', (out, font) => {
    expect(record[out]?.version, 'run `npm run fonts` after upgrading the font package').toBe(versionOf(font.pkg));
    const sha = createHash('sha256')
      .update(readFileSync(path.join(root, out)))
      .digest('hex');
    expect(sha).toBe(record[out].sha256);
  });

  it.each(FONTS.map((f) => [f.out, f] as const))('%s has a glyph for every code point it claims', async (out, font) => {
    const face = await faceOf(out);
    const held = new Set(face.collectUnicodes());
    // The direction marks and joiners have no drawing of their own; every other one must be there.
    const missing = [...font.codePoints, ...(font.alias?.codePoints ?? [])].filter(
      (c) => !held.has(c) && !(c >= 0x200c && c <= 0x200f),
    );
    expect(missing.map((c) => c.toString(16))).toEqual([]);
  });

  it('the Arabic font still joins letters: initial, medial and final forms differ', async () => {
    const face = await faceOf('app/styles/fonts/noto-sans-arabic.woff2');
    // Noto draws a letter's dots as a glyph of their own: beh is its dotless body and one dot.
    const isolated = glyphs(face, 'ب');
    expect(isolated).toHaveLength(2);
    // Three behs in a row: final, medial and initial bodies, none of them the isolated one.
    const bodies = glyphs(face, 'ببب').filter((g) => !isolated.includes(g));
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies).size).toBe(3);
    // Lam followed by alef takes the lam-alef forms, not the two isolated letters.
    const lamAlef = glyphs(face, 'لا');
    expect(lamAlef).not.toContain(glyphs(face, 'ل')[0]);
    expect(lamAlef).not.toContain(glyphs(face, 'ا')[0]);
  });

  it('the site loads its own fonts, not the whole packages', () => {
    const rootModule = readFileSync(path.join(root, 'app/root.tsx'), 'utf8');
    expect(rootModule).not.toMatch(/@fontsource/);
    for (const font of FONTS) expect(faceOfFile(font.out), font.out).toBeDefined();
  });

  it.each(FONTS.map((f) => [f.out, f] as const))(
    "%s's faces claim exactly the code points its file holds",
    (out, font) => {
      const sorted = (points: Iterable<number>) => [...new Set(points)].sort((x, y) => x - y);
      for (const face of [font, ...(font.alias ? [font.alias] : [])])
        expect(sorted(faceOfFile(out, face.family)?.points ?? []), face.family).toEqual(sorted(face.codePoints));
      expect(faces.filter((f) => f.file === out)).toHaveLength(font.alias ? 2 : 1);
    },
  );

  it('faces of one family never claim the same character (the browser would download both for it)', () => {
    const overlaps: string[] = [];
    for (const [i, a] of faces.entries())
      for (const b of faces.slice(i + 1))
        if (a.family === b.family)
          for (const c of a.points)
            if (b.points.has(c)) overlaps.push(`${a.family} U+${c.toString(16)}: ${a.file} and ${b.file}`);
    expect(overlaps).toEqual([]);
  });

  it("each family's local fallback covers all its faces claim, so nothing is downloaded while they load", () => {
    for (const family of new Set(FONTS.map((f) => f.family))) {
      const fallback = faces.find((f) => f.family === `${family} Fallback`);
      expect(fallback?.file, family).toBeUndefined();
      const claimed = faces.filter((f) => f.family === family).flatMap((f) => [...f.points]);
      expect(claimed.filter((c) => !fallback?.points.has(c))).toEqual([]);
    }
  });

  it("an Arabic page's numbers, prices and dates need the Arabic and digits files only, not the Latin one", () => {
    const arabic = faceOfFile('app/styles/fonts/noto-sans-arabic.woff2')?.points ?? new Set();
    const digits = faceOfFile('app/styles/fonts/inter-digits-punctuation.woff2')?.points ?? new Set();
    const written = formatted('ar');
    expect(written.has('5') && written.has(',')).toBe(true);
    const others = [...written].filter(
      (ch) => !arabic.has(ch.codePointAt(0) as number) && !digits.has(ch.codePointAt(0) as number),
    );
    expect(others.map((ch) => `U+${(ch.codePointAt(0) as number).toString(16)} ${ch}`)).toEqual([]);
  });

  it("an English page finds every character of its numbers, prices and dates in Inter's files", () => {
    const inter = new Set(faces.filter((f) => f.family === 'Inter Variable').flatMap((f) => [...f.points]));
    const others = [...formatted('en')].filter((ch) => !inter.has(ch.codePointAt(0) as number));
    expect(others.map((ch) => `U+${(ch.codePointAt(0) as number).toString(16)} ${ch}`)).toEqual([]);
  });

  it('the digits and punctuation file and the symbols file hold no letter', () => {
    const letters = (points: readonly number[]) => points.filter((c) => /\p{L}/u.test(String.fromCodePoint(c)));
    expect(letters([...NUMERALS, ...PUNCTUATION])).toEqual([]);
    expect(letters(SYMBOLS)).toEqual([]);
  });

  it.each(['ar', 'en'] as const)(
    "the %s interface and information pages need Inter's letters for letters only, and its symbols never",
    (locale) => {
      const letters = faceOfFile('app/styles/fonts/inter-latin.woff2')?.points ?? new Set();
      const symbols = faceOfFile('app/styles/fonts/inter-symbols.woff2')?.points ?? new Set();
      const texts = interfaceTexts(locale);
      expect(texts.length).toBeGreaterThan(100);
      const chars = new Set([...texts.join('')]);
      const code = (ch: string) => ch.codePointAt(0) as number;
      expect([...chars].filter((ch) => symbols.has(code(ch)))).toEqual([]);
      if (locale === 'ar')
        expect([...chars].filter((ch) => letters.has(code(ch)) && !/[\p{L}\s]/u.test(ch))).toEqual([]);
    },
  );

  it("the language switch's name on Arabic pages is drawn from the digits file, with a local stand-in, not the Latin face", () => {
    // `npm run fonts` after changing the label in the Arabic catalogue.
    const name = faceOfFile('app/styles/fonts/inter-digits-punctuation.woff2', 'Inter Variable Language Name');
    const letters = [...OTHER_LANGUAGE_NAME].map((ch) => ch.codePointAt(0) as number);
    expect(letters.filter((c) => !name?.points.has(c))).toEqual([]);
    expect(faces.filter((f) => f.family === name?.family)).toHaveLength(1);
    const global = readFileSync(path.join(root, 'app/styles/global.css'), 'utf8');
    expect(global).toMatch(
      /html:lang\(ar\) \.other-language-name \{\s*font-family:\s*"Noto Sans Arabic Variable", "Inter Variable Language Name", "Inter Variable Fallback",\s*var\(--souq-font\);/,
    );
    const fallback = faces.find((f) => f.family === 'Inter Variable Fallback');
    expect(fallback?.file).toBeUndefined();
    expect(letters.filter((c) => !fallback?.points.has(c))).toEqual([]);
    const languageSwitch = readFileSync(path.join(root, 'app/components/layouts/language-switch.tsx'), 'utf8');
    expect(languageSwitch).toMatch(/className="other-language-name"/);
    expect(languageSwitch).toMatch(/\{t\('language\.other-name'\)\}/);
  });
});
