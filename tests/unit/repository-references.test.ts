// The repository explains itself (docs/architecture.md, house rule 14): comments and docs cite only
// files that are in it. Fails on a reference to a document outside the repository (the old product
// and design documents, numbered issues and their sections) and on a path, markdown link or ADR
// number that names a file which does not exist, listing each as `file:line`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SELF = path
  .relative(ROOT, import.meta.filename)
  .split(path.sep)
  .join('/');

/** What is scanned: the source, tests, scripts, docs and the top-level configuration. */
const SCANNED = [
  'app',
  'server',
  'scripts',
  'tests',
  'docs',
  'content',
  '.ci',
  'README.md',
  'biome.json',
  'vite.config.ts',
  'vitest.config.ts',
  'playwright.config.ts',
  'react-router.config.ts',
  'postcss.config.cjs',
];
const SKIPPED_DIRS = new Set(['node_modules', 'build', '.react-router', 'data', 'test-results', 'playwright-report']);
const TEXT_FILE = /(\.(ts|tsx|js|mjs|cjs|md|css|yml|yaml|sh)|^run)$/;

/** Documents that are not in the repository; the rule each cites now lives in docs/. */
const OUTSIDE: { pattern: RegExp; why: string }[] = [
  { pattern: /\bPRODUCT\.md\b/g, why: 'PRODUCT.md is not in the repository' },
  { pattern: /\bDESIGN\.md\b/g, why: 'DESIGN.md is not in the repository' },
  { pattern: /\bSPEC-seed\b/g, why: 'SPEC-seed is not in the repository' },
  { pattern: /\bseed\s*§/g, why: 'the seed specification is not in the repository' },
  { pattern: /\bissues?[ -]#?\d+/gi, why: 'numbered issues are not in the repository' },
  { pattern: /\bproduct spec(ification)?\b/gi, why: 'the product specification is not in the repository' },
  { pattern: /\/work\/(shared|main|wt-[\w-]+)\b/g, why: 'a path on a work machine, outside the repository' },
];

/**
 * Known matches that are not references, each with its reason. Keyed by file and the exact text of
 * the line, so an entry stops applying as soon as the line changes.
 */
const ALLOWED: { file: string; line: string; why: string }[] = [];

/** Repository paths in prose and comments: `docs/…` always, and source files by their folder. */
const REPO_PATH = /(?<![\w./-])((?:docs|app|server|scripts|tests|content)\/[\w./-]*[\w-](?:\.\w+)?)/g;
const MARKDOWN_LINK = /\[[^\]\n]*\]\(([^)\s]+)\)/g;
const ADR = /\bADRs? (\d{4})\b/g;

interface Finding {
  file: string;
  line: number;
  text: string;
  why: string;
}

function walk(rel: string, out: string[]): void {
  const abs = path.join(ROOT, rel);
  if (!existsSync(abs)) return;
  if (statSync(abs).isDirectory()) {
    for (const name of readdirSync(abs)) {
      if (!SKIPPED_DIRS.has(name)) walk(path.posix.join(rel, name), out);
    }
  } else if (TEXT_FILE.test(path.basename(rel))) {
    out.push(rel);
  }
}

/** What the scanner asks of the file system (the scanner's own tests pass a fake one). */
interface Files {
  exists: (rel: string) => boolean;
  adr: (number: string) => boolean;
}

const repository: Files = {
  exists: (rel) => existsSync(path.join(ROOT, rel)),
  adr: (number) => readdirSync(path.join(ROOT, 'docs/decisions')).some((f) => f.startsWith(`${number}-`)),
};

/** Paths that are patterns or placeholders rather than files: `{ar,en}`, `*.json`, `<name>`, `…`. */
const isPattern = (p: string) => /[{}*<>…]|\.\.\.|\/\.\w+$/.test(p);

/** A path ends where prose starts: a full stop after it is not part of it. */
const trimPath = (p: string) => p.replace(/[.]+$/, '');

