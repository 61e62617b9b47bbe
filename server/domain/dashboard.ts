// The back-office dashboard: figures about members and contact messages.

import { dayOf, timestampValue } from '../db/dates.ts';
import type { DatabaseHandle } from '../db/index.ts';
import { toIso, toNumber } from '../db/values.ts';

export interface DayCount {
  day: string;
  count: number;
}

export interface Dashboard {
  members: { total: number; last7Days: number; perDay: DayCount[] };
  contact: {
    unread: number;
    latest: { id: number; name: string; subject: string; created_at: string; status: string }[];
  };
}

/** The last `days` calendar days (UTC), oldest first, zero-filled. */
export function lastDays(days: number, now = new Date()): string[] {
  const out: string[] = [];
  for (let i = days - 1; i >= 0; i--) {
    out.push(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - i)).toISOString().slice(0, 10),
    );
  }
  return out;
}

export async function loadDashboard({ db, dialect }: DatabaseHandle, now = new Date()): Promise<Dashboard> {
  const days = lastDays(14, now);
  const since = new Date(`${days[0]}T00:00:00.000Z`);
  const weekAgo = new Date(`${days[days.length - 7]}T00:00:00.000Z`);
  const [total, perDayRows, unread, latest] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select([dayOf(dialect, 'created_at').as('day'), (eb) => eb.fn.countAll().as('n')])
      .where('created_at', '>=', timestampValue(dialect, since))
      .groupBy(dayOf(dialect, 'created_at'))
      .execute(),
    db
      .selectFrom('contact_messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('status', '=', 'new')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('contact_messages')
      .select(['id', 'name', 'subject', 'created_at', 'status'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(5)
      .execute(),
  ]);
  const byDay = new Map(perDayRows.map((r) => [r.day, toNumber(r.n)]));
  const perDay = days.map((day) => ({ day, count: byDay.get(day) ?? 0 }));
  return {
    members: {
      total: toNumber(total.n),
      last7Days: perDay.filter((d) => d.day >= weekAgo.toISOString().slice(0, 10)).reduce((a, d) => a + d.count, 0),
      perDay,
    },
    contact: {
      unread: toNumber(unread.n),
      latest: latest.map((m) => ({ ...m, created_at: toIso(m.created_at) })),
    },
  };
}
