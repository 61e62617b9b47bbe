// The realtime section of `npm run bench` (docs/performance.md, "Realtime"): the embedded
// Pusher-protocol server (server/realtime/, ADR 0014) in the built server started as production
// starts it (server/main.ts, one process, its real configuration, the local adapter; the Redis
// adapter too with --redis), measured from a client process of its own
// (scripts/lib/bench-realtime-client.ts) over loopback:
// 1. 10 000 concurrent WebSocket connections, each subscribed (signed) to its own private channel:
//    the server process's RSS;
// 2. one event to 1 000 subscribers of one channel, round after round: the time from the publish
//    call to each subscriber's receipt, the subscribers read by a small C program
//    (scripts/lib/fanout-reader.c) so that reading a thousand of them costs less than writing them;
// 3. events published through the signed HTTP API (`batch_events`) to chats of two subscribers, as
//    fast as the server takes them, every delivery counted;
// 4. the trigger path alone: chat-shaped events at a steady rate, one publish each on a chat's
//    private channel: the time from the call to both subscribers;
// 5. chat messages through the app: members signed in through its API, a seller's ad, a hundred
//    buyers' chats about it (scripts/lib/bench-chat-members.ts); each message sent with
//    `POST /api/chats/{id}/messages`, stored and published after the commit, and received by the
//    other party's open thread, subscribed through `POST /api/broadcasting/auth`: the time from
//    just before the POST to that receipt, every delivery counted.
// Part of `npm run bench` (--skip realtime leaves it out), or on its own:
//   node scripts/bench-realtime.ts [--redis redis://127.0.0.1:6379] [--rt-connections 10000] …
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { CHAT_MESSAGE_LIMIT } from '../server/domain/chats/messages.ts';
import { FANOUT_WRITER_FILE, loadFanoutWriter } from '../server/realtime/fanout-writer.ts';
import type { FirebaseKey } from './lib/bench-chat-members.ts';
import { processCpuMs } from './lib/bench-load.ts';
import { connectProfiler, summariseProfile } from './lib/bench-profile.ts';
import type {
  ChatApiResult,
  ChatSetupResult,
  ClientSetup,
  Deliveries,
  FanoutResult,
  Latency,
  OpenResult,
  ThroughputResult,
  TriggerLatencyResult,
} from './lib/bench-realtime-client.ts';
import { freePort, startBuiltServer } from './lib/built-server.ts';
import { buildFanoutReader } from './lib/fanout-reader.ts';

export interface RealtimeBenchOptions {
  /** Concurrent connections of the first figure. */
  connections: number;
  /** Subscribers of the fan-out channel, and its rounds. */
  fanout: number;
  rounds: number;
  /** Chats of two subscribers for the throughput and trigger-path figures. */
  chats: number;
  /** Seconds of publishing as fast as the server takes it. */
  seconds: number;
  /** Chats through the chat API (a buyer each, one seller): the chat figure. */
  pairs: number;
  /** Chat messages of the chat figure (and of the trigger path) and their rate a second. */
  messages: number;
  rate: number;
  /** Also measure with the Redis adapter (REDIS_URL) on this server. */
  redis: string | null;
  /** A CPU profile of the server during each figure, written to this folder and summarised. */
  profileDir: string | null;
  /**
   * What reads the fan-out's subscribers: the native reader (scripts/lib/fanout-reader.c, built
   * with the machine's C compiler; the Node client when it cannot be built) or the Node client.
   */
  reader: 'native' | 'node';
}

export const REALTIME_DEFAULTS: RealtimeBenchOptions = {
  connections: 10_000,
  fanout: 1_000,
  rounds: 200,
  chats: 1_000,
  seconds: 5,
  pairs: 100,
  messages: 1_000,
  rate: 100,
  redis: null,
  profileDir: null,
  reader: 'native',
};

