// Mantine's stylesheet is imported per component (app/styles/mantine.ts; docs/performance.md,
// "Stylesheets"): a component whose file is missing renders unstyled, and so does one Mantine
// renders inside another (a Button's UnstyledButton, a Modal's ModalBase). These tests read which
// components the app imports from '@mantine/core', follow each through @mantine/core's own modules
// to every CSS module it reaches, and hold app/styles/mantine.ts to exactly those files, in the
// order of Mantine's whole stylesheet.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANTINE_CORE, mantineStylesheet, mantineStylesheetPosition } from '../../scripts/lib/mantine-styles.ts';

const root = path.resolve(import.meta.dirname, '../..');
const esm = path.join(MANTINE_CORE, 'esm');
const read = (file: string) => readFileSync(file, 'utf8');
const hasStylesheet = (name: string) => existsSync(path.join(MANTINE_CORE, 'styles', `${name}.css`));

/** Mantine's files imported first, before any component (the reset, the theme's variables, the global classes). */
const GLOBAL = ['baseline', 'default-css-variables', 'global'];

/**
 * Stylesheets a used component's module reaches that the site never renders: static members
 * (`Checkbox.Card`) are imported by their parent's module whether used or not. Each is allowed out
 * only while no file in app/ names the member that would render it.
 */
const NEVER_RENDERED: Record<string, string> = {
  CheckboxCard: 'Checkbox.Card',
  CheckboxIndicator: 'Checkbox.Indicator',
  RadioCard: 'Radio.Card',
  RadioIndicator: 'Radio.Indicator',
};

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesOf(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}
const appSources = sourcesOf(path.join(root, 'app')).map((file) => ({ file, text: read(file) }));

/** Values imported from '@mantine/core' by the app, and by the other Mantine packages it uses, with a file that does. */
function usedNames(): Map<string, string> {
  const used = new Map<string, string>();
  const take = (list: string, file: string) => {
    for (const spec of list.split(',').map((s) => s.trim())) {
      if (!spec || spec.startsWith('type ')) continue;
      const name = spec.split(/\s+as\s+/)[0];
      if (!used.has(name)) used.set(name, path.relative(root, file));
    }
  };
  for (const { file, text } of appSources) {
    expect(text, `${file}: import named values from '@mantine/core'`).not.toMatch(
      /import\s+(\*|\w+\s*,|\w+\s+from)[^;]*from\s+['"]@mantine\/core['"]/,
    );
    for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+['"]@mantine\/core['"]/g))
      if (!m[1]) take(m[2], file);
  }
  return used;
}

/** The module of @mantine/core that defines each exported name (from its index). */
function definitions(): Map<string, string> {
  const index = read(path.join(esm, 'index.mjs'));
  const local = new Map<string, string>();
  for (const m of index.matchAll(/import\s+\{([^}]*)\}\s+from\s+"(\.[^"]+)"/g))
    for (const spec of m[1].split(',').map((s) => s.trim()))
      if (spec) local.set(spec.split(/\s+as\s+/).pop() as string, path.join(esm, m[2]));
  const out = new Map<string, string>();
  const exported = /export\s+\{([^}]*)\}/.exec(index)?.[1] ?? '';
  for (const spec of exported.split(',').map((s) => s.trim())) {
    if (!spec) continue;
    const [inner, outer = inner] = spec.split(/\s+as\s+/);
    const file = local.get(inner);
    if (file) out.set(outer, file);
  }
  return out;
}

/** The CSS modules (by stylesheet name) a module of @mantine/core reaches through its imports. */
function stylesReached(entry: string): Set<string> {
  const seen = new Set<string>();
  const styles = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of read(file).matchAll(/from\s+"(\.[^"]+)"/g)) {
      const target = path.resolve(path.dirname(file), m[1]);
      if (target.endsWith('.module.mjs')) styles.add(path.basename(target, '.module.mjs'));
      stack.push(target);
    }
  }
  return styles;
}

const mantineModule = read(path.join(root, 'app/styles/mantine.ts'));
const imported = [...mantineModule.matchAll(/^import '@mantine\/core\/styles\/([\w-]+)\.css';/gm)].map((m) => m[1]);
const used = usedNames();
const defined = definitions();
/** Every stylesheet the used components reach, with the component that reaches it. */
const reached = new Map<string, string>();
for (const [name] of used) {
  const file = defined.get(name);
  if (!file) continue;
  for (const style of stylesReached(file)) if (!reached.has(style)) reached.set(style, name);
}

describe("Mantine's stylesheet, per component", () => {
  it('finds what it checks', () => {
    expect(used.get('Button')).toMatch(/^app\//);
    expect(reached.get('UnstyledButton')).toBeDefined();
    expect(imported.length).toBeGreaterThan(GLOBAL.length);
    for (const name of used.keys()) expect(defined.has(name), `${name} is exported by @mantine/core`).toBe(true);
  });

  it("the root imports Mantine's files before the other packages' and the app's styles, and never the whole stylesheet", () => {
    const rootModule = read(path.join(root, 'app/root.tsx'));
    const at = (s: string) => rootModule.indexOf(`import '${s}';`);
    expect(at('./styles/mantine.ts')).toBeGreaterThanOrEqual(0);
    for (const { file, text } of appSources) {
      expect(text, file).not.toMatch(/import\s+['"]@mantine\/core\/styles\.(layer\.)?css['"]/);
      if (!file.endsWith(path.join('app', 'styles', 'mantine.ts')))
        expect(text, file).not.toMatch(/import\s+['"]@mantine\/core\/styles\//);
    }
  });

  it('the global files come first', () => {
    expect(imported.slice(0, GLOBAL.length)).toEqual(GLOBAL);
  });

  it("every component imported from '@mantine/core' that has a stylesheet has it imported", () => {
    const missing = [...used].filter(([name]) => hasStylesheet(name) && !imported.includes(name));
    expect(missing.map(([name, file]) => `${name} (imported by ${file})`)).toEqual([]);
  });

  it('every stylesheet those components reach is imported: the components they render inside', () => {
    const missing = [...reached].filter(
      ([style]) => hasStylesheet(style) && !imported.includes(style) && !NEVER_RENDERED[style],
    );
    expect(missing.map(([style, by]) => `${style} (reached from ${by})`)).toEqual([]);
  });

  it.each(Object.entries(NEVER_RENDERED))('%s is left out only while nothing renders %s', (_, member) => {
    for (const { file, text } of appSources) expect(text, file).not.toContain(member);
  });

  it('imports no stylesheet of a component the site does not render', () => {
    const extra = imported.filter((name) => !GLOBAL.includes(name) && !reached.has(name));
    expect(extra).toEqual([]);
  });

  it("imports them in the order of Mantine's whole stylesheet, each once", () => {
    const positions = imported.map(mantineStylesheetPosition);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(imported).size).toBe(imported.length);
  });

  it('loads each as the whole stylesheet writes it: rem sizes scaled by the theme, not px', () => {
    const button = mantineStylesheet('Button');
    expect(read(path.join(MANTINE_CORE, 'styles/Button.css'))).toMatch(/--button-height-sm: 36px;/);
    expect(button).toMatch(/--button-height-sm: calc\(2\.25rem \* var\(--mantine-scale\)\);/);
    expect(read(path.join(MANTINE_CORE, 'styles.css'))).toContain(button);
    expect(read(path.join(root, 'vite.config.ts'))).toMatch(/plugins:\s*\[[^\]]*mantineStyles\(\)/);
  });
});
