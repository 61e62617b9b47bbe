// Mantine's stylesheet cut to the components the site renders (app/styles/mantine.ts imports their
// files from `@mantine/core/styles/` instead of the whole `@mantine/core/styles.css`; see
// docs/performance.md, "Stylesheets").
//
// Mantine's whole stylesheet is its per-component files laid end to end, line for line, except for
// one thing: in the per-component files of @mantine/core 9 a size is written in px where styles.css
// writes rem scaled by the theme (`30px` there, `calc(1.875rem * var(--mantine-scale))` here). At the
// browser's default font size the two are the same; for a reader who set a larger default font size
// only the rem sizes grow, so buttons and inputs would stay small around larger text. The build
// therefore takes each file's text from styles.css (the Vite plugin below): the lines of styles.css
// that equal the file's lines but for those units. A file found nowhere, or twice, fails the build.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** The folder of @mantine/core's styles.css and of its per-component files (`styles/`). */
export const MANTINE_CORE = path.dirname(require.resolve('@mantine/core/styles.css'));

/** A file of `@mantine/core/styles/` by its name without `.css` (`Button`, `baseline`); not the `.layer.css` ones. */
const STYLE_FILE = /[\\/]@mantine[\\/]core[\\/]styles[\\/]([\w-]+)\.css$/;

/** A line with every rem size that styles.css scales by the theme written back in px, as the per-component files have it. */
function inPx(line: string) {
  return line.replace(
    /calc\((-?\d*\.?\d+)rem \* var\(--mantine-scale\)\)/g,
    (_, rem: string) => `${Number(rem) * 16}px`,
  );
}

let whole: { lines: string[]; px: string[] } | undefined;
const found = new Map<string, { start: number; length: number }>();

/** Where a per-component file's lines are in styles.css. */
function locate(name: string) {
  const known = found.get(name);
  if (known) return known;
  if (!whole) {
    const lines = readFileSync(path.join(MANTINE_CORE, 'styles.css'), 'utf8').split('\n');
    whole = { lines, px: lines.map(inPx) };
  }
  const own = readFileSync(path.join(MANTINE_CORE, 'styles', `${name}.css`), 'utf8')
    .replace(/\n+$/, '')
    .split('\n');
  const mine = own.map(inPx);
  const starts: number[] = [];
  for (let i = 0; i + mine.length <= whole.px.length; i++) {
    let j = 0;
    while (j < mine.length && whole.px[i + j] === mine[j]) j++;
    if (j === mine.length) starts.push(i);
  }
  if (starts.length !== 1)
    throw new Error(
      `@mantine/core/styles/${name}.css is ${starts.length ? 'twice' : 'not'} in @mantine/core/styles.css, line for line: ` +
        'scripts/lib/mantine-styles.ts cannot give its text as the whole stylesheet has it',
    );
  const at = { start: starts[0], length: mine.length };
  found.set(name, at);
  return at;
}

/** A per-component file's text as styles.css has it (rem sizes scaled by the theme). */
export function mantineStylesheet(name: string): string {
  const { start, length } = locate(name);
  return `${whole?.lines.slice(start, start + length).join('\n')}\n`;
}

/** Where a per-component file sits in styles.css: files must be imported in this order, as the whole stylesheet has them. */
export function mantineStylesheetPosition(name: string): number {
  return locate(name).start;
}

/** The Vite plugin: `@mantine/core/styles/<name>.css` loads as styles.css writes it. */
export function mantineStyles(): Plugin {
  return {
    name: 'souq:mantine-styles',
    enforce: 'pre',
    load(id) {
      const [file, query = ''] = id.split('?');
      // `?url` and `?raw` imports ask for the file itself.
      const name = /(^|&)(url|raw)(&|=|$)/.test(query) ? undefined : STYLE_FILE.exec(file)?.[1];
      return name ? mantineStylesheet(name) : null;
    },
  };
}