/** The targets of docs/performance.md ("Realtime"). */
export const REALTIME_TARGETS = {
  connections: 10_000,
  rss_mb: 500,
  fanout_subscribers: 1_000,
  fanout_p95_ms: 10,
  fanout_p99_ms: 50,
  events_per_s: 5_000,
  chat_p95_ms: 100,
};

export interface RealtimeRun {
  adapter: 'local' | 'redis';
  /** The machine's load average before and after (other work on it inflates every time). */
  load_average: { before: number[]; after: number[] };
  server_start_ms: number;
  /** The server process's open-file limit (soft) and the client's. */
  fd_limit: { server: number; client: number };
  connections: OpenResult & {
    rss_before_mb: number;
    rss_mb: number;
    /** The server's RSS at its highest so far (VmHWM). */
    peak_rss_mb: number;
    kb_per_connection: number;
    server_cpu_ms: number;
  };
  /** `client_cpu_ms`: the CPU of what read the subscribers (the client process, or the native reader). */
  fanout: FanoutResult & { open: OpenResult; server_cpu_ms: number; client_cpu_ms: number };
  /**
   * The same rounds with the native reader's own C writer in the server's place (`--floor`): what
   * this machine's loopback allows one writing thread. Null when the Node client read the fan-out.
   */
  fanout_floor: (FanoutResult & { writer_cpu_ms: number }) | null;
  /** Why the fan-out was read by the Node client when the native reader was asked for. */
  reader_note: string | null;
  /**
   * How the server wrote a channel's frame to its sockets: its native fan-out writer
   * (build/native/, scripts/build-native.ts) when the build has one that loads on this Node, which
   * the server then loads too; else one `socket.write` a socket.
   */
  writer: 'native' | 'socket.write';
  throughput: ThroughputResult & { open: OpenResult; server_cpu_ms: number; client_cpu_ms: number };
  /** Chat-shaped events through the signed HTTP API at a steady rate: the realtime server alone. */
  trigger: TriggerLatencyResult & { server_cpu_ms: number };
  /** Chat messages through the chat API, to the other party's open thread: the chat figure. */
  chat: ChatApiResult & { setup: ChatSetupResult; server_cpu_ms: number };
  rss_end_mb: number;
  /** With a profile: its summary for each figure. */
  profiles: Record<string, string[]>;
}

/** Connections one client address opens: under the server's per-address limit (100 by default). */
const PER_ADDRESS = 50;

function status(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}
const mb = (kb: number) => Math.round(kb / 1024);
const loadAverage = () => loadavg().map((x) => Math.round(x * 100) / 100);

