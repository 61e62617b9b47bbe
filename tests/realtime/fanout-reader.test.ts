// The realtime bench's native fan-out reader (scripts/lib/fanout-reader.c, driven through
// scripts/lib/fanout-reader.ts): what the fan-out figure stands on must subscribe as a Pusher client
// does, time every subscriber's receipt of a round once and on Node's clock, and read frames as a
// browser would: several to a read, split across reads, of every length form, pings answered.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { buildFanoutReader, FanoutReader, type FanoutReaderOptions } from '../../scripts/lib/fanout-reader.ts';
import { APP, sleep, startTestServer, type TestServer } from './support/server.ts';

let program: string;
let reader: FanoutReader | undefined;

beforeAll(async () => {
  program = await buildFanoutReader();
}, 60_000);

afterEach(async () => {
  await reader?.stop();
  reader = undefined;
});

/** Starts the reader on `bench.fanout`, 10 sockets an address unless told otherwise. */
function startReader(
  o: Pick<FanoutReaderOptions, 'url' | 'count' | 'channel' | 'sign'> & Partial<FanoutReaderOptions>,
): Promise<FanoutReader> {
  return FanoutReader.start({ program, appKey: APP.key, event: 'bench.fanout', perAddress: 10, ...o });
}

describe('against the embedded realtime server', () => {
  let server: TestServer;
  afterEach(async () => server?.close());

  it('subscribes every socket with the signature it is given and times each receipt of a round once', async () => {
    server = await startTestServer();
    const signed: string[] = [];
    reader = await startReader({
      url: `http://127.0.0.1:${server.port}`,
      count: 30,
      channel: 'private-fanout',
      sign: (socketId, channel) => {
        signed.push(socketId);
        return server.sdk.authorizeChannel(socketId, channel).auth;
      },
    });
    expect(new Set(signed).size).toBe(30);
    const channel = await server.sdk.get({ path: '/channels/private-fanout', params: { info: 'subscription_count' } });
    expect(((await channel.json()) as { subscription_count: number }).subscription_count).toBe(30);

    for (let round = 0; round < 3; round++) {
      reader.expect(round);
      // Another event, and this event with another round's data: neither is a receipt.
      await server.sdk.trigger('private-fanout', 'other', String(round));
      await server.sdk.trigger('private-fanout', 'bench.fanout', String(round + 100));
      const t0 = process.hrtime.bigint();
      await server.sdk.trigger('private-fanout', 'bench.fanout', String(round));
      const got = await reader.receipts(5_000);
      const t1 = process.hrtime.bigint();
      expect(got.round).toBe(round);
      expect(got.times).toHaveLength(30);
      expect(got.duplicates).toBe(0);
      // The reader's clock is Node's: every receipt falls between the publish call and its report.
      for (const t of got.times) {
        expect(t).toBeGreaterThan(t0);
        expect(t).toBeLessThan(t1);
      }
    }

    // A round nobody publishes: after the wait, what it has (nothing).
    reader.expect(7);
    expect(await reader.receipts(200)).toEqual({ round: 7, times: [], duplicates: 0 });
  });

  it('fails with the reason when the subscription is refused', async () => {
    server = await startTestServer();
    const start = startReader({
      url: `http://127.0.0.1:${server.port}`,
      count: 1,
      channel: 'private-fanout',
      sign: () => `${APP.key}:not-a-signature`,
    });
    await expect(start).rejects.toThrow(/exited with 1: .*subscription_error/);
  });

  it('answers the server’s pings, so its sockets outlive the activity timeout', async () => {
    server = await startTestServer({ limits: { activityTimeoutSeconds: 1, pongTimeoutMs: 400 } });
    reader = await startReader({
      url: `http://127.0.0.1:${server.port}`,
      count: 3,
      channel: 'private-fanout',
      sign: (socketId, channel) => server.sdk.authorizeChannel(socketId, channel).auth,
    });
    // Two activity timeouts and more: a socket that did not answer would be closed (4201) and the
    // reader would exit.
    await sleep(3_000);
    reader.expect(1);
    await server.sdk.trigger('private-fanout', 'bench.fanout', '1');
    expect((await reader.receipts(5_000)).times).toHaveLength(3);
  });
});

