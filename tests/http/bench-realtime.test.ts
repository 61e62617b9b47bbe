// The realtime section of `npm run bench` (scripts/bench-realtime.ts) at tiny sizes: the built
// server starts as production starts it, the client process connects, subscribes with signatures,
// publishes through the signed HTTP API and counts every delivery; then members sign in through the
// app, a seller places an ad, buyers start chats and write through the chat API, and every message
// is counted on each page that should show it. No time is held here (speed is the bench's
// business): what is checked is that each figure measured what it says, every socket, message and
// delivery accounted for; with TEST_REDIS_URL, with the Redis adapter too.
import { expect, it } from 'vitest';
import { benchRealtime, realtimeChecks } from '../../scripts/bench-realtime.ts';

const redis = process.env.TEST_REDIS_URL ?? null;

it('measures every figure and accounts for every socket and event', { timeout: 120_000 }, async () => {
  const sizes = { connections: 120, fanout: 30, rounds: 4, chats: 7, seconds: 1, pairs: 3, messages: 20, rate: 100 };
  const runs = await benchRealtime({ ...sizes, redis }, () => {});
  expect(runs.map((r) => r.adapter)).toEqual(redis ? ['local', 'redis'] : ['local']);
  for (const r of runs) {
    // 120 sockets from several client addresses (the server allows 100 per address).
    expect(r.connections).toMatchObject({ opened: 120, failed: 0, errors: [] });
    expect(r.connections.rss_mb).toBeGreaterThan(0);
    expect(r.connections.peak_rss_mb).toBeGreaterThanOrEqual(r.connections.rss_mb);

    expect(r.fanout).toMatchObject({ subscribers: 30, rounds: 4, missing: 0 });
    expect(r.fanout.latency.samples).toBe(30 * 4);
    expect(r.fanout.first.samples).toBe(4);
    expect(r.fanout.last.samples).toBe(4);
    expect(r.fanout.first.p50_ms).toBeLessThanOrEqual(r.fanout.last.p50_ms);
    // The native reader read it (.ci/run installs a C compiler), so the floor was measured on the same sizes.
    expect(r.fanout.reader).toBe('native');
    // The server wrote it with its native writer: the test run builds it beside the server
    // (scripts/build-native.ts, with the same compiler).
    expect(r.writer).toBe('native');
    expect(r.fanout_floor).toMatchObject({ subscribers: 30, rounds: 4, missing: 0, duplicates: 0 });
    expect(r.fanout_floor?.latency.samples).toBe(30 * 4);

    const t = r.throughput;
    expect(t.open).toMatchObject({ opened: 14, failed: 0 });
    expect(t.events).toBeGreaterThan(0);
    expect(t.events).toBe(t.requests * t.batch);
    expect(t).toMatchObject({ expected: t.events * 2, delivered: t.events * 2, duplicates: 0, failed_requests: 0 });
    expect(t.latency.samples).toBe(t.delivered);

    expect(r.trigger).toMatchObject({ messages: 20, expected: 40, delivered: 40 });
    expect(r.trigger.latency.samples).toBe(40);

    // The chat figure: a seller and three buyers, each buyer's chat open on both sides (two
    // sockets a chat) and the seller's chat list (one more).
    const c = r.chat;
    expect(c.setup).toMatchObject({ pairs: 3, members: 4 });
    expect(c.setup.ad_id).toBeGreaterThan(0);
    expect(c.setup.sign_in.samples).toBe(4);
    expect(c.setup.open).toMatchObject({ opened: 7, failed: 0, errors: [] });
    // Every message stored by the API, shown once in the seller's thread and chat list, and twice
    // (thread and own channel) in the buyer's, nothing on a socket of another chat.
    expect(c).toMatchObject({ pairs: 3, messages: 20, stored: 20, statuses: {}, errors: [] });
    expect(c.shown).toMatchObject({ expected: 20, delivered: 20, duplicates: 0, misrouted: 0 });
    expect(c.inbox).toMatchObject({ expected: 20, delivered: 20, duplicates: 0, misrouted: 0 });
    expect(c.echo).toMatchObject({ expected: 40, delivered: 40, duplicates: 0, misrouted: 0 });
    expect(c.shown.latency.samples).toBe(20);
    expect(c.inbox.latency.samples).toBe(20);
    expect(c.call.samples).toBe(20);
  }
  const checks = realtimeChecks(runs);
  expect(checks).toHaveLength(4 * runs.length);
  // Tiny sizes are below the targets' sizes: those checks cannot pass whatever the times.
  const sized = checks.filter((c) => /concurrent connections|one event to/.test(c.figure));
  expect(sized).toHaveLength(2 * runs.length);
  expect(sized.every((c) => c.ok === false)).toBe(true);
  // The fan-out's check names the floor beside the server's figure.
  expect(
    checks.filter((c) => c.figure.includes('one event to')).every((c) => /floor.*p95 [\d.]+ ms/.test(c.measured)),
  ).toBe(true);
  expect(
    checks
      .filter((c) => c.figure.includes('one event to'))
      .every((c) => /written by the native writer/.test(c.measured)),
  ).toBe(true);
});

it('refuses chat sizes past what a member may send (the per-member rate limit)', async () => {
  // 60 messages in one chat are 61 of its buyer's, with the first: over the 60 in ten minutes.
  await expect(benchRealtime({ pairs: 1, messages: 60 }, () => {})).rejects.toThrow(
    /61 messages a buyer, over the 60 a member may send in 10 minutes: raise --rt-pairs to at least 2/,
  );
});