function fdLimit(pid: number): number {
  const line = /Max open files\s+(\d+|unlimited)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  return !line || line[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(line[1]);
}

/** The client process: a command and its answer over IPC. */
function startClient(): { child: ChildProcess; call: <T>(command: string, args?: unknown) => Promise<T> } {
  const child = fork(path.join(import.meta.dirname, 'lib', 'bench-realtime-client.ts'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();
  child.on('message', (m: { id: number; result?: unknown; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error !== undefined) w?.reject(new Error(`bench client: ${m.error}`));
    else w?.resolve(m.result as never);
  });
  child.on('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`bench client exited with ${code}`));
    waiting.clear();
  });
  return {
    child,
    call: <T>(command: string, args?: unknown) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve: resolve as (v: never) => void, reject });
        child.send({ id, command, args });
      }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The key the chat figure's members sign in with: a Firebase project of the bench's own, its public
 * half served as a key set for the server's FIREBASE_JWKS_URL (server/auth/firebase.ts fetches it).
 */
async function firebaseKeys(): Promise<{ key: FirebaseKey; url: string; stop: () => Promise<void> }> {
  const kid = `bench-${randomBytes(4).toString('hex')}`;
  const pair = await generateKeyPair('RS256', { extractable: true });
  const keys = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' }] });
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(keys));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    key: { projectId: 'souq-bench', kid, privateJwk: await exportJWK(pair.privateKey) },
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function run(
  adapter: 'local' | 'redis',
  o: RealtimeBenchOptions,
  reader: { program: string | null; note: string | null },
  log: (s: string) => void,
) {
  // An app of its own for each run: the Redis keys and channels are the app's (never another run's).
  const app = {
    id: `bench-${randomBytes(4).toString('hex')}`,
    key: 'bench-key',
    secret: randomBytes(24).toString('hex'),
  };
  const loadBefore = loadAverage();
  const firebase = await firebaseKeys();
  const started = performance.now();
  const inspectPort = o.profileDir ? await freePort() : 0;
  const server = await startBuiltServer(
    {
      LOG_LEVEL: 'silent',
      JOBS_WORKER: 'off',
      SEED_DEMO: 'false',
      REALTIME_APP_ID: app.id,
      REALTIME_APP_KEY: app.key,
      REALTIME_APP_SECRET: app.secret,
      // The chat figure's members sign in with Firebase ID tokens the bench signs; its seller's ad is
      // published as it is placed.
      FIREBASE_PROJECT_ID: firebase.key.projectId,
      FIREBASE_JWKS_URL: firebase.url,
      MODERATION: 'post',
      ...(adapter === 'redis' && o.redis ? { REDIS_URL: o.redis } : {}),
    },
    inspectPort ? { nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`] } : {},
  ).catch(async (error: Error) => {
    await firebase.stop();
    throw error;
  });
  const profiles: Record<string, string[]> = {};
  /** Runs `phase`, profiled when asked. */
  const measure = async <T>(name: string, phase: () => Promise<T>): Promise<T> => {
    if (!o.profileDir) return phase();
    const profiler = await connectProfiler(inspectPort);
    await profiler.start();
    const result = await phase();
    profiles[name] = summariseProfile(await profiler.stop(), o.profileDir, process.cwd());
    return result;
  };
  const serverStartMs = Math.round(performance.now() - started);
  const pid = server.child.pid as number;
  const client = startClient();
  try {
    const limits = { server: fdLimit(pid), client: fdLimit(client.child.pid as number) };
    const needed = Math.max(o.connections, o.fanout, o.chats * 2, o.pairs * 3) + 200;
    if (limits.server < needed || limits.client < needed) {
      throw new Error(
        `open-file limit too low for ${needed} sockets (server ${limits.server}, client ${limits.client}): ` +
          `raise it, e.g. \`ulimit -n ${Math.max(needed * 2, 20_000)}\`, or measure fewer with --rt-connections`,
      );
    }
    await client.call('setup', { url: server.url, app, perAddress: PER_ADDRESS } satisfies ClientSetup);
    const cpu = () => processCpuMs(pid);

    // 1. Concurrent connections, each subscribed to its own private channel (as a member's tab is).
    log(`  ${adapter}: ${o.connections} connections…`);
    await sleep(500);
    const before = status(pid);
    let c0 = cpu();
    const opened = await measure('connections', () =>
      client.call<OpenResult>('open', {
        group: 'members',
        count: o.connections,
        subscriptions: { kind: 'own', prefix: 'private-users.' },
      }),
    );
    await sleep(1000);
    const at = status(pid);
    const connections = {
      ...opened,
      rss_before_mb: mb(before.rss),
      rss_mb: mb(at.rss),
      peak_rss_mb: mb(at.hwm),
      kb_per_connection: opened.opened ? Math.round((at.rss - before.rss) / opened.opened) : 0,
      server_cpu_ms: cpu() - c0,
    };
    await client.call('close', { group: 'members' });
    await sleep(1000);

    // 2. Fan-out: one channel, `fanout` subscribers.
    log(`  ${adapter}: fan-out to ${o.fanout}…`);
    const channel = 'private-bench-fanout';
    const fanArgs = { group: 'fanout', channel, rounds: o.rounds, gapMs: 10 };
    let fanout: RealtimeRun['fanout'];
    let floor: RealtimeRun['fanout_floor'] = null;
    if (reader.program) {
      c0 = cpu();
      const fan = await measure('fan-out', () =>
        client.call<FanoutResult>('fanout', { ...fanArgs, reader: { program: reader.program, count: o.fanout } }),
      );
      const open = fan.reader_open ?? { opened: 0, failed: 0, ms: 0, errors: [] };
      fanout = { ...fan, open, server_cpu_ms: cpu() - c0, client_cpu_ms: fan.reader_cpu_ms ?? 0 };
      log(`  ${adapter}: the fan-out's floor on this machine…`);
      floor = await client.call<NonNullable<RealtimeRun['fanout_floor']>>('fanoutFloor', {
        channel,
        rounds: o.rounds,
        gapMs: fanArgs.gapMs,
        reader: { program: reader.program, count: o.fanout },
      });
    } else {
      const fanOpen = await client.call<OpenResult>('open', {
        group: 'fanout',
        count: o.fanout,
        subscriptions: { kind: 'one', channel },
      });
      c0 = cpu();
      const cc0 = (await client.call<{ ms: number }>('cpu')).ms;
      const fan = await measure('fan-out', () => client.call<FanoutResult>('fanout', fanArgs));
      fanout = {
        ...fan,
        open: fanOpen,
        server_cpu_ms: cpu() - c0,
        client_cpu_ms: (await client.call<{ ms: number }>('cpu')).ms - cc0,
      };
    }
    await client.call('close', { group: 'fanout' });
    await sleep(500);

    // 3. and 4. Chats of two: throughput through batch_events, then latency at a steady rate.
    log(`  ${adapter}: ${o.chats} chats, events as fast as they are taken…`);
    const prefix = 'private-chats.';
    const chatOpen = await client.call<OpenResult>('open', {
      group: 'chats',
      count: o.chats * 2,
      subscriptions: { kind: 'chats', prefix },
    });
    c0 = cpu();
    const cc0 = (await client.call<{ ms: number }>('cpu')).ms;
    const thr = await measure('throughput', () =>
      client.call<ThroughputResult>('throughput', {
        group: 'chats',
        prefix,
        chats: o.chats,
        seconds: o.seconds,
        batch: 10,
        concurrency: 8,
      }),
    );
    const throughput = {
      ...thr,
      open: chatOpen,
      server_cpu_ms: cpu() - c0,
      client_cpu_ms: (await client.call<{ ms: number }>('cpu')).ms - cc0,
    };
    await sleep(500);
    log(`  ${adapter}: the trigger path, chat-shaped events at ${o.rate}/s…`);
    c0 = cpu();
    const trig = await measure('trigger path', () =>
      client.call<TriggerLatencyResult>('triggerLatency', {
        group: 'chats',
        prefix,
        chats: o.chats,
        messages: o.messages,
        rate: o.rate,
      }),
    );
    const trigger = { ...trig, server_cpu_ms: cpu() - c0 };
    await client.call('close', { group: 'chats' });
    await sleep(500);

    // 5. Chat messages through the app's chat API.
    log(`  ${adapter}: ${o.pairs} chats through the chat API (members, an ad, the chats, their pages)…`);
    const chatSetup = await client.call<ChatSetupResult>('chatSetup', { pairs: o.pairs, firebase: firebase.key });
    await sleep(500);
    log(`  ${adapter}: chat messages through the chat API at ${o.rate}/s…`);
    c0 = cpu();
    const sent = await measure('chat messages', () =>
      client.call<ChatApiResult>('chatApi', { messages: o.messages, rate: o.rate }),
    );
    const chat = { ...sent, setup: chatSetup, server_cpu_ms: cpu() - c0 };
    await client.call('chatClose');
    return {
      adapter,
      load_average: { before: loadBefore, after: loadAverage() },
      server_start_ms: serverStartMs,
      fd_limit: limits,
      connections,
      fanout,
      fanout_floor: floor,
      reader_note: reader.note,
      writer: loadFanoutWriter().writer ? 'native' : 'socket.write',
      throughput,
      trigger,
      chat,
      rss_end_mb: mb(status(pid).rss),
      profiles,
    } satisfies RealtimeRun;
  } finally {
    if (client.child.connected) client.child.disconnect();
    await server.stop();
    await firebase.stop();
  }
}

