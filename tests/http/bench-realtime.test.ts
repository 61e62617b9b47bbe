// The realtime section of `npm run bench` (scripts/bench-realtime.ts) at tiny sizes: the built
// server starts as production starts it, the client process connects, subscribes with signatures,
// publishes through the signed HTTP API and counts every delivery. No time is held here (speed is
// the bench's business): what is checked is that each figure measured what it says, every socket
// and every event accounted for; with TEST_REDIS_URL, with the Redis adapter too.
import { expect, it } from 'vitest';
import { benchRealtime, realtimeChecks } from '../../scripts/bench-realtime.ts';

const redis = process.env.TEST_REDIS_URL ?? null;

it('measures every figure and accounts for every socket and event', { timeout: 120_000 }, async () => {
  const sizes = { connections: 120, fanout: 30, rounds: 4, chats: 7, seconds: 1, messages: 20, rate: 100 };
  const runs = await benchRealtime({ ...sizes, redis }, () => {});
  expect(runs.map((r) => r.adapter)).toEqual(redis ? ['local', 'redis'] : ['local']);
  for (const r of runs) {
    // 120 sockets from several client addresses (the server allows 100 per address).
    expect(r.connections).toMatchObject({ opened: 120, failed: 0, errors: [] });
    expect(r.connections.rss_mb).toBeGreaterThan(0);
    expect(r.connections.peak_rss_mb).toBeGreaterThanOrEqual(r.connections.rss_mb);

    expect(r.fanout).toMatchObject({ subscribers: 30, rounds: 4, missing: 0 });
    expect(r.fanout.latency.samples).toBe(30 * 4);
    expect(r.fanout.last.samples).toBe(4);

    const t = r.throughput;
    expect(t.open).toMatchObject({ opened: 14, failed: 0 });
    expect(t.events).toBeGreaterThan(0);
    expect(t.events).toBe(t.requests * t.batch);
    expect(t).toMatchObject({ expected: t.events * 2, delivered: t.events * 2, duplicates: 0, failed_requests: 0 });
    expect(t.latency.samples).toBe(t.delivered);

    expect(r.chat).toMatchObject({ messages: 20, expected: 40, delivered: 40 });
    expect(r.chat.latency.samples).toBe(40);
  }
  const checks = realtimeChecks(runs);
  expect(checks).toHaveLength(4 * runs.length);
  // Tiny sizes are below the targets' sizes: those checks cannot pass whatever the times.
  const sized = checks.filter((c) => /concurrent connections|one event to/.test(c.figure));
  expect(sized).toHaveLength(2 * runs.length);
  expect(sized.every((c) => c.ok === false)).toBe(true);
});