/** Everything wrong with one file's text. `file` is its path from the repository root. */
function scan(file: string, text: string, files: Files = repository): Finding[] {
  const findings: Finding[] = [];
  const lines = text.split('\n');
  const isMarkdown = file.endsWith('.md');
  const dir = path.posix.dirname(file);
  lines.forEach((lineText, i) => {
    const at = (why: string, matched: string) => findings.push({ file, line: i + 1, text: matched, why });
    if (ALLOWED.some((a) => a.file === file && lineText.trim() === a.line)) return;

    for (const { pattern, why } of OUTSIDE) {
      for (const m of lineText.matchAll(pattern)) at(why, m[0]);
    }

    for (const m of lineText.matchAll(REPO_PATH)) {
      const target = trimPath(m[1]);
      if (isPattern(target) || !/\.\w+$|^docs\//.test(target)) continue;
      if (!files.exists(target)) at('no such file in the repository', target);
    }

    if (isMarkdown) {
      for (const m of lineText.matchAll(MARKDOWN_LINK)) {
        const href = m[1];
        if (/^[a-z][a-z+.-]*:/i.test(href) || href.startsWith('#')) continue;
        // Information pages link to the site's own pages (`/en/terms`), not to files.
        if (href.startsWith('/') && file.startsWith('content/')) continue;
        const target = path.posix.normalize(path.posix.join(dir, decodeURI(href.split('#')[0])));
        if (!files.exists(target)) at('the link points to no file', href);
      }
    }

    for (const m of lineText.matchAll(ADR)) {
      if (!files.adr(m[1])) at('no such ADR in docs/decisions/', m[0]);
    }
  });
  return findings;
}

function format(findings: Finding[]): string {
  return findings.map((f) => `${f.file}:${f.line}: ${f.text} — ${f.why}`).join('\n');
}

describe('references in the repository', () => {
  it('cite only files that are in the repository', () => {
    const files: string[] = [];
    for (const rel of SCANNED) walk(rel, files);
    expect(files.length).toBeGreaterThan(100);
    const findings = files.filter((f) => f !== SELF).flatMap((f) => scan(f, readFileSync(path.join(ROOT, f), 'utf8')));
    const help =
      'Point each at the repository file that holds the rule (docs/README.md lists them), or say the ' +
      'reason in place; a path must name an existing file.';
    if (findings.length > 0) expect.fail(`${findings.length} reference(s) to fix:\n${format(findings)}\n${help}`);
  });

  it('every allowed exception still exists (remove it once its line is gone)', () => {
    for (const a of ALLOWED) {
      const lines = readFileSync(path.join(ROOT, a.file), 'utf8')
        .split('\n')
        .map((l) => l.trim());
      expect(lines, `${a.file}: ${a.line}`).toContain(a.line);
    }
  });
});

describe('the scanner', () => {
  const none: Files = { exists: () => false, adr: () => false };
  const all: Files = { exists: () => true, adr: () => true };

  it('finds references to documents outside the repository, with their line', () => {
    const text = [
      '// The ad page (PRODUCT.md §3, issue 4 §4).',
      '// fine: docs/product/ads.md',
      '/** Rules of seed §5; see DESIGN.md and SPEC-seed.md, Issue 12, issues 4 and issue-5. */',
    ].join('\n');
    const found = scan('app/x.ts', text, all);
    expect(found.map((f) => `${f.line} ${f.text}`)).toEqual([
      '1 PRODUCT.md',
      '1 issue 4',
      '3 DESIGN.md',
      '3 SPEC-seed',
      '3 seed §',
      '3 Issue 12',
      '3 issues 4',
      '3 issue-5',
    ]);
  });

  it('finds paths and markdown links to files that do not exist', () => {
    const text = '// see docs/product/nothing.md and server/domain/gone.ts.\n[ADR 0009](../decisions/0009-x.md)';
    const found = scan('docs/product/a.md', text, none);
    expect(format(found)).toBe(
      [
        'docs/product/a.md:1: docs/product/nothing.md — no such file in the repository',
        'docs/product/a.md:1: server/domain/gone.ts — no such file in the repository',
        'docs/product/a.md:2: ../decisions/0009-x.md — the link points to no file',
        'docs/product/a.md:2: ADR 0009 — no such ADR in docs/decisions/',
      ].join('\n'),
    );
  });

  it('leaves patterns, external links, anchors and standards alone', () => {
    const text = [
      '`app/i18n/locales/{ar,en}/*.json` and [site](https://example.com) and [top](#top)',
      '// An issuer identifier (OpenID Connect Discovery §2); the session 8 cookie',
    ].join('\n');
    expect(scan('docs/a.md', text, none)).toEqual([]);
  });
});