/** Runs the section with the local adapter, then with Redis when `redis` is given. */
export async function benchRealtime(
  options: Partial<RealtimeBenchOptions> = {},
  log: (s: string) => void = console.log,
): Promise<RealtimeRun[]> {
  const o = { ...REALTIME_DEFAULTS, ...options };
  // Each buyer writes every pairs-th message after the chat's first one, within the per-member limit.
  const perBuyer = 1 + Math.ceil(o.messages / o.pairs);
  if (perBuyer > CHAT_MESSAGE_LIMIT.limit) {
    throw new Error(
      `${o.messages} chat messages over ${o.pairs} chats are ${perBuyer} messages a buyer, over the ` +
        `${CHAT_MESSAGE_LIMIT.limit} a member may send in ${CHAT_MESSAGE_LIMIT.windowSeconds / 60} minutes: ` +
        `raise --rt-pairs to at least ${Math.ceil(o.messages / (CHAT_MESSAGE_LIMIT.limit - 1))}`,
    );
  }
  const reader = { program: null as string | null, note: null as string | null };
  if (o.reader === 'native') {
    try {
      reader.program = await buildFanoutReader();
    } catch (error) {
      reader.note = `the native reader could not be built (${(error as Error).message})`;
      log(`  fan-out: ${reader.note}: the Node client reads it`);
    }
  }
  const runs = [await run('local', o, reader, log)];
  if (o.redis) runs.push(await run('redis', o, reader, log));
  return runs;
}

