import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastDays, loadDashboard } from '../../server/domain/dashboard.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('dashboard figures on %s', (dialect) => {
  let t: TestDatabase;
  const now = new Date('2026-11-21T12:00:00Z');
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    const at = (iso: string) => (dialect === 'postgres' ? new Date(iso) : iso);
    const users = [
      ['u1', '2026-11-21T08:00:00.000Z'],
      ['u2', '2026-11-21T09:00:00.000Z'],
      ['u3', '2026-11-18T23:59:00.000Z'],
      ['u4', '2026-11-01T10:00:00.000Z'],
    ];
    for (const [id, created] of users) {
      await t.db
        .insertInto('users')
        .values({
          id,
          name: id,
          email: `${id}@example.ly`,
          locale: 'ar',
          created_at: at(created),
          updated_at: at(created),
        } as never)
        .execute();
    }
    await t.db
      .insertInto('contact_messages')
      .values([
        {
          name: 'A',
          email: 'a@x.ly',
          phone: null,
          subject: 'general',
          body: 'one two three four',
          status: 'new',
          locale: 'ar',
          ip: null,
          user_agent: null,
        },
        {
          name: 'B',
          email: 'b@x.ly',
          phone: null,
          subject: 'ad',
          body: 'one two three four',
          status: 'read',
          locale: 'en',
          ip: null,
          user_agent: null,
        },
      ])
      .execute();
  });
  afterAll(() => t.drop());

  it('counts members per UTC day over the last 14 days, zero-filled', async () => {
    const d = await loadDashboard(t, now);
    expect(d.members.total).toBe(4);
    expect(d.members.perDay).toHaveLength(14);
    expect(d.members.perDay[0].day).toBe('2026-11-08');
    expect(d.members.perDay.at(-1)).toEqual({ day: '2026-11-21', count: 2 });
    expect(d.members.perDay.find((x) => x.day === '2026-11-18')?.count).toBe(1);
    expect(d.members.last7Days).toBe(3);
  });

  it('counts unread contact messages and lists the latest', async () => {
    const d = await loadDashboard(t, now);
    expect(d.contact.unread).toBe(1);
    expect(d.contact.latest.map((m) => m.name).sort()).toEqual(['A', 'B']);
  });

  it('builds the day list across a month boundary', () => {
    expect(lastDays(3, new Date('2026-12-01T05:00:00Z'))).toEqual(['2026-11-29', '2026-11-30', '2026-12-01']);
  });
});
