import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite, toSqliteValue } from '../../server/db/sqlite.ts';

describe('node:sqlite adapter', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'souq-sqlite-'));
  const db = openSqlite(path.join(dir, 'a.db'));
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens with WAL, foreign keys and a busy timeout', () => {
    expect(db.raw.prepare('pragma journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.raw.prepare('pragma foreign_keys').get()).toEqual({ foreign_keys: 1 });
    expect(Number(Object.values(db.raw.prepare('pragma busy_timeout').get() ?? {})[0])).toBeGreaterThanOrEqual(5000);
  });
  it('binds Dates as ISO text and booleans as 0/1, and refuses undefined', () => {
    expect(toSqliteValue(new Date('2026-01-02T03:04:05Z'), 0)).toBe('2026-01-02T03:04:05.000Z');
    expect(toSqliteValue(true, 0)).toBe(1);
    expect(toSqliteValue(false, 0)).toBe(0);
    expect(() => toSqliteValue(undefined, 2)).toThrow(/parameter 3/);
    expect(() => toSqliteValue(new Date('nope'), 0)).toThrow(/invalid Date/);
  });
  it('has FTS5 and R*Tree built in', () => {
    db.raw.exec("create virtual table f using fts5(body); insert into f values ('سيارة تويوتا')");
    expect(db.raw.prepare("select count(*) n from f where f match 'تويوتا'").get()).toEqual({ n: 1 });
    db.raw.exec('create virtual table r using rtree(id, minx, maxx, miny, maxy)');
  });
});