export interface Check {
  figure: string;
  measured: string;
  ok: boolean | null;
}

/** Each run's figures next to the targets of docs/performance.md. */
export function realtimeChecks(runs: RealtimeRun[]): Check[] {
  const t = REALTIME_TARGETS;
  const checks: Check[] = [];
  for (const r of runs) {
    const a = `realtime (${r.adapter})`;
    const c = r.connections;
    checks.push({
      figure: `${a}: ${n(t.connections)} concurrent connections, server RSS < ${t.rss_mb} MB`,
      measured:
        `${n(c.opened)} open${c.failed ? ` (${c.failed} failed: ${c.errors[0] ?? ''})` : ''}, RSS ${c.rss_mb} MB ` +
        `(${c.rss_before_mb} MB before, ${c.kb_per_connection} KB a connection)`,
      ok: c.opened >= t.connections && c.failed === 0 && c.rss_mb < t.rss_mb,
    });
    const f = r.fanout;
    checks.push({
      figure: `${a}: one event to ${n(t.fanout_subscribers)} subscribers, p95 ≤ ${t.fanout_p95_ms} ms, p99 ≤ ${t.fanout_p99_ms} ms`,
      measured:
        `${n(f.subscribers)} subscribers, ${f.rounds} rounds: p95 ${f.latency.p95_ms} ms, p99 ${f.latency.p99_ms} ms` +
        `${f.missing ? `, ${n(f.missing)} receipts missing` : ''}${f.duplicates ? `, ${n(f.duplicates)} twice` : ''}` +
        ` (written by ${r.writer === 'native' ? 'the native writer' : 'socket.write'}, ` +
        `read by the ${f.reader === 'native' ? 'native reader' : 'Node client'})` +
        (r.fanout_floor
          ? `; this machine's floor, a C writer in the server's place: p95 ${r.fanout_floor.latency.p95_ms} ms, ` +
            `p99 ${r.fanout_floor.latency.p99_ms} ms`
          : ''),
      ok:
        f.subscribers >= t.fanout_subscribers &&
        f.missing === 0 &&
        f.duplicates === 0 &&
        f.latency.p95_ms <= t.fanout_p95_ms &&
        f.latency.p99_ms <= t.fanout_p99_ms,
    });
    const h = r.throughput;
    checks.push({
      figure: `${a}: ≥ ${n(t.events_per_s)} events/s through the signed HTTP API to chats of two, every event delivered`,
      measured:
        `${n(h.events_per_s)} events/s (${n(h.events)} in batches of ${h.batch}), ` +
        `${n(h.delivered)} of ${n(h.expected)} deliveries${h.failed_requests ? `, ${h.failed_requests} requests failed` : ''}`,
      ok: h.events_per_s >= t.events_per_s && h.delivered === h.expected && h.failed_requests === 0,
    });
    const m = r.chat;
    const all = [m.shown, m.inbox, m.echo];
    const refused = Object.entries(m.statuses).map(([status, count]) => `${count} answered ${status}`);
    checks.push({
      figure:
        `${a}: chat message sent (POST /api/chats/{id}/messages) → shown to the other party, ` +
        `p95 ≤ ${t.chat_p95_ms} ms, every message delivered once`,
      measured:
        `p50 ${m.shown.latency.p50_ms} ms, p95 ${m.shown.latency.p95_ms} ms, p99 ${m.shown.latency.p99_ms} ms ` +
        `at ${m.rate} messages/s in ${n(m.pairs)} chats; ${n(m.stored)} of ${n(m.messages)} stored` +
        `${refused.length ? ` (${refused.join(', ')})` : ''}; ${deliveries(all)}`,
      ok:
        m.shown.latency.p95_ms <= t.chat_p95_ms &&
        m.stored === m.messages &&
        all.every((d) => d.delivered === d.expected && d.duplicates === 0 && d.misrouted === 0),
    });
  }
  return checks;
}

