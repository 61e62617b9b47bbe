// Keyset pages of the back office's lists (server/domain/admin/keyset.ts) on every dialect: every
// row exactly once over all pages, in the sort's order with the id breaking ties, both directions;
// a forged cursor shows the first page; LIKE's wildcards in a search are taken literally.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  containsAny,
  containsPattern,
  decodeCursor,
  encodeCursor,
  keysetPage,
} from '../../server/domain/admin/keyset.ts';
import { insertMember } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('admin keyset pages on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    // 23 members, names with ties (three of each letter) and one with LIKE's wildcards in it.
    for (let i = 0; i < 22; i++)
      await insertMember(t.db, { name: `member ${String.fromCharCode(97 + Math.floor(i / 3))}` });
    await insertMember(t.db, { name: 'under_score 100%' });
  });
  afterAll(() => t.drop());

  const all = async (direction: 'asc' | 'desc', limit: number) => {
    const seen: { id: string; name: string }[] = [];
    let cursor = null;
    for (let guard = 0; guard < 50; guard++) {
      const page = await keysetPage(t.db.selectFrom('users as u').select(['u.id', 'u.name']), {
        column: 'u.name',
        id: 'u.id',
        direction,
        cursor,
        limit,
        keyOf: (row) => ({ value: row.name, id: row.id }),
      });
      seen.push(...page.rows);
      if (!page.next) break;
      cursor = decodeCursor(page.next);
      expect(cursor).not.toBeNull();
    }
    return seen;
  };

  it.each(['asc', 'desc'] as const)('walks every row once, in order (%s)', async (direction) => {
    const rows = await all(direction, 5);
    expect(rows).toHaveLength(23);
    expect(new Set(rows.map((r) => r.id)).size).toBe(23);
    const expected = [...rows].sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1));
    if (direction === 'desc') expected.reverse();
    expect(rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it('a last page that fills its limit has no next page', async () => {
    const page = await keysetPage(t.db.selectFrom('users as u').select(['u.id', 'u.name']), {
      column: 'u.name',
      id: 'u.id',
      direction: 'asc',
      cursor: null,
      limit: 23,
      keyOf: (row) => ({ value: row.name, id: row.id }),
    });
    expect(page.rows).toHaveLength(23);
    expect(page.next).toBeNull();
  });

  it('searches several columns at once', async () => {
    const found = (text: string) =>
      t.db
        .selectFrom('users as u')
        .select('u.name')
        .where(containsAny(['u.phone_number', 'u.name'], text))
        .execute();
    expect((await found('UNDER_score')).map((r) => r.name)).toEqual(['under_score 100%']);
    expect(await found('member_a')).toEqual([]);
    expect(await found('member a')).toHaveLength(3);
  });

  it('finds a search text with % and _ literally', async () => {
    const like = (text: string) =>
      t.db
        .selectFrom('users')
        .select('name')
        .where(sql<boolean>`lower(name) like ${containsPattern(text)} escape '\\'`)
        .execute();
    expect((await like('_score 100%')).map((r) => r.name)).toEqual(['under_score 100%']);
    expect(await like('member_a')).toEqual([]);
    expect(await like('%')).toHaveLength(1);
  });
});

describe('cursors', () => {
  it('round-trip and refuse what is not one', () => {
    expect(decodeCursor(encodeCursor({ value: '2026-01-01', id: 7 }))).toEqual({ value: '2026-01-01', id: 7 });
    for (const bad of [
      '',
      'x',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from('[null,1]').toString('base64url'),
      'a'.repeat(500),
    ]) {
      expect(decodeCursor(bad)).toBeNull();
    }
  });
});
