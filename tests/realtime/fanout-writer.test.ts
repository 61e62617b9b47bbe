// The channel fan-out through the native writer (server/realtime/native/fanout-writer.c, loaded by
// server/realtime/fanout-writer.ts, used by RealtimeServer's `deliver`) and without it: every
// subscriber gets every frame once, whole and in order, when a subscriber stops reading and its
// kernel buffer fills mid-frame, while later frames queue behind the remainder, and beside a socket
// that was reset; bad arguments to the writer are a TypeError, not a crash.
import { describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { FanoutWriter } from '../../server/realtime/fanout-writer.ts';
import { testFanoutWriter } from './support/fanout-writer.ts';
import { frames, sleep, startTestServer, type TestServer, until } from './support/server.ts';

const native = testFanoutWriter();

/** The native writer, noting what each call was given and what each socket took. */
function watched() {
  const calls: { sockets: number; length: number; written: number[] }[] = [];
  const writer: FanoutWriter = {
    writeEach(fds, frame, written) {
      native.writeEach(fds, frame, written);
      calls.push({ sockets: fds.length, length: frame.length, written: [...written] });
    },
  };
  return { writer, calls };
}

async function subscriber(server: TestServer, channel: string) {
  const ws = server.raw();
  const got = frames(ws);
  await got.next('pusher:connection_established');
  ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
  await got.next('pusher_internal:subscription_succeeded');
  return { ws, got };
}

/** Event `n`'s data: its number and a filler of Arabic text, over 64 KB every tenth (a 64-bit length). */
function payload(n: number): string {
  const filler = 'سيارة للبيع في طرابلس '.repeat(n % 10 === 9 ? 1800 : 400 + (n % 7) * 37);
  return JSON.stringify({ n, filler });
}

/** The `big` events a subscriber received, checked whole: their numbers in order of arrival. */
function received(list: Record<string, any>[]): number[] {
  return list
    .filter((f) => f.event === 'big')
    .map((f) => {
      expect(f.data).toEqual(JSON.parse(payload(f.data.n)));
      return f.data.n as number;
    });
}

// About 15 MB: more than a paused loopback socket takes (its receive window stays small, the
// send buffer grows to tcp_wmem's 4 MB), so the kernel takes part of a frame and the rest queues.
const COUNT = 600;
const all = Array.from({ length: COUNT }, (_, i) => i);

describe.each([
  ['the native writer', true],
  ['socket.write', false],
] as const)('fan-out through %s', (_label, useNative) => {
  it('a subscriber that stops reading still gets every frame once, whole and in order, after the others', async () => {
    const spy = watched();
    const server = await startTestServer({
      writer: useNative ? spy.writer : null,
      limits: { maxBufferedBytes: 256 * 1024 * 1024 },
    });
    try {
      const reading = await subscriber(server, 'fanout');
      const stalled = await subscriber(server, 'fanout');
      const later = await subscriber(server, 'fanout');
      stalled.ws.pause();
      for (const n of all) {
        await server.rt.trigger({ channels: ['fanout'], name: 'big', data: payload(n) });
        // `later` stops reading partway; `stalled` reads again while frames are still published,
        // so frames are written while its stream still holds bytes the kernel now has room for.
        if (n === 150) later.ws.pause();
        if (n === 450) stalled.ws.resume();
        // A turn of the event loop: the reading subscriber reads, its socket's queue drains.
        await new Promise((resolve) => setImmediate(resolve));
      }
      const bigs = (s: { got: { list: Record<string, any>[] } }) => s.got.list.filter((f) => f.event === 'big').length;
      await until(() => bigs(reading) === COUNT, 10_000, 'the reading subscriber');
      expect(received(reading.got.list)).toEqual(all);
      later.ws.resume();
      for (const s of [stalled, later]) await until(() => bigs(s) >= COUNT, 10_000, 'a stalled subscriber');
      await sleep(100);
      expect(received(stalled.got.list)).toEqual(all);
      expect(received(later.got.list)).toEqual(all);
      if (useNative) {
        // The paths this test is about were taken: the reading subscriber's socket was written
        // directly in every round; each stalled one's kernel buffer took part of a frame, after which
        // its stream queued the rest and the frames after it, until it had drained.
        expect(spy.calls).toHaveLength(COUNT);
        const sockets = spy.calls.map((c) => c.sockets);
        expect(sockets[0]).toBe(3);
        const partial = spy.calls.flatMap((c) => c.written.filter((w) => w < c.length));
        expect(partial.length).toBeGreaterThanOrEqual(2);
        expect(sockets.slice(400, 450)).toContain(1);
        expect(sockets.at(-1)).toBe(2);
      }
    } finally {
      await server.close();
    }
  }, 30_000);

  it('a reset subscriber is dropped; the others get every event and the server goes on', async () => {
    const server = await startTestServer({ writer: useNative ? testFanoutWriter() : null });
    try {
      const a = await subscriber(server, 'reset');
      const b = await subscriber(server, 'reset');
      const gone: WebSocket = (await subscriber(server, 'reset')).ws;
      gone.terminate();
      for (let n = 0; n < 20; n++) {
        await server.rt.trigger({ channels: ['reset'], name: 'small', data: String(n) });
        await sleep(5);
      }
      for (const s of [a, b]) {
        await until(() => s.got.list.filter((f) => f.event === 'small').length === 20, 5000, 'twenty events');
        expect(s.got.list.filter((f) => f.event === 'small').map((f) => f.data)).toEqual(
          Array.from({ length: 20 }, (_, n) => n),
        );
      }
      await until(() => server.rt.connectionCount === 2, 5000, 'the reset socket dropped');
    } finally {
      await server.close();
    }
  });
});

describe('the native writer', () => {
  it('refuses arguments of the wrong kind with a TypeError', () => {
    const fds = new Int32Array([0]);
    const frame = new Uint8Array(4);
    expect(() => native.writeEach('fds' as never, frame, new Int32Array(1))).toThrow(TypeError);
    expect(() => native.writeEach(fds, 'frame' as never, new Int32Array(1))).toThrow(TypeError);
    expect(() => native.writeEach(fds, frame, new Int32Array(0))).toThrow(TypeError);
    expect(() => native.writeEach(new Uint32Array(1) as never, frame, new Int32Array(1))).toThrow(TypeError);
    expect(() => (native.writeEach as (...a: unknown[]) => void)(fds)).toThrow(TypeError);
  });

  it('reports nothing written to a descriptor that is not a socket', () => {
    const written = new Int32Array([7, 7]);
    native.writeEach(new Int32Array([-1, 999_999]), new Uint8Array(16), written);
    expect([...written]).toEqual([0, 0]);
  });
});