/** Deliveries of the chat figure, summed: what reached a socket, of what should have, and any surplus. */
function deliveries(kinds: Deliveries[]): string {
  const sum = (f: (d: Deliveries) => number) => kinds.reduce((s, d) => s + f(d), 0);
  const extra = sum((d) => d.duplicates);
  const wrong = sum((d) => d.misrouted);
  return (
    `${n(sum((d) => d.delivered))} of ${n(sum((d) => d.expected))} deliveries` +
    `${extra ? `, ${n(extra)} twice` : ''}${wrong ? `, ${n(wrong)} to the wrong socket` : ''}`
  );
}

const n = (x: number) => x.toLocaleString('en-US').replaceAll(',', ' ');

export function printRealtimeBench(runs: RealtimeRun[]) {
  console.log(
    '\nRealtime: the embedded Pusher-protocol server in the built server, one process; clients in a process of\n' +
      'their own over loopback. Latency is from the publish call to the frame reaching the client code; the CPU\n' +
      "column is the server's CPU time per event (per round of the fan-out), which other work on the machine\n" +
      'disturbs less than latency.\n',
  );
  const perEvent = (ms: number, events: number) => Math.round((100 * ms) / Math.max(1, events)) / 100;
  for (const r of runs) {
    const c = r.connections;
    const h = r.throughput;
    const m = r.chat;
    const hCpu = perEvent(h.server_cpu_ms, h.events);
    console.log(
      `${r.adapter} adapter: server ready in ${n(r.server_start_ms)} ms; open-file limit: server ${r.fd_limit.server}, ` +
        `client ${r.fd_limit.client}; load average before ${r.load_average.before.join(' ')}, after ${r.load_average.after.join(' ')}`,
    );
    const busiest = Math.max(r.load_average.before[0] ?? 0, r.load_average.after[0] ?? 0);
    if (busiest > availableParallelism()) {
      console.log(
        `  note: a load average of ${busiest} on ${availableParallelism()} CPUs: other work shared the machine, ` +
          'so latency and events/s are worse than the server alone would give; the CPU column is steadier',
      );
    }
    console.log(
      `  connections: ${n(c.opened)} open in ${n(c.ms)} ms (${c.failed} failed), each subscribed to its own private channel; ` +
        `server RSS ${c.rss_before_mb} → ${c.rss_mb} MB (${c.kb_per_connection} KB a connection, peak ${c.peak_rss_mb} MB)`,
    );
    console.log(
      `  throughput: ${n(h.events)} events in ${n(h.requests)} batch_events requests (${h.batch} events each, 8 in flight) ` +
        `to ${n(h.open.opened / 2)} chats: ${n(h.events_per_s)} events/s over ${h.seconds} s, ${n(h.delivered)} of ` +
        `${n(h.expected)} deliveries (${h.duplicates} twice); at ${hCpu} ms of server CPU an event, one core takes ` +
        `${n(Math.round(1000 / Math.max(hCpu, 0.001)))} events/s (client CPU ${n(h.client_cpu_ms)} ms)`,
    );
    const f = r.fanout;
    const readBy =
      f.reader === 'native'
        ? 'the native reader (scripts/lib/fanout-reader.c)'
        : `the Node client${r.reader_note ? `, as ${r.reader_note}` : ''}`;
    console.log(
      `  fan-out: ${n(f.subscribers)} subscribers of one channel, ${f.rounds} rounds, written by ` +
        `${r.writer === 'native' ? `the server's native writer (${FANOUT_WRITER_FILE})` : 'one socket.write a socket (no native writer built)'}, ` +
        `read by ${readBy}; CPU a ` +
        `round: server ${perEvent(f.server_cpu_ms, f.rounds)} ms, reader ${perEvent(f.client_cpu_ms, f.rounds)} ms ` +
        "(one thread reads every subscriber's frame, so a reader slower than the server adds to the later receipts)",
    );
    if (r.fanout_floor) {
      const g = r.fanout_floor;
      console.log(
        `  fan-out floor: the same ${n(g.subscribers)} loopback connections and reader, each round written by the ` +
          `reader's own C writer (one thread, one write a connection, the server's frame): what one writing ` +
          `thread gets from this machine's loopback; ${n(g.missing)} receipts missing, ${n(g.duplicates)} twice`,
      );
    }
    const rows: [string, Latency, number][] = [
      [
        `fan-out: ${n(r.fanout.subscribers)} subscribers × ${r.fanout.rounds} rounds`,
        r.fanout.latency,
        perEvent(r.fanout.server_cpu_ms, r.fanout.rounds),
      ],
      ['fan-out: the first subscriber of each round', r.fanout.first, Number.NaN],
      ['fan-out: the last subscriber of each round', r.fanout.last, Number.NaN],
      ...(r.fanout_floor
        ? ([
            [
              "fan-out floor: a C writer in the server's place",
              r.fanout_floor.latency,
              perEvent(r.fanout_floor.writer_cpu_ms, r.fanout_floor.rounds),
            ],
          ] as [string, Latency, number][])
        : []),
      ['throughput run: each delivery', h.latency, hCpu],
      [
        `trigger path at ${r.trigger.rate}/s: each delivery`,
        r.trigger.latency,
        perEvent(r.trigger.server_cpu_ms, r.trigger.messages),
      ],
      [`trigger path at ${r.trigger.rate}/s: the publish call`, r.trigger.call, Number.NaN],
      [`chat API at ${m.rate}/s: shown to the other party`, m.shown.latency, perEvent(m.server_cpu_ms, m.messages)],
      [`chat API at ${m.rate}/s: the other's chat list`, m.inbox.latency, Number.NaN],
      [`chat API at ${m.rate}/s: the POST's answer`, m.call, Number.NaN],
    ];
    const columns = ['p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'CPU ms'];
    console.log(`  ${''.padEnd(48)}${columns.map((x) => x.padStart(9)).join('')}`);
    for (const [name, l, cpu] of rows) {
      const values = [l.p50_ms, l.p95_ms, l.p99_ms, l.max_ms, Number.isNaN(cpu) ? '' : cpu];
      console.log(`  ${name.padEnd(48)}${values.map((x) => String(x).padStart(9)).join('')}`);
    }
    const t = r.trigger;
    console.log(
      `  trigger path: ${n(t.messages)} chat-shaped events, each one publish (POST /apps/{id}/events) to a private ` +
        `channel of two sockets: ${n(t.delivered)} of ${n(t.expected)} delivered (the realtime server alone)`,
    );
    const refused = Object.entries(m.statuses).map(([status, count]) => `${count} answered ${status}`);
    console.log(
      `  chat API: a seller's ad and ${n(m.pairs)} buyers' chats about it (${m.setup.members} members signed in ` +
        `through the Firebase exchange, p50 ${m.setup.sign_in.p50_ms} ms; ${n(m.setup.open.opened)} sockets ` +
        `subscribed through POST /api/broadcasting/auth${m.setup.open.failed ? `, ${m.setup.open.failed} failed: ${m.setup.open.errors[0]}` : ''}; ` +
        `set up in ${n(m.setup.ms)} ms); ${n(m.messages)} messages, each POST /api/chats/{id}/messages by the buyer: ` +
        `${n(m.stored)} stored${refused.length ? ` (${refused.join(', ')}: ${m.errors[0] ?? ''})` : ''}; ` +
        `the seller's thread ${n(m.shown.delivered)} of ${n(m.shown.expected)}, chat list ${n(m.inbox.delivered)} of ` +
        `${n(m.inbox.expected)}, the buyer's own thread ${n(m.echo.delivered)} of ${n(m.echo.expected)}; ` +
        `${deliveries([m.shown, m.inbox, m.echo])}; the client's own event loop ran up to ` +
        `${m.client_delay.max_ms} ms late (p99 ${m.client_delay.p99_ms} ms)`,
    );
    console.log(`  server RSS at the end ${r.rss_end_mb} MB`);
    for (const [phase, lines] of Object.entries(r.profiles)) console.log(`\n  ${phase}: ${lines.join('\n  ')}`);
  }
}

// On its own: node scripts/bench-realtime.ts [--redis URL] [--rt-connections N] [--rt-fanout N] …
if (import.meta.main) {
  process.chdir(path.resolve(import.meta.dirname, '..'));
  const options = realtimeOptions(process.argv.slice(2));
  const runs = await benchRealtime(options).catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
  printRealtimeBench(runs);
  console.log('\nTargets (docs/performance.md)\n');
  for (const c of realtimeChecks(runs)) {
    console.log(`  ${c.ok === null ? '  —  ' : c.ok ? ' ok  ' : 'MISS '} ${c.figure}: ${c.measured}`);
  }
}

/**
 * --redis URL, --rt-reader native|node (what reads the fan-out) and the sizes (--rt-connections,
 * --rt-fanout, --rt-rounds, --rt-chats, --rt-seconds, --rt-pairs, --rt-messages, --rt-rate).
 */
export function realtimeOptions(argv: string[]): Partial<RealtimeBenchOptions> {
  const out: Partial<RealtimeBenchOptions> = {};
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? (argv[i + 1] ?? '') : null;
  };
  if (argv.includes('--profile')) {
    out.profileDir = path.resolve('bench-results', 'profiles');
    mkdirSync(out.profileDir, { recursive: true });
  }
  const redis = value('redis');
  if (redis !== null) {
    if (!/^rediss?:\/\//.test(redis)) {
      console.error('--redis needs a redis:// URL');
      process.exit(2);
    }
    out.redis = redis;
  }
  const reader = value('rt-reader');
  if (reader !== null) {
    if (reader !== 'native' && reader !== 'node') {
      console.error('--rt-reader is native or node');
      process.exit(2);
    }
    out.reader = reader;
  }
  const sizes = ['connections', 'fanout', 'rounds', 'chats', 'seconds', 'pairs', 'messages', 'rate'] as const;
  for (const key of sizes) {
    const raw = value(`rt-${key}`);
    if (raw === null) continue;
    const x = Number(raw);
    if (!Number.isSafeInteger(x) || x < 1) {
      console.error(`--rt-${key} needs a whole number ≥ 1`);
      process.exit(2);
    }
    out[key] = x;
  }
  return out;
}
