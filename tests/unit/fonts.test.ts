// The committed web fonts (scripts/subset-fonts.ts): made from the installed packages, holding what
// Arabic and Latin pages draw, and still shaping Arabic (the layout tables survived the subset).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Blob, Face, Font, Buffer as HbBuffer, shape } from 'harfbuzzjs';
import subsetFont from 'subset-font';
import { describe, expect, it } from 'vitest';
import { FONTS } from '../../scripts/subset-fonts.ts';

const root = path.resolve(import.meta.dirname, '../..');
const record = JSON.parse(readFileSync(path.join(root, 'app/styles/fonts/fonts.json'), 'utf8')) as Record<
  string,
  { version: string; sha256: string }
>;
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
    const missing = font.codePoints.filter((c) => !held.has(c) && !(c >= 0x200c && c <= 0x200f));
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
    const css = readFileSync(path.join(root, 'app/styles/fonts.css'), 'utf8');
    expect(css).toMatch(/url\(\.\/fonts\/noto-sans-arabic\.woff2\)/);
    expect(css).toMatch(/url\(\.\/fonts\/inter-latin\.woff2\)/);
  });
});
