// The clients of the realtime section of `npm run bench` (scripts/bench-realtime.ts), in a process of
// their own so the server's figures (RSS, CPU) are its own. Thousands of sockets (./bench-websocket.ts)
// speak the Pusher protocol (version 7) directly — pusher-js costs too much per connection for
// 10 000 of them in one process — and sign their private subscriptions with the official `pusher` SDK
// (`authorizeChannel`, what an app's auth endpoint does); events are published with the same SDK
// through the server's signed HTTP API (`POST /apps/{id}/events` and `/batch_events`). The fan-out's
// thousand subscribers are read by the native reader (./fanout-reader.c) when the bench could build
// it: this process then signs its subscriptions and publishes the rounds. The chat
// figure goes through the app instead: members signed in through its API (./bench-chat-members.ts)
// send messages with `POST /api/chats/{id}/messages` and subscribe as the site's pages do, each
// subscription signed by `POST /api/broadcasting/auth` with the member's session.
//
// Started with `fork()`; the bench sends `{ id, command, args }` and gets `{ id, result }` or
// `{ id, error }` back. Times are `performance.now()` of this process: a latency is from the
// moment the publish call starts to the moment the read holding a socket's frame comes out of the
// kernel into this process's code.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Pusher from 'pusher';
import { CHAT_TEXT, type FirebaseKey, Member, placeAd, startChat } from './bench-chat-members.ts';
import { processCpuMs, summarise } from './bench-load.ts';
import { BenchSocket } from './bench-websocket.ts';
import { FanoutReader } from './fanout-reader.ts';

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
  /** The first subscriber's receipt of each round: the publish call and the HTTP API before any write. */
  first: Latency;
  /** The last subscriber's receipt of each round. */
  last: Latency;
  missing: number;
  /** Receipts of a round beyond one a subscriber. */
  duplicates: number;
  /** What read the subscribers' sockets: this process (`node`) or the native reader (`native`). */
  reader: 'node' | 'native';
  /** The native reader's sockets (opened by it) and its CPU time (ms). */
  reader_open?: OpenResult;
  reader_cpu_ms?: number;
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

export interface TriggerLatencyResult {
  messages: number;
  rate: number;
  expected: number;
  delivered: number;
  latency: Latency;
  /** How long the publish call took (the HTTP API's answer). */
  call: Latency;
}

/** One kind of delivery in the chat figure: each stored message to one socket, once. */
export interface Deliveries {
  expected: number;
  delivered: number;
  /** Receipts beyond the first of a message on a socket. */
  duplicates: number;
  /** Receipts on a socket that is not one of the message's chat (none, when all goes well). */
  misrouted: number;
  latency: Latency;
}

export interface ChatSetupResult {
  pairs: number;
  /** The seller and the buyers. */
  members: number;
  ad_id: number;
  /** Sign-ins, the ad, the chats and the sockets, in ms. */
  ms: number;
  /** Each member's Firebase exchange. */
  sign_in: Latency;
  open: OpenResult;
}

export interface ChatApiResult {
  pairs: number;
  messages: number;
  rate: number;
  /** Messages the API stored (201). */
  stored: number;
  /** Answers other than 201, by status, and the first few of them. */
  statuses: Record<string, number>;
  errors: string[];
  /** The POST's answer. */
  call: Latency;
  /** The other party's open thread (`presence-chats.{id}`, `message.created`): the figure. */
  shown: Deliveries;
  /** The other party's own channel (`private-users.{id}`, `chat.message`: the header's counter). */
  inbox: Deliveries;
  /** The sender's own open thread: the message on its presence channel and on their own channel. */
  echo: Deliveries;
  /**
   * How late this process's own event loop ran while measuring (ms): a receipt is timed when the
   * loop reads it, so a late client inflates the figure by up to this much.
   */
  client_delay: { p99_ms: number; max_ms: number };
}

/** A member's page in the chat figure: the seller's thread of one chat, the seller's chat list, the buyer's thread. */
export type ChatRole = 'seller-thread' | 'seller-inbox' | 'buyer-thread';

