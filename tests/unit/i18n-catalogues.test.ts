// Every key exists in Arabic and English; Arabic plurals have all six forms, English one + other.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { namespaces } from '~/i18n/config.ts';
import { PAGE_NAMESPACES, SERVER_NAMESPACES } from '~/i18n/page-namespace.ts';
import { FIREBASE_ERROR_CODES, FIREBASE_MESSAGE_CODES } from '../../server/auth/firebase.ts';
import { OIDC_ERROR_CODES } from '../../server/auth/oidc.ts';

const dir = path.resolve('app/i18n/locales');
const PLURAL = /_(zero|one|two|few|many|other)$/;
const flatten = (o: Record<string, unknown>, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? flatten(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
const load = (locale: string) =>
  Object.fromEntries(
    readdirSync(path.join(dir, locale))
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f.replace('.json', ''), flatten(JSON.parse(readFileSync(path.join(dir, locale, f), 'utf8')))]),
  );

const ar = load('ar');
const en = load('en');

describe('translation catalogues', () => {
  it('have the same namespaces in both languages, all of them declared', () => {
    expect(Object.keys(ar).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(ar).sort()).toEqual([...namespaces].sort());
  });

  for (const ns of Object.keys(ar)) {
    it(`${ns}: every key exists in both languages`, () => {
      const base = (keys: string[]) => [...new Set(keys.map((k) => k.replace(PLURAL, '')))].sort();
      expect(base(ar[ns]), 'keys only in English are missing in Arabic').toEqual(expect.arrayContaining(base(en[ns])));
      expect(base(en[ns]), 'keys only in Arabic are missing in English').toEqual(expect.arrayContaining(base(ar[ns])));
    });

    it(`${ns}: Arabic plurals have all six forms and English plurals one and other`, () => {
      const plurals = new Set([...ar[ns], ...en[ns]].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
      for (const key of plurals) {
        for (const form of ['zero', 'one', 'two', 'few', 'many', 'other']) {
          expect(ar[ns], `ar ${ns}:${key}_${form}`).toContain(`${key}_${form}`);
        }
        for (const form of ['one', 'other']) expect(en[ns], `en ${ns}:${key}_${form}`).toContain(`${key}_${form}`);
      }
    });
  }
});

describe('the catalogue every page loads (app/i18n/page-namespace.ts)', () => {
  const left = [...SERVER_NAMESPACES, ...PAGE_NAMESPACES];
  it.each(['ar', 'en'])('%s: leaves out exactly the server’s and single pages’ namespaces', (locale) => {
    const source = readFileSync(path.resolve(`app/i18n/bundle-${locale}.ts`), 'utf8');
    const excluded = [...source.matchAll(new RegExp(`'!\\./locales/${locale}/([\\w-]+)\\.json'`, 'g'))].map(
      (m) => m[1],
    );
    expect(excluded.sort()).toEqual([...left].sort());
  });

  it('the browser never translates with a server namespace; each page namespace is added by its page', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
      );
    const sources = files(path.resolve('app')).filter((f) => !f.endsWith('.server.ts'));
    for (const ns of SERVER_NAMESPACES) {
      const users = sources.filter((f) => new RegExp(`useT\\('${ns}'\\)|['"\`]${ns}:`).test(readFileSync(f, 'utf8')));
      expect(users, ns).toEqual([]);
    }
    for (const ns of PAGE_NAMESPACES) {
      const users = sources.filter((f) => readFileSync(f, 'utf8').includes(`useT('${ns}')`));
      expect(users.length, ns).toBeGreaterThan(0);
      for (const f of users) expect(readFileSync(f, 'utf8'), f).toContain(`usePageNamespace('${ns}'`);
    }
  });
});

describe('sign-in provider errors (docs/product/accounts-and-roles.md)', () => {
  const codes = [
    ...new Set<string>([
      ...FIREBASE_MESSAGE_CODES,
      ...FIREBASE_ERROR_CODES,
      ...OIDC_ERROR_CODES,
      'invalid-verification-code',
      'code-expired',
      'too-many-code-attempts',
      'phone-number-already-exists',
    ]),
  ];
  it.each(codes)('%s has wording in both languages', (code) => {
    for (const words of [ar, en]) {
      expect([...words.errors, ...words.validation]).toContain(code);
    }
  });
});