describe('frames', () => {
  let httpServer: http.Server;
  let wss: WebSocketServer;
  let url: string;
  /** Each connection's WebSocket and raw socket, once subscribed. */
  const peers: { ws: WebSocket; socket: Socket }[] = [];

  beforeAll(async () => {
    httpServer = http.createServer((_req, res) => res.writeHead(426).end());
    wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
    let next = 1;
    httpServer.on('upgrade', (req, socket, head) => {
      wss.handleUpgrade(req, socket, head, (ws) => {
        const id = `${next++}.1`;
        ws.send(JSON.stringify({ event: 'pusher:connection_established', data: JSON.stringify({ socket_id: id }) }));
        ws.on('message', (raw) => {
          const m = JSON.parse(String(raw)) as { event: string; data: { channel: string; auth: string } };
          if (m.event !== 'pusher:subscribe') return;
          expect(m.data.auth).toBe(fakeSign(id, m.data.channel));
          ws.send(JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel: m.data.channel }));
          peers.push({ ws, socket: socket as Socket });
        });
      });
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    wss.close();
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  });

  /** What this server takes as a subscription's signature. */
  const fakeSign = (socketId: string, channel: string) => `signed:${socketId}:${channel}`;

  /** A server frame (unmasked, final) of a text message. */
  function textFrame(text: string): Buffer {
    const payload = Buffer.from(text);
    const n = payload.length;
    const header = n < 126 ? Buffer.from([0x81, n]) : Buffer.alloc(n < 65536 ? 4 : 10);
    if (n >= 126 && n < 65536) {
      header[0] = 0x81;
      header[1] = 126;
      header.writeUInt16BE(n, 2);
    } else if (n >= 65536) {
      header[0] = 0x81;
      header[1] = 127;
      header.writeBigUInt64BE(BigInt(n), 2);
    }
    return Buffer.concat([header, payload]);
  }
  const round = (r: number, padding = '') =>
    JSON.stringify({ event: 'bench.fanout', channel: 'private-x', data: String(r), padding });

  it('reads frames several to a read, split across reads, with 16- and 64-bit lengths, and counts repeats', async () => {
    peers.length = 0;
    reader = await startReader({ url, count: 4, channel: 'private-x', perAddress: 2, sign: fakeSign });
    expect(peers).toHaveLength(4);
    const [a, b, c, d] = peers as [(typeof peers)[0], (typeof peers)[0], (typeof peers)[0], (typeof peers)[0]];

    reader.expect(5);
    // a: three frames in one write, the round's in the middle, and the round again: a repeat.
    a.socket.write(Buffer.concat([textFrame(round(4)), textFrame(round(5)), textFrame('{"event":"other"}')]));
    a.socket.write(textFrame(round(5)));
    // b: the round's frame with a 16-bit length, split in three writes, the cut inside the header.
    const medium = textFrame(round(5, 'م'.repeat(200)));
    b.socket.write(medium.subarray(0, 1));
    await sleep(30);
    b.socket.write(medium.subarray(1, 50));
    await sleep(30);
    b.socket.write(medium.subarray(50));
    // c: a 300 KB frame (64-bit length, more than one read) before the round's.
    c.socket.write(
      Buffer.concat([textFrame(`{"event":"big","data":"${'x'.repeat(300 * 1024)}"}`), textFrame(round(5))]),
    );
    // d: a ping first, then the round: the pong comes back with its payload.
    const pong = new Promise<string>((resolve) => d.ws.once('pong', (data) => resolve(String(data))));
    d.ws.ping('still there?');
    expect(await pong).toBe('still there?');
    d.ws.send(round(5));

    const got = await reader.receipts(5_000);
    expect(got.round).toBe(5);
    expect(got.times).toHaveLength(4);
    expect(got.duplicates).toBe(1);
  });

  it('answers pusher:ping with pusher:pong, masked', async () => {
    peers.length = 0;
    reader = await startReader({ url, count: 1, channel: 'private-y', perAddress: 2, sign: fakeSign });
    const [peer] = peers as [(typeof peers)[0]];
    // `ws` refuses an unmasked client frame (it closes with 1002): the answer arriving is the check.
    const answer = new Promise<string>((resolve) => peer.ws.once('message', (raw) => resolve(String(raw))));
    peer.ws.send('{"event":"pusher:ping","data":{}}');
    expect(JSON.parse(await answer)).toEqual({ event: 'pusher:pong', data: {} });
  });
});

describe('the floor (--floor): its own C writer in the server’s place', () => {
  it('opens its connections, writes each round to every one once, and times the receipts on Node’s clock', async () => {
    reader = await FanoutReader.floor({ program, count: 40, channel: 'private-bench-fanout', event: 'bench.fanout' });
    expect(reader.writerPid).toEqual(expect.any(Number));
    expect(reader.writerPid).not.toBe(reader.pid);
    for (let round = 0; round < 3; round++) {
      const t0 = process.hrtime.bigint();
      reader.publish(round);
      const got = await reader.receipts(5_000);
      const t1 = process.hrtime.bigint();
      expect(got).toMatchObject({ round, duplicates: 0 });
      expect(got.times).toHaveLength(40);
      for (const t of got.times) {
        expect(t).toBeGreaterThan(t0);
        expect(t).toBeLessThan(t1);
      }
    }
  });

  it('stops its writer with it', async () => {
    reader = await FanoutReader.floor({ program, count: 5, channel: 'private-x', event: 'bench.fanout' });
    const writer = reader.writerPid as number;
    await reader.stop();
    reader = undefined;
    expect(() => process.kill(writer, 0)).toThrow();
  });
});