interface Sock {
  ws: BenchSocket;
  socketId: string;
  index: number;
  channels: string[];
  /** What the socket stands for in the chat figure (a member's page), if anything. */
  role?: ChatRole;
}

/** Signs a subscription: with the app's secret (the SDK), or as a member through the app. */
type Signer = (
  socketId: string,
  channel: string,
) => { auth: string; channel_data?: string } | Promise<{ auth: string; channel_data?: string }>;

const sdkSigner: Signer = (socketId, channel) =>
  channel.startsWith('private-') ? sdk.authorizeChannel(socketId, channel) : { auth: '' };

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
function openSocket(index: number, channels: string[], sign: Signer = sdkSigner): Promise<Sock> {
  const url = `${setup.url.replace(/^http/, 'ws')}/app/${setup.app.key}?protocol=7&client=souq-bench&version=1`;
  const ws = new BenchSocket({ url, localAddress: sourceAddress() });
  return new Promise((resolve, reject) => {
    const sock: Sock = { ws, socketId: '', index, channels };
    let pending = channels.length;
    const timer = setTimeout(() => fail('no answer in 30 s'), 30_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      ws.terminate();
      reject(new Error(why));
    };
    ws.onerror = (err) => fail(err.message);
    ws.onclose = (code) => {
      if (pending > 0 || !sock.socketId) fail(`closed with ${code}`);
    };
    ws.onmessage = (raw, at) => {
      const m = JSON.parse(raw) as { event: string; channel?: string; data?: unknown };
      const { event } = m;
      if (!event.startsWith('pusher')) {
        onEvent(sock, event, m.channel ?? '', m.data as string, at);
      } else if (event === 'pusher:connection_established') {
        sock.socketId = (JSON.parse(m.data as string) as { socket_id: string }).socket_id;
        for (const channel of channels) {
          Promise.resolve(
            channel.startsWith('private-') || channel.startsWith('presence-') ? sign(sock.socketId, channel) : null,
          )
            .then((signed) => {
              const data: Record<string, string> = { channel, ...(signed ?? {}) };
              ws.send(JSON.stringify({ event: 'pusher:subscribe', data }));
            })
            .catch((err: Error) => fail(`signing ${channel}: ${err.message}`));
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
    };
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
          if (s.ws.isClosed) return resolve();
          void s.ws.closed.then(() => resolve());
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

/** The latencies of a fan-out, from each round's receipts (ms after its publish call began). */
class FanoutTimes {
  readonly all: number[] = [];
  readonly first: number[] = [];
  readonly last: number[] = [];
  missing = 0;
  duplicates = 0;

  add(receipts: number[], subscribers: number, duplicates: number) {
    let low = Number.POSITIVE_INFINITY;
    let high = 0;
    for (const t of receipts) {
      this.all.push(t);
      low = Math.min(low, t);
      high = Math.max(high, t);
    }
    if (receipts.length > 0) this.first.push(low);
    if (receipts.length < subscribers) this.missing += subscribers - receipts.length;
    else this.last.push(high);
    this.duplicates += duplicates;
  }

  result(rounds: number, subscribers: number, reader: FanoutResult['reader']): FanoutResult {
    return {
      rounds,
      subscribers,
      latency: latencyOf(this.all),
      first: latencyOf(this.first),
      last: latencyOf(this.last),
      missing: this.missing,
      duplicates: this.duplicates,
      reader,
    };
  }
}

/**
 * One event to every subscriber of one channel, `rounds` times, one round after the other (each
 * waits for every receipt, or 2 s, then `gapMs`). The subscribers are a group of this process's
 * sockets, or, with `reader`, `count` sockets of the native reader (./fanout-reader.c): this
 * process then only publishes.
 */
async function fanout(args: {
  group: string;
  channel: string;
  rounds: number;
  gapMs: number;
  reader?: { program: string; count: number };
}) {
  if (args.reader) return nativeFanout({ ...args, reader: args.reader });
  const subscribers = (groups.get(args.group) ?? []).length;
  const times = new FanoutTimes();
  let round: number[] = [];
  let current = -1;
  let t0 = 0;
  onEvent = (_s, event, _c, data, at) => {
    if (event === 'bench.fanout' && Number(data) === current) round.push(at - t0);
  };
  for (let r = 0; r < args.rounds; r++) {
    current = r;
    round = [];
    t0 = performance.now();
    await sdk.trigger(args.channel, 'bench.fanout', String(r));
    await until(() => round.length >= subscribers, 2_000);
    // A socket's receipts beyond the first of a round are counted as more receipts here: each socket
    // sees one frame a round unless the server wrote one twice, which the native reader tells apart.
    times.add(round.slice(0, subscribers), subscribers, Math.max(0, round.length - subscribers));
    await sleep(args.gapMs);
  }
  onEvent = () => {};
  return times.result(args.rounds, subscribers, 'node');
}

/**
 * The rounds of a fan-out read by the native reader, one after the other: `prepare` before the
 * round's clock starts, `publish` after; each receipt in ms after its round's publish began (each
 * round waits for every receipt, or 2 s, then `gapMs`).
 */
async function readerRounds(
  reader: FanoutReader,
  args: { rounds: number; gapMs: number; reader: { count: number } },
  round: { prepare?: (r: number) => void; publish: (r: number) => unknown },
): Promise<FanoutTimes> {
  const times = new FanoutTimes();
  for (let r = 0; r < args.rounds; r++) {
    round.prepare?.(r);
    // process.hrtime.bigint() reads CLOCK_MONOTONIC, the reader's clock.
    const t0 = process.hrtime.bigint();
    await round.publish(r);
    const got = await reader.receipts(2_000);
    times.add(
      got.times.map((t) => Number(t - t0) / 1e6),
      args.reader.count,
      got.duplicates,
    );
    await sleep(args.gapMs);
  }
  return times;
}

async function nativeFanout(args: {
  channel: string;
  rounds: number;
  gapMs: number;
  reader: { program: string; count: number };
}): Promise<FanoutResult> {
  const started = performance.now();
  const reader = await FanoutReader.start({
    program: args.reader.program,
    url: setup.url,
    appKey: setup.app.key,
    count: args.reader.count,
    channel: args.channel,
    event: 'bench.fanout',
    perAddress: setup.perAddress,
    sign: (socketId, channel) => sdk.authorizeChannel(socketId, channel).auth,
  });
  const opened = { opened: args.reader.count, failed: 0, ms: Math.round(performance.now() - started), errors: [] };
  try {
    const cpu0 = processCpuMs(reader.pid);
    const times = await readerRounds(reader, args, {
      prepare: (r) => reader.expect(r),
      publish: (r) => sdk.trigger(args.channel, 'bench.fanout', String(r)),
    });
    return {
      ...times.result(args.rounds, args.reader.count, 'native'),
      reader_open: opened,
      reader_cpu_ms: processCpuMs(reader.pid) - cpu0,
    };
  } finally {
    await reader.stop();
  }
}

/**
 * The fan-out's floor on this machine: the same rounds, read by the same native reader, written by
 * its own C writer instead of the server (`--floor`, ./fanout-reader.c). `writer_cpu_ms` stands
 * beside the server's CPU for the same rounds.
 */
async function fanoutFloor(args: {
  channel: string;
  rounds: number;
  gapMs: number;
  reader: { program: string; count: number };
}): Promise<FanoutResult & { writer_cpu_ms: number }> {
  const reader = await FanoutReader.floor({
    program: args.reader.program,
    count: args.reader.count,
    channel: args.channel,
    event: 'bench.fanout',
  });
  try {
    const writer = reader.writerPid as number;
    const cpu0 = { reader: processCpuMs(reader.pid), writer: processCpuMs(writer) };
    const times = await readerRounds(reader, args, { publish: (r) => reader.publish(r) });
    return {
      ...times.result(args.rounds, args.reader.count, 'native'),
      reader_cpu_ms: processCpuMs(reader.pid) - cpu0.reader,
      writer_cpu_ms: processCpuMs(writer) - cpu0.writer,
    };
  } finally {
    await reader.stop();
  }
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

/** Calls `send(i)` for i in 0…count-1 at a steady `rate` a second, never waiting for an answer. */
async function steady(count: number, rate: number, send: (i: number) => Promise<unknown>) {
  const started = performance.now();
  const interval = 1000 / rate;
  const inFlight: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const wait = started + i * interval - performance.now();
    if (wait > 1) await sleep(wait);
    inFlight.push(send(i));
  }
  await Promise.all(inFlight);
}

/**
 * The trigger path alone: chat-shaped events at a steady `rate` a second, each to a chat in turn,
 * each its own publish through the signed HTTP API (what the app's publisher ends in once a message
 * is stored): the time from the call to each of the chat's two sockets. What the realtime server
 * adds to a chat message, without the app's request, session and write.
 */
async function triggerLatency(args: { group: string; prefix: string; chats: number; messages: number; rate: number }) {
  const sentAt = new Float64Array(args.messages);
  const latencies: number[] = [];
  onEvent = (_s, event, _c, data, at) => {
    if (event !== 'chat.message') return;
    const seq = seqOf(data);
    if (seq >= 0 && seq < args.messages) latencies.push(at - sentAt[seq]);
  };
  const calls: number[] = [];
  await steady(args.messages, args.rate, (i) => {
    const chat = (i * 7919) % args.chats;
    const at = performance.now();
    sentAt[i] = at;
    return sdk.trigger(`${args.prefix}${chat}`, 'chat.message', chatMessage(i, chat)).then(
      () => calls.push(performance.now() - at),
      () => {},
    );
  });
  const expected = args.messages * 2;
  await until(() => latencies.length >= expected, 10_000);
  onEvent = () => {};
  return {
    messages: args.messages,
    rate: args.rate,
    expected,
    delivered: latencies.length,
    latency: latencyOf(latencies),
    call: latencyOf(calls),
  } satisfies TriggerLatencyResult;
}

/** The chat figure's members and chats (chatSetup), until chatClose. */
let chats: { run: string; seller: Member; buyers: Member[]; chatIds: number[] } | null = null;
let nextMember = 0;

/** A client address of its own for each member: 127.1.x.y (the sockets use 127.0.x.y). */
const memberAddress = () => `127.1.${Math.floor(nextMember / 250)}.${1 + (nextMember++ % 250)}`;

/** Runs `work(i)` for i in 0…count-1, `concurrency` at a time. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/**
 * The chat figure's world, made through the app: a seller signs in and places an ad; `pairs`
 * buyers sign in and each starts a chat about it; then each chat's two open threads connect, each
 * subscription signed by the app for the member: the seller's (`presence-chats.{id}`) and the
 * buyer's (`presence-chats.{id}` and `private-users.{buyer}`), and the seller's chat list
 * (`private-users.{seller}`) once.
 */
async function chatSetup(args: { pairs: number; firebase: FirebaseKey }) {
  const started = performance.now();
  const run = randomBytes(3).toString('hex');
  const signIns: number[] = [];
  const signIn = async (m: Member, uid: string, name: string, phone: string) => {
    const at = performance.now();
    await m.signIn(args.firebase, uid, name, phone);
    signIns.push(performance.now() - at);
  };
  const seller = new Member(setup.url, memberAddress());
  await signIn(
    seller,
    `bench-seller-${run}`,
    'Bench seller',
    `+21891${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
  );
  const adId = await placeAd(seller);
  const buyers = Array.from({ length: args.pairs }, () => new Member(setup.url, memberAddress()));
  const chatIds: number[] = new Array(args.pairs).fill(0);
  await pool(args.pairs, 8, async (i) => {
    const buyer = buyers[i] as Member;
    await signIn(buyer, `bench-buyer-${run}-${i}`, `Bench buyer ${i}`, `+21892${String(i).padStart(7, '0')}`);
    chatIds[i] = await startChat(buyer, adId, `bench-start-${run}-${i}`);
  });
  chats = { run, seller, buyers, chatIds };

  const list: Sock[] = [];
  groups.set('chat-api', list);
  const errors: string[] = [];
  let failed = 0;
  const opening = performance.now();
  const page = async (index: number, role: ChatRole, member: Member, channels: string[]) => {
    try {
      const sock = await openSocket(index, channels, (socketId, channel) => member.authorize(socketId, channel));
      sock.role = role;
      list.push(sock);
    } catch (err) {
      failed++;
      if (errors.length < 5) errors.push((err as Error).message);
    }
  };
  await page(0, 'seller-inbox', seller, [`private-users.${seller.id}`]);
  await pool(args.pairs, 50, async (i) => {
    const chat = `presence-chats.${chatIds[i]}`;
    const buyer = buyers[i] as Member;
    await page(1 + 2 * i, 'seller-thread', seller, [chat]);
    await page(2 + 2 * i, 'buyer-thread', buyer, [chat, `private-users.${buyer.id}`]);
  });
  list.sort((a, b) => a.index - b.index);
  return {
    pairs: args.pairs,
    members: 1 + buyers.length,
    ad_id: adId,
    ms: Math.round(performance.now() - started),
    sign_in: latencyOf(signIns),
    open: { opened: list.length, failed, ms: Math.round(performance.now() - opening), errors },
  } satisfies ChatSetupResult;
}

/** Counts of one kind of delivery, a slot per message (and per event for the echo). */
class Tally {
  readonly count: Uint8Array;
  readonly latencies: number[] = [];
  readonly perMessage: number;
  duplicates = 0;
  misrouted = 0;
  constructor(messages: number, perMessage = 1) {
    this.perMessage = perMessage;
    this.count = new Uint8Array(messages * perMessage);
  }
  /** A receipt of message `seq` (event `slot`), `ms` after it was sent (NaN: not timed). */
  add(seq: number, slot: number, ms: number) {
    const k = seq * this.perMessage + slot;
    if (this.count[k]) this.duplicates++;
    else if (!Number.isNaN(ms)) this.latencies.push(ms);
    this.count[k] = Math.min(255, (this.count[k] ?? 0) + 1);
  }
  result(stored: Uint8Array): Deliveries {
    let expected = 0;
    let delivered = 0;
    for (let seq = 0; seq < stored.length; seq++) {
      if (!stored[seq]) continue;
      for (let slot = 0; slot < this.perMessage; slot++) {
        expected++;
        if (this.count[seq * this.perMessage + slot]) delivered++;
      }
    }
    return {
      expected,
      delivered,
      duplicates: this.duplicates,
      misrouted: this.misrouted,
      latency: latencyOf(this.latencies),
    };
  }
}

/**
 * Chat messages through the chat API at a steady `rate` a second: message i is written by buyer
 * i mod pairs in their chat (`POST /api/chats/{id}/messages` with the session cookie, the XSRF
 * header and an idempotency key naming i), stored, and published by the app after the commit. The
 * figure is the time from just before the POST to the seller's open thread receiving it
 * (`message.created`); the seller's chat list (`chat.message`) and the buyer's own thread (both
 * events) are counted too. Every stored message must reach each of them exactly once.
 */
async function chatApi(args: { messages: number; rate: number }) {
  if (!chats) throw new Error('chatApi before chatSetup');
  const { run, buyers, chatIds } = chats;
  const pairs = buyers.length;
  const n = args.messages;
  const keyPrefix = `bench-${run}-`;
  const seqOfKey = (key: unknown) =>
    typeof key === 'string' && key.startsWith(keyPrefix) ? Number(key.slice(keyPrefix.length)) : -1;
  const sentAt = new Float64Array(n);
  const stored = new Uint8Array(n);
  const shown = new Tally(n);
  const inbox = new Tally(n);
  const echo = new Tally(n, 2);
  /** Message id → i: from the POST's answer or the thread's event (`chat.message` names only the id). */
  const seqOfId = new Map<number, number>();
  const counters: { role: ChatRole; channel: string; id: number; at: number }[] = [];
  let received = 0;
  onEvent = (sock, event, channel, data, at) => {
    if (event === 'message.created') {
      const { message } = JSON.parse(data) as { message: { id: number; client_key: string | null } };
      const seq = seqOfKey(message.client_key);
      if (seq < 0 || seq >= n) return;
      received++;
      seqOfId.set(message.id, seq);
      const tally = sock.role === 'seller-thread' ? shown : echo;
      if (channel !== `presence-chats.${chatIds[seq % pairs]}`) tally.misrouted++;
      else tally.add(seq, 0, sock.role === 'seller-thread' ? at - (sentAt[seq] ?? 0) : Number.NaN);
    } else if (event === 'chat.message' && sock.role) {
      const { message_id } = JSON.parse(data) as { message_id: number };
      received++;
      counters.push({ role: sock.role, channel, id: message_id, at });
    }
  };
  const calls: number[] = [];
  const statuses: Record<string, number> = {};
  const errors: string[] = [];
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  await steady(n, args.rate, async (i) => {
    const buyer = buyers[i % pairs] as Member;
    const at = performance.now();
    sentAt[i] = at;
    try {
      const res = await buyer.request('POST', `/api/chats/${chatIds[i % pairs]}/messages`, {
        json: { body: CHAT_TEXT, client_key: `${keyPrefix}${i}` },
      });
      if (res.status === 201) {
        calls.push(performance.now() - at);
        stored[i] = 1;
        seqOfId.set((JSON.parse(res.body) as { data: { id: number } }).data.id, i);
        return;
      }
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (errors.length < 5) errors.push(`${res.status} ${res.body.slice(0, 200)}`);
    } catch (err) {
      statuses.error = (statuses.error ?? 0) + 1;
      if (errors.length < 5) errors.push((err as Error).message);
    }
  });
  let storedCount = 0;
  for (const x of stored) storedCount += x;
  // Each stored message: the seller's thread, the seller's list, the buyer's thread twice.
  await until(() => received >= storedCount * 4, 10_000);
  await sleep(200); // and anything sent twice
  onEvent = () => {};
  delay.disable();
  for (const c of counters) {
    const seq = seqOfId.get(c.id);
    if (seq === undefined) continue;
    const own = c.channel === `private-users.${c.role === 'buyer-thread' ? buyers[seq % pairs]?.id : chats.seller.id}`;
    const tally = c.role === 'seller-inbox' ? inbox : echo;
    if (!own) tally.misrouted++;
    else if (c.role === 'seller-inbox') inbox.add(seq, 0, c.at - (sentAt[seq] ?? 0));
    else echo.add(seq, 1, Number.NaN);
  }
  return {
    pairs,
    messages: n,
    rate: args.rate,
    stored: storedCount,
    statuses,
    errors,
    call: latencyOf(calls),
    shown: shown.result(stored),
    inbox: inbox.result(stored),
    echo: echo.result(stored),
    // The histogram holds the intervals of a 5 ms timer: the lateness is what exceeds 5 ms.
    client_delay: {
      p99_ms: round(Math.max(0, delay.percentile(99) / 1e6 - 5)),
      max_ms: round(Math.max(0, delay.max / 1e6 - 5)),
    },
  } satisfies ChatApiResult;
}

/** Closes the chat figure's sockets and the members' connections. */
async function chatClose() {
  await close({ group: 'chat-api' });
  for (const m of [chats?.seller, ...(chats?.buyers ?? [])]) m?.close();
  chats = null;
  return {};
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
  fanoutFloor,
  throughput,
  triggerLatency,
  chatSetup,
  chatApi,
  chatClose,
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
