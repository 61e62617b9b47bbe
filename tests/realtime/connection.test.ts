// The connection: handshake, refusals with the protocol's error codes, ping/pong both ways, idle
// closes, frames the server does not take, connection limits and slow consumers.
import PusherClient from 'pusher-js';
import { afterEach, describe, expect, it } from 'vitest';
import { APP, closed, connected, frames, sleep, startTestServer, type TestServer, waitFor } from './support/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('handshake', () => {
  it('pusher-js connects and gets a socket id "N.N"; connection_established says activity_timeout 120', async () => {
    server = await startTestServer();
    const client = server.client();
    const socketId = await connected(client);
    expect(socketId).toMatch(/^\d+\.\d+$/);
    const ws = server.raw();
    const f = await frames(ws).next();
    expect(f.event).toBe('pusher:connection_established');
    expect(f.data.activity_timeout).toBe(120);
    expect(f.data.socket_id).toMatch(/^\d+\.\d+$/);
    expect(f.data.socket_id).not.toBe(socketId);
  });

  it.each([
    ['an unknown key', '/app/nope?protocol=7', 4001],
    ['no protocol', `/app/${APP.key}`, 4008],
    ['a protocol that is not a number', `/app/${APP.key}?protocol=seven`, 4006],
    ['an unsupported protocol', `/app/${APP.key}?protocol=3`, 4007],
    ['a path below the key', `/app/${APP.key}/more?protocol=7`, 4005],
  ])('refuses %s with pusher:error and close code %i', async (_what, path, code) => {
    server = await startTestServer();
    const ws = server.raw(path);
    const f = frames(ws);
    const error = await f.next('pusher:error');
    expect(error.data.code).toBe(code);
    expect((await closed(ws)).code).toBe(code);
  });

  it('pusher-js gives up (no reconnection) after 4001: no app has that key', async () => {
    server = await startTestServer();
    const wrong = new PusherClient('nope', {
      cluster: 'local',
      wsHost: '127.0.0.1',
      wsPort: server.port,
      forceTLS: false,
      enabledTransports: ['ws'],
    });
    const error = await waitFor<{ error?: { data?: { code?: number } } }>((done) =>
      wrong.connection.bind('error', done),
    );
    expect(error.error?.data?.code).toBe(4001);
    await sleep(1500);
    expect(wrong.connection.state).toBe('disconnected');
    wrong.disconnect();
  });
});

describe('ping and pong', () => {
  it('answers pusher:ping with pusher:pong', async () => {
    server = await startTestServer();
    const ws = server.raw();
    const f = frames(ws);
    await f.next('pusher:connection_established');
    ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    expect((await f.next('pusher:pong')).event).toBe('pusher:pong');
  });

  it('pings a quiet connection, keeps it when it answers, closes it with 4201 when it does not', async () => {
    server = await startTestServer({ limits: { activityTimeoutSeconds: 1, pongTimeoutMs: 400 } });
    const answering = server.raw();
    const silent = server.raw();
    const a = frames(answering);
    const s = frames(silent);
    await a.next('pusher:connection_established');
    await s.next('pusher:connection_established');
    // The test's socket answers transport pings by itself: make the silent one ignore them too.
    silent.pong = () => {};
    (silent as unknown as { _receiver: { removeAllListeners(e: string): void } })._receiver.removeAllListeners('ping');
    await a.next('pusher:ping', 3000);
    answering.send(JSON.stringify({ event: 'pusher:pong', data: {} }));
    const { code } = await closed(silent, 4000);
    expect(code).toBe(4201);
    expect(answering.readyState).toBe(answering.OPEN);
  });

  it('keeps a quiet pusher-js connection alive through pings both ways (same socket after several timeouts)', async () => {
    server = await startTestServer({ limits: { activityTimeoutSeconds: 1, pongTimeoutMs: 500 } });
    // The client too pings after 1 s of silence and gives up after 500 ms without an answer.
    const client = server.client({ activityTimeout: 1000, pongTimeout: 500 });
    const id = await connected(client);
    const states: string[] = [];
    client.connection.bind('state_change', (s: { current: string }) => states.push(s.current));
    await sleep(3200);
    expect(client.connection.state).toBe('connected');
    expect(client.connection.socket_id).toBe(id);
    expect(states).toEqual([]);
  });

  it('closes with 4202 a connection that answers only transport pings for too long', async () => {
    server = await startTestServer({
      limits: { activityTimeoutSeconds: 1, pongTimeoutMs: 300, inactivityCloseMs: 1500 },
    });
    const ws = server.raw();
    const f = frames(ws);
    await f.next('pusher:connection_established');
    await f.next('pusher:ping', 3000);
    const { code } = await closed(ws, 5000);
    expect(code).toBe(4202);
  });
});

