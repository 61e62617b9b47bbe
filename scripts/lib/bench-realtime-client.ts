// The clients of the realtime section of `npm run bench` (scripts/bench-realtime.ts), in a process of
// their own so the server's figures (RSS, CPU) are its own. Thousands of `ws` sockets speak the
// Pusher protocol (version 7) directly — pusher-js costs too much per connection for 10 000 of them
// in one process — and sign their private subscriptions with the official `pusher` SDK
// (`authorizeChannel`, what an app's auth endpoint does); events are published with the same SDK
// through the server's signed HTTP API (`POST /apps/{id}/events` and `/batch_events`).
//
// Started with `fork()`; the bench sends `{ id, command, args }` and gets `{ id, result }` or
// `{ id, error }` back. Times are `performance.now()` of this process: a latency is from the
// moment the publish call starts to the moment a socket's frame is handed to this process's code.
import http from 'node:http';
import Pusher from 'pusher';
import WebSocket from 'ws';
import { summarise } from './bench-load.ts';

export interface ClientSetup {
  /** http://127.0.0.1:port of the server under test. */
  url: string;
  app: { id: string; key: string; secret: string };
  /**
   * Sockets opened per source address: the server limits connections per client address
   * (REALTIME_MAX_CONNECTIONS_PER_IP, 100 by default), so sockets come from 127.0.x.y in turn.
   */
  perAddress: number;
}

/** What a group of sockets subscribes to: each its own member channel, one shared channel, or chats of two. */
export type Subscriptions =
  | { kind: 'own'; prefix: string }
  | { kind: 'one'; channel: string }
  | { kind: 'chats'; prefix: string };

export interface Latency {
  samples: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

export interface OpenResult {
  opened: number;
  failed: number;
  ms: number;
  errors: string[];
}

export interface FanoutResult {
  rounds: number;
  subscribers: number;
  /** Every subscriber's receipt of every round. */
  latency: Latency;
  /** The last subscriber's receipt of each round. */
  last: Latency;
  missing: number;
}

export interface ThroughputResult {
  events: number;
  requests: number;
  batch: number;
  /** Events published over the time from the first request to the last delivery. */
  events_per_s: number;
  expected: number;
  delivered: number;
  /** Deliveries beyond one per subscriber and event (0 when nothing was sent twice). */
  duplicates: number;
  failed_requests: number;
  seconds: number;
  latency: Latency;
}

export interface ChatLatencyResult {
  messages: number;
  rate: number;
  via: string;
  expected: number;
  delivered: number;
  latency: Latency;
  /** How long the publish call took (the HTTP API's answer). */
  call: Latency;
}

/**
 * How a chat message is sent: for now an event published on the chat's private channel through the
 * server's signed HTTP API, which ends in the trigger the app's publisher calls in process after a
 * write commits (server/realtime/publish.ts; `npm run worker` publishes through this same API).
 * Once chats exist, a sender that posts a message through the chat API (and subscribes through
 * POST /api/broadcasting/auth) takes this one's place.
 */
export interface ChatSender {
  readonly via: string;
  send(chat: number, event: string, data: string): Promise<unknown>;
}

interface Sock {
  ws: WebSocket;
  socketId: string;
  index: number;
  channels: string[];
}

type Handler = (sock: Sock, event: string, channel: string, data: string, at: number) => void;

let setup: ClientSetup;
let sdk: Pusher;
let nextAddress = 0;
const groups = new Map<string, Sock[]>();
/** The running phase's handler of events (anything but `pusher:` and `pusher_internal:` frames). */
let onEvent: Handler = () => {};

const round = (n: number) => Math.round(n * 10) / 10;

function latencyOf(samples: number[]): Latency {
  const list = Array.from(samples);
  const s = summarise(list);
  return { samples: list.length, ...s, max_ms: round(list.reduce((m, x) => Math.max(m, x), 0)) };
}

/** 127.0.x.y, a new one every `perAddress` sockets (the whole 127.0.0.0/8 is this machine). */
function sourceAddress(): string {
  const k = Math.floor(nextAddress++ / setup.perAddress);
  return `127.0.${1 + Math.floor(k / 250)}.${1 + (k % 250)}`;
}

function channelsFor(subs: Subscriptions, i: number): string[] {
  if (subs.kind === 'own') return [`${subs.prefix}${i}`];
  if (subs.kind === 'one') return [subs.channel];
  return [`${subs.prefix}${Math.floor(i / 2)}`];
}

/** Connects, waits for `connection_established`, subscribes (signed) and waits for every `subscription_succeeded`. */
function openSocket(index: number, channels: string[]): Promise<Sock> {
  const url = `${setup.url.replace(/^http/, 'ws')}/app/${setup.app.key}?protocol=7&client=souq-bench&version=1`;
  const ws = new WebSocket(url, { perMessageDeflate: false, localAddress: sourceAddress() });
  return new Promise((resolve, reject) => {
    const sock: Sock = { ws, socketId: '', index, channels };
    let pending = channels.length;
    const timer = setTimeout(() => fail('no answer in 30 s'), 30_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      ws.terminate();
      reject(new Error(why));
    };
    ws.on('error', (err) => fail(err.message));
    ws.on('close', (code) => {
      if (pending > 0 || !sock.socketId) fail(`closed with ${code}`);
    });
    ws.on('message', (raw: Buffer) => {
      const at = performance.now();
      const m = JSON.parse(raw.toString()) as { event: string; channel?: string; data?: unknown };
      const { event } = m;
      if (!event.startsWith('pusher')) {
        onEvent(sock, event, m.channel ?? '', m.data as string, at);
      } else if (event === 'pusher:connection_established') {
        sock.socketId = (JSON.parse(m.data as string) as { socket_id: string }).socket_id;
        for (const channel of channels) {
          const data: Record<string, string> = { channel };
          if (channel.startsWith('private-')) data.auth = sdk.authorizeChannel(sock.socketId, channel).auth;
          ws.send(JSON.stringify({ event: 'pusher:subscribe', data }));
        }
        if (pending === 0) {
          clearTimeout(timer);
          resolve(sock);
        }
      } else if (event === 'pusher_internal:subscription_succeeded') {
        if (--pending === 0) {
          clearTimeout(timer);
          resolve(sock);
        }
      } else if (event === 'pusher:ping') {
        ws.send('{"event":"pusher:pong","data":{}}');
      } else if (event === 'pusher:subscription_error' || event === 'pusher:error') {
        fail(`${event} ${JSON.stringify(m.data)}`);
      }
    });
  });
}

/** Opens `count` sockets, `concurrency` handshakes at a time. */
async function open(args: { group: string; count: number; subscriptions: Subscriptions; concurrency?: number }) {
  const started = performance.now();
  const list = groups.get(args.group) ?? [];
  groups.set(args.group, list);
  const errors: string[] = [];
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < args.count) {
      const i = next++;
      try {
        list.push(await openSocket(i, channelsFor(args.subscriptions, i)));
      } catch (err) {
        failed++;
        if (errors.length < 5) errors.push((err as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.concurrency ?? 200, args.count) }, worker));
  list.sort((a, b) => a.index - b.index);
  return { opened: list.length, failed, ms: Math.round(performance.now() - started), errors } satisfies OpenResult;
}

