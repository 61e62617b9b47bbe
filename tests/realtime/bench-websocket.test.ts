// The realtime bench's own WebSocket client (scripts/lib/bench-websocket.ts) against the `ws`
// server library: what the bench's figures stand on must read every frame as a browser would —
// several frames in one read, a frame split over reads, fragmented messages, 16- and 64-bit
// lengths — answer pings, mask what it sends, and carry the close code.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { BenchSocket } from '../../scripts/lib/bench-websocket.ts';

let server: http.Server;
let wss: WebSocketServer;
let url: string;
/** What the test does with each server-side socket as it connects. */
let onConnection: (ws: WebSocket, socket: Socket) => void = () => {};

beforeAll(async () => {
  server = http.createServer((_req, res) => res.writeHead(426).end());
  wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on('upgrade', (req, socket, head) => {
    if (req.url === '/refuse') {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, socket as Socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/app/key?protocol=7`;
});

afterAll(async () => {
  wss.close();
  await new Promise((resolve) => server.close(resolve));
});

/** Opens a bench socket; resolves with it and the server's side once the handshake is done. */
function connect(): Promise<{ client: BenchSocket; peer: WebSocket; socket: Socket; received: string[] }> {
  return new Promise((resolve, reject) => {
    const received: string[] = [];
    let peer: WebSocket | undefined;
    let socket: Socket | undefined;
    let open = false;
    const client = new BenchSocket({ url });
    const done = () => {
      if (peer && socket && open) resolve({ client, peer, socket, received });
    };
    onConnection = (ws, raw) => {
      peer = ws;
      socket = raw;
      done();
    };
    client.onmessage = (text) => received.push(text);
    client.onerror = reject;
    client.onopen = () => {
      open = true;
      done();
    };
  });
}

it('reads frames many to a read, split across reads, fragmented, and of every length form', async () => {
  const { client, peer, socket, received } = await connect();
  // Three frames in one write: one read holds them all.
  socket.cork();
  for (const text of ['{"event":"a"}', 'مرحبا', '{"event":"c"}']) peer.send(text);
  socket.uncork();
  // A message in three fragments.
  peer.send('one ', { fin: false });
  peer.send('two ', { fin: false });
  peer.send('three', { fin: true });
  // A 16-bit length and a 64-bit length, the latter larger than one read.
  const medium = 'م'.repeat(300);
  const large = 'x'.repeat(300 * 1024);
  peer.send(medium);
  peer.send(large);
  await expect.poll(() => received.length, { timeout: 5_000 }).toBe(6);
  expect(received.slice(0, 4)).toEqual(['{"event":"a"}', 'مرحبا', '{"event":"c"}', 'one two three']);
  expect(received[4]).toBe(medium);
  expect(received[5]).toHaveLength(large.length);
  expect(received[5]).toBe(large);
  client.terminate();
});

it('masks what it sends, answers pings and carries the close code', async () => {
  const { client, peer } = await connect();
  const heard: string[] = [];
  peer.on('message', (data) => heard.push(String(data)));
  const pong = new Promise<string>((resolve) => peer.once('pong', (data) => resolve(String(data))));
  client.send('{"event":"pusher:ping","data":{}}');
  client.send('السلام عليكم');
  peer.ping('are you there');
  expect(await pong).toBe('are you there');
  await expect.poll(() => heard.length, { timeout: 5_000 }).toBe(2);
  // `ws` refuses an unmasked client frame (it closes with 1002): both arrived as sent.
  expect(heard).toEqual(['{"event":"pusher:ping","data":{}}', 'السلام عليكم']);
  peer.close(4200, 'Server is restarting: reconnect');
  expect(await client.closed).toBe(4200);
  expect(client.isClosed).toBe(true);
});

it('closes on its side with a close handshake', async () => {
  const { client, peer } = await connect();
  const code = new Promise<number>((resolve) => peer.once('close', (c) => resolve(c)));
  client.close(1000);
  expect(await code).toBe(1000);
  expect(await client.closed).toBe(1000);
});

it('refuses an upgrade that is not answered 101', async () => {
  const client = new BenchSocket({ url: url.replace(/\/app\/.*$/, '/refuse') });
  const error = await new Promise<Error>((resolve) => {
    client.onerror = resolve;
  });
  expect(error.message).toBe('handshake answered 403');
  expect(await client.closed).toBe(1006);
});