describe('frames the server does not take', () => {
  it('answers malformed JSON, non-objects, unknown events and binary frames with pusher:error and stays open', async () => {
    server = await startTestServer();
    const ws = server.raw();
    const f = frames(ws);
    await f.next('pusher:connection_established');
    for (const bad of [
      '{not json',
      '42',
      '[1,2]',
      'null',
      '{"data":{}}',
      '{"event":"pusher:bogus"}',
      '{"event":"nope"}',
    ]) {
      ws.send(bad);
      const e = await f.next('pusher:error');
      expect(e.data.message).toBeTypeOf('string');
    }
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await f.next('pusher:error');
    ws.send(JSON.stringify({ event: 'pusher:subscribe', data: 'not an object' }));
    await f.next('pusher:error');
    ws.send(JSON.stringify({ event: 'pusher:ping' }));
    await f.next('pusher:pong');
    expect(ws.readyState).toBe(ws.OPEN);
  });

  it('closes the connection on a frame larger than maxPayload (1009)', async () => {
    server = await startTestServer({ limits: { maxPayloadBytes: 4096 } });
    const ws = server.raw();
    await frames(ws).next('pusher:connection_established');
    ws.send(JSON.stringify({ event: 'client-x', channel: 'private-a', data: 'x'.repeat(5000) }));
    expect((await closed(ws)).code).toBe(1009);
  });

  it('closes a connection flooding frames (4100)', async () => {
    server = await startTestServer({ limits: { framesPerSecond: 20 } });
    const ws = server.raw();
    await frames(ws).next('pusher:connection_established');
    for (let i = 0; i < 50; i++) ws.send(JSON.stringify({ event: 'pusher:ping' }));
    expect((await closed(ws)).code).toBe(4100);
  });
});

describe('limits', () => {
  it('refuses connections over the per-process limit with 4100', async () => {
    server = await startTestServer({ limits: { maxConnections: 2 } });
    const a = frames(server.raw());
    const b = frames(server.raw());
    await a.next('pusher:connection_established');
    await b.next('pusher:connection_established');
    const ws = server.raw();
    expect((await frames(ws).next('pusher:error')).data.code).toBe(4100);
    expect((await closed(ws)).code).toBe(4100);
  });

  it('refuses connections over the per-address limit with 4100, counting the forwarded address behind a proxy', async () => {
    server = await startTestServer({ limits: { maxConnectionsPerIp: 1 }, trustProxy: 1 });
    const { default: WebSocket } = await import('ws');
    const url = `ws://127.0.0.1:${server.port}/app/${APP.key}?protocol=7`;
    const open = (ip: string) => new WebSocket(url, { headers: { 'x-forwarded-for': ip } });
    const first = open('10.0.0.1');
    const other = open('10.0.0.2');
    await frames(first).next('pusher:connection_established');
    await frames(other).next('pusher:connection_established');
    const second = open('10.0.0.1');
    expect((await closed(second)).code).toBe(4100);
    first.close();
    await closed(first);
    await sleep(50);
    const again = open('10.0.0.1');
    await frames(again).next('pusher:connection_established');
    for (const w of [other, again]) w.terminate();
  });

  it('closes a slow consumer whose unsent data passes the limit (4100)', async () => {
    server = await startTestServer({ limits: { maxBufferedBytes: 256 * 1024 } });
    const ws = server.raw();
    const f = frames(ws);
    await f.next('pusher:connection_established');
    ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'news' } }));
    await f.next('pusher_internal:subscription_succeeded');
    // Stop reading: the kernel buffers fill, then the server's.
    (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const data = 'x'.repeat(9000);
    for (let i = 0; i < 3000 && server.rt.connectionCount > 0; i++) {
      await server.rt.trigger({ channels: ['news'], name: 'big', data });
      if (i % 100 === 0) await sleep(1);
    }
    (ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect((await closed(ws, 10_000)).code).toBe(4100);
  });
});