async function close(args: { group: string }) {
  const list = groups.get(args.group) ?? [];
  groups.delete(args.group);
  await Promise.all(
    list.map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.ws.readyState === WebSocket.CLOSED) return resolve();
          s.ws.once('close', () => resolve());
          s.ws.close();
          setTimeout(() => {
            s.ws.terminate();
            resolve();
          }, 5_000).unref();
        }),
    ),
  );
  return { closed: list.length };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` or `ms` have passed. */
async function until(done: () => boolean, ms: number) {
  const deadline = performance.now() + ms;
  while (!done() && performance.now() < deadline) await sleep(2);
}

/**
 * One event to every subscriber of one channel, `rounds` times, one round after the other (each
 * waits for every receipt, or 2 s, then `gapMs`).
 */
async function fanout(args: { group: string; channel: string; rounds: number; gapMs: number }) {
  const subscribers = (groups.get(args.group) ?? []).length;
  const all: number[] = [];
  const last: number[] = [];
  let missing = 0;
  let current = -1;
  let t0 = 0;
  let got = 0;
  let latest = 0;
  onEvent = (_s, event, _c, data, at) => {
    if (event !== 'bench.fanout' || Number(data) !== current) return;
    got++;
    latest = at - t0;
    all.push(latest);
  };
  for (let r = 0; r < args.rounds; r++) {
    current = r;
    got = 0;
    t0 = performance.now();
    await sdk.trigger(args.channel, 'bench.fanout', String(r));
    await until(() => got >= subscribers, 2_000);
    if (got < subscribers) missing += subscribers - got;
    else last.push(latest);
    await sleep(args.gapMs);
  }
  onEvent = () => {};
  return {
    rounds: args.rounds,
    subscribers,
    latency: latencyOf(all),
    last: latencyOf(last),
    missing,
  } satisfies FanoutResult;
}

/** A chat message as it would travel: an id, the chat, its sender, a line of Arabic text, the time. */
function chatMessage(seq: number, chat: number): string {
  return JSON.stringify({
    id: seq,
    chat_id: chat,
    sender_id: 1000 + (seq % 2),
    body: 'السلام عليكم، هل السيارة ما زالت متوفرة؟ وكم آخر سعر؟',
    created_at: new Date().toISOString(),
  });
}

const seqOf = (data: string) => Number(/^\{"id":(\d+)/.exec(data)?.[1] ?? -1);

/** The chat path of this bench: the server's signed HTTP API (see ChatSender). */
function httpApiChats(prefix: string): ChatSender {
  return {
    via: 'signed HTTP API, POST /apps/{id}/events',
    send: (chat, event, data) => sdk.trigger(`${prefix}${chat}`, event, data),
  };
}

/**
 * Events as fast as the server takes them, in `batch_events` requests of `batch` events to `batch`
 * different chats, `concurrency` requests in flight, for `seconds`; then waits for the deliveries
 * (at most 10 s) and counts them: every event must reach both subscribers of its chat.
 */
async function throughput(args: {
  group: string;
  prefix: string;
  chats: number;
  seconds: number;
  batch: number;
  concurrency: number;
}) {
  const subscribersPerChat = 2;
  const capacity = 2_000_000;
  const sentAt = new Float64Array(capacity);
  const received = new Uint8Array(capacity);
  const latencies: number[] = [];
  let delivered = 0;
  let duplicates = 0;
  let lastDelivery = 0;
  onEvent = (_s, event, _c, data, at) => {
    if (event !== 'chat.message') return;
    const seq = seqOf(data);
    if (seq < 0 || seq >= capacity) return;
    if (received[seq] >= subscribersPerChat) duplicates++;
    else {
      received[seq]++;
      delivered++;
      latencies.push(at - sentAt[seq]);
      lastDelivery = at;
    }
  };
  let seq = 0;
  let requests = 0;
  let failedRequests = 0;
  const started = performance.now();
  const stopAt = started + args.seconds * 1000;
  const worker = async () => {
    while (performance.now() < stopAt && seq + args.batch <= capacity) {
      const batch = [];
      const at = performance.now();
      for (let k = 0; k < args.batch; k++) {
        const s = seq++;
        const chat = s % args.chats;
        sentAt[s] = at;
        batch.push({ channel: `${args.prefix}${chat}`, name: 'chat.message', data: chatMessage(s, chat) });
      }
      requests++;
      try {
        await sdk.triggerBatch(batch);
      } catch {
        failedRequests++;
      }
    }
  };
  await Promise.all(Array.from({ length: args.concurrency }, worker));
  const events = seq;
  const expected = events * subscribersPerChat;
  await until(() => delivered >= expected, 10_000);
  onEvent = () => {};
  const seconds = ((delivered > 0 ? lastDelivery : performance.now()) - started) / 1000;
  return {
    events,
    requests,
    batch: args.batch,
    events_per_s: Math.round(events / Math.max(seconds, 0.001)),
    expected,
    delivered,
    duplicates,
    failed_requests: failedRequests,
    seconds: round(seconds),
    latency: latencyOf(latencies),
  } satisfies ThroughputResult;
}

/**
 * Chat messages at a steady `rate` a second, each to a chat in turn, each its own publish (as a
 * member's message would be): the time from the call to each of the chat's two sockets.
 */
async function chatLatency(args: { group: string; prefix: string; chats: number; messages: number; rate: number }) {
  const sender = httpApiChats(args.prefix);
  const sentAt = new Float64Array(args.messages);
  const latencies: number[] = [];
  onEvent = (_s, event, _c, data, at) => {
    if (event !== 'chat.message') return;
    const seq = seqOf(data);
    if (seq >= 0 && seq < args.messages) latencies.push(at - sentAt[seq]);
  };
  const started = performance.now();
  const interval = 1000 / args.rate;
  const inFlight: Promise<unknown>[] = [];
  const calls: number[] = [];
  for (let i = 0; i < args.messages; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const chat = (i * 7919) % args.chats;
    const at = performance.now();
    sentAt[i] = at;
    inFlight.push(
      sender.send(chat, 'chat.message', chatMessage(i, chat)).then(
        () => calls.push(performance.now() - at),
        () => {},
      ),
    );
  }
  await Promise.all(inFlight);
  const expected = args.messages * 2;
  await until(() => latencies.length >= expected, 10_000);
  onEvent = () => {};
  return {
    messages: args.messages,
    rate: args.rate,
    via: sender.via,
    expected,
    delivered: latencies.length,
    latency: latencyOf(latencies),
    call: latencyOf(calls),
  } satisfies ChatLatencyResult;
}

const commands = {
  setup(args: ClientSetup) {
    setup = args;
    const { hostname, port } = new URL(args.url);
    sdk = new Pusher({
      appId: args.app.id,
      key: args.app.key,
      secret: args.app.secret,
      host: hostname,
      port,
      useTLS: false,
      timeout: 30_000,
      agent: new http.Agent({ keepAlive: true, maxSockets: 64 }),
    });
    return {};
  },
  open,
  close,
  fanout,
  throughput,
  chatLatency,
  /** This process's CPU time so far (ms). */
  cpu() {
    const u = process.cpuUsage();
    return { ms: Math.round((u.user + u.system) / 1000) };
  },
} as const;

type Command = keyof typeof commands;

process.on('message', async (message: { id: number; command: Command; args: never }) => {
  try {
    const result = await (commands[message.command] as (args: unknown) => unknown)(message.args);
    process.send?.({ id: message.id, result });
  } catch (err) {
    process.send?.({ id: message.id, error: (err as Error).stack ?? String(err) });
  }
});
process.on('disconnect', () => process.exit(0));
