// A realtime server started for a test: the embedded server on a Node HTTP server of its own, on a
// free loopback port, with the real adapters; clients are the official pusher-js (Node build) and
// the official `pusher` server SDK, as an app and a browser would use them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Pusher from 'pusher';
import PusherClient from 'pusher-js';
import WebSocket from 'ws';
import type { Adapter } from '../../../server/realtime/adapter.ts';
import type { FanoutWriter } from '../../../server/realtime/fanout-writer.ts';
import { apiHandler } from '../../../server/realtime/http-api.ts';
import type { RealtimeLimits } from '../../../server/realtime/protocol.ts';
import { RealtimeServer } from '../../../server/realtime/server.ts';
import { testFanoutWriter } from './fanout-writer.ts';

export const APP = { id: 'test-app', key: 'test-key', secret: 'test-secret-0123456789' };
/** 32 bytes, base64: end-to-end encryption key of the `pusher` SDK for private-encrypted channels. */
export const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

export interface TestServer {
  rt: RealtimeServer;
  http: Server;
  port: number;
  /** The official server SDK, pointed at this server. */
  sdk: Pusher;
  /** A pusher-js client whose authoriser signs with the SDK (the app's auth endpoint's job). */
  client(options?: ClientOptions): PusherClient;
  /** A raw WebSocket to /app/{key}?protocol=7 (or `path`). */
  raw(path?: string): WebSocket;
  close(): Promise<void>;
}

export interface ClientOptions {
  /** Presence identity signed into the channel auth. */
  user?: { user_id: string; user_info?: Record<string, unknown> };
  /** Sign with another secret (a wrong signature). */
  wrongSecret?: boolean;
  /** pusher-js timeouts (ms), e.g. to make a missing pong show within a test. */
  activityTimeout?: number;
  pongTimeout?: number;
}

export async function startTestServer(
  options: {
    limits?: Partial<RealtimeLimits>;
    adapter?: Adapter;
    trustProxy?: number;
    userOfChannel?: (channel: string) => string | null;
    /** Default: the native writer, as the built app runs; null: one `socket.write` a socket. */
    writer?: FanoutWriter | null;
  } = {},
): Promise<TestServer> {
  const rt = new RealtimeServer({
    app: APP,
    adapter: options.adapter,
    writer: options.writer === undefined ? testFanoutWriter() : options.writer,
    limits: options.limits,
    trustProxy: options.trustProxy,
    userOfChannel: options.userOfChannel,
  });
  await rt.start();
  const api = apiHandler(rt);
  const http = createServer((req, res) => {
    if (!api(req, res)) {
      res.writeHead(404).end();
    }
  });
  http.on('upgrade', (req, socket, head) => {
    if (!rt.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  const sdk = new Pusher({
    appId: APP.id,
    key: APP.key,
    secret: APP.secret,
    host: '127.0.0.1',
    port: String(port),
    useTLS: false,
    encryptionMasterKeyBase64: MASTER_KEY,
  });
  const clients: PusherClient[] = [];
  const raws: WebSocket[] = [];
  return {
    rt,
    http,
    port,
    sdk,
    client(opts = {}) {
      const signer = opts.wrongSecret
        ? new Pusher({
            appId: APP.id,
            key: APP.key,
            secret: 'not-the-secret-0000',
            host: '127.0.0.1',
            encryptionMasterKeyBase64: MASTER_KEY,
          })
        : sdk;
      const client = new PusherClient(APP.key, {
        cluster: 'local',
        wsHost: '127.0.0.1',
        wsPort: port,
        forceTLS: false,
        enabledTransports: ['ws'],
        disableStats: true,
        ...(opts.activityTimeout ? { activityTimeout: opts.activityTimeout } : {}),
        ...(opts.pongTimeout ? { pongTimeout: opts.pongTimeout } : {}),
        channelAuthorization: {
          endpoint: '',
          transport: 'ajax',
          customHandler: (params, callback) => {
            try {
              const presence = params.channelName.startsWith('presence-') ? opts.user : undefined;
              callback(null, signer.authorizeChannel(params.socketId, params.channelName, presence) as never);
            } catch (err) {
              callback(err as Error, null);
            }
          },
        },
      });
      clients.push(client);
      return client;
    },
    raw(path = `/app/${APP.key}?protocol=7&client=test`) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
      raws.push(ws);
      return ws;
    },
    async close() {
      for (const c of clients) c.disconnect();
      for (const w of raws) w.terminate();
      await rt.drain();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Resolves with the first value `register` hands its callback, or rejects after `ms`. */
export function waitFor<T>(register: (done: (value: T) => void) => void, ms = 3000, what = 'event'): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    register((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/** Resolves once `check` holds (asked every 20 ms), or rejects after `ms` naming `what`. */
export function until(check: () => boolean | Promise<boolean>, ms = 3000, what = 'condition') {
  return waitFor<true>(
    (done) => {
      const poll = async () => ((await check()) ? done(true) : setTimeout(poll, 20));
      void poll();
    },
    ms,
    what,
  );
}

export function connected(client: PusherClient): Promise<string> {
  return waitFor<string>(
    (done) => {
      if (client.connection.state === 'connected') return done(client.connection.socket_id);
      client.connection.bind('connected', () => done(client.connection.socket_id));
    },
    3000,
    'connected',
  );
}

export function subscribed(client: PusherClient, name: string) {
  return waitFor<unknown>(
    (done) => {
      const channel = client.subscribe(name);
      channel.bind('pusher:subscription_succeeded', (data: unknown) => done(data));
    },
    3000,
    `subscription to ${name}`,
  );
}

/** The frames a raw socket receives, parsed (`data` too, when it is JSON), in order. */
export function frames(ws: WebSocket) {
  const list: Record<string, any>[] = [];
  const taken = new Set<number>();
  const waiters: { event?: string; resolve: (f: Record<string, any>) => void }[] = [];
  ws.on('message', (data) => {
    const f = JSON.parse(String(data));
    if (typeof f.data === 'string') {
      try {
        f.data = JSON.parse(f.data);
      } catch {
        // data that is not JSON stays a string
      }
    }
    list.push(f);
    const w = waiters.find((x) => !x.event || x.event === f.event);
    if (w) {
      waiters.splice(waiters.indexOf(w), 1);
      taken.add(list.length - 1);
      w.resolve(f);
    }
  });
  return {
    list,
    /** The next frame (of that event) not returned yet. */
    next(event?: string, ms = 3000): Promise<Record<string, any>> {
      const i = list.findIndex((f, n) => !taken.has(n) && (!event || f.event === event));
      if (i >= 0) {
        taken.add(i);
        return Promise.resolve(list[i]);
      }
      return waitFor((done) => waiters.push({ event, resolve: done }), ms, event ?? 'frame');
    },
  };
}

export function closed(ws: WebSocket, ms = 5000): Promise<{ code: number; reason: string }> {
  return waitFor(
    (done) => {
      if (ws.readyState === ws.CLOSED) return done({ code: -1, reason: 'already closed' });
      ws.once('close', (code, reason) => done({ code, reason: String(reason) }));
    },
    ms,
    'close',
  );
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
