// The rule of docs/decisions/0010-writes-and-side-effects.md, checked over the sources: transactions
// are opened only by withTransaction (server/db/transaction.ts) outside server/db, and mail is sent
// only by the `send-mail` job (server/jobs/app-jobs.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

const offenders = (files: string[], pattern: RegExp, allowed: string[]) =>
  files.filter((f) => !allowed.includes(f) && pattern.test(readFileSync(path.join(root, f), 'utf8')));

describe('writes and side effects', () => {
  const code = [...sources('server'), ...sources('app')].filter((f) => !f.startsWith('server/db/'));

  it('opens transactions only through withTransaction', () => {
    expect(offenders(code, /\.(transaction|startTransaction)\(\)/, [])).toEqual([]);
  });

  it('sends mail only from the send-mail job', () => {
    expect(offenders(code, /\bmailer\.send\(/, ['server/jobs/app-jobs.ts'])).toEqual([]);
  });
});
