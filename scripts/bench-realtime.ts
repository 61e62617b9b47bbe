// The realtime section of `npm run bench` (docs/performance.md, "Realtime"): the embedded
// Pusher-protocol server (server/realtime/, ADR 0014) in the built server started as production
// starts it (server/main.ts, one process, its real configuration, the local adapter; the Redis
// adapter too with --redis), measured from a client process of its own
// (scripts/lib/bench-realtime-client.ts) over loopback:
// 1. 10 000 concurrent WebSocket connections, each subscribed (signed) to its own private channel:
//    the server process's RSS;
// 2. one event to 1 000 subscribers of one channel, round after round: the time from the publish
//    call to each subscriber's receipt;
// 3. events published through the signed HTTP API (`batch_events`) to chats of two subscribers, as
//    fast as the server takes them, every delivery counted;
// 4. chat messages at a steady rate, one publish each on the chat's private channel: the time from
//    the call to both subscribers.
// Part of `npm run bench` (--skip realtime leaves it out), or on its own:
//   node scripts/bench-realtime.ts [--redis redis://127.0.0.1:6379] [--rt-connections 10000] …
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { processCpuMs } from './lib/bench-load.ts';
import { connectProfiler, summariseProfile } from './lib/bench-profile.ts';
import type {
  ChatLatencyResult,
  ClientSetup,
  FanoutResult,
  Latency,
  OpenResult,
  ThroughputResult,
} from './lib/bench-realtime-client.ts';
import { freePort, startBuiltServer } from './lib/built-server.ts';

export interface RealtimeBenchOptions {
  /** Concurrent connections of the first figure. */
  connections: number;
  /** Subscribers of the fan-out channel, and its rounds. */
  fanout: number;
  rounds: number;
  /** Chats of two subscribers for the throughput and latency figures. */
  chats: number;
  /** Seconds of publishing as fast as the server takes it. */
  seconds: number;
  /** Chat messages of the latency figure and their rate a second. */
  messages: number;
  rate: number;
  /** Also measure with the Redis adapter (REDIS_URL) on this server. */
  redis: string | null;
  /** A CPU profile of the server during each figure, written to this folder and summarised. */
  profileDir: string | null;
}

export const REALTIME_DEFAULTS: RealtimeBenchOptions = {
  connections: 10_000,
  fanout: 1_000,
  rounds: 200,
  chats: 1_000,
  seconds: 5,
  messages: 2_000,
  rate: 200,
  redis: null,
  profileDir: null,
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
  fanout: FanoutResult & { open: OpenResult; server_cpu_ms: number };
  throughput: ThroughputResult & { open: OpenResult; server_cpu_ms: number; client_cpu_ms: number };
  chat: ChatLatencyResult & { server_cpu_ms: number };
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

async function run(adapter: 'local' | 'redis', o: RealtimeBenchOptions, log: (s: string) => void) {
  // An app of its own for each run: the Redis keys and channels are the app's (never another run's).
  const app = {
    id: `bench-${randomBytes(4).toString('hex')}`,
    key: 'bench-key',
    secret: randomBytes(24).toString('hex'),
  };
  const loadBefore = loadAverage();
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
      ...(adapter === 'redis' && o.redis ? { REDIS_URL: o.redis } : {}),
    },
    inspectPort ? { nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`] } : {},
  );
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
    const needed = Math.max(o.connections, o.fanout, o.chats * 2) + 200;
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
    const fanOpen = await client.call<OpenResult>('open', {
      group: 'fanout',
      count: o.fanout,
      subscriptions: { kind: 'one', channel },
    });
    c0 = cpu();
    const fan = await measure('fan-out', () =>
      client.call<FanoutResult>('fanout', { group: 'fanout', channel, rounds: o.rounds, gapMs: 10 }),
    );
    const fanout = { ...fan, open: fanOpen, server_cpu_ms: cpu() - c0 };
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
    log(`  ${adapter}: chat messages at ${o.rate}/s…`);
    c0 = cpu();
    const lat = await measure('chat messages', () =>
      client.call<ChatLatencyResult>('chatLatency', {
        group: 'chats',
        prefix,
        chats: o.chats,
        messages: o.messages,
        rate: o.rate,
      }),
    );
    const chat = { ...lat, server_cpu_ms: cpu() - c0 };
    await client.call('close', { group: 'chats' });
    return {
      adapter,
      load_average: { before: loadBefore, after: loadAverage() },
      server_start_ms: serverStartMs,
      fd_limit: limits,
      connections,
      fanout,
      throughput,
      chat,
      rss_end_mb: mb(status(pid).rss),
      profiles,
    } satisfies RealtimeRun;
  } finally {
    if (client.child.connected) client.child.disconnect();
    await server.stop();
  }
}

/** Runs the section with the local adapter, then with Redis when `redis` is given. */
export async function benchRealtime(
  options: Partial<RealtimeBenchOptions> = {},
  log: (s: string) => void = console.log,
): Promise<RealtimeRun[]> {
  const o = { ...REALTIME_DEFAULTS, ...options };
  const runs = [await run('local', o, log)];
  if (o.redis) runs.push(await run('redis', o, log));
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
        `${f.missing ? `, ${n(f.missing)} receipts missing` : ''}`,
      ok:
        f.subscribers >= t.fanout_subscribers &&
        f.missing === 0 &&
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
    checks.push({
      figure: `${a}: chat message (private channel, two subscribers) p95 ≤ ${t.chat_p95_ms} ms`,
      measured: `p95 ${m.latency.p95_ms} ms at ${m.rate} messages/s, ${n(m.delivered)} of ${n(m.expected)} delivered`,
      ok: m.latency.p95_ms <= t.chat_p95_ms && m.delivered === m.expected,
    });
  }
  return checks;
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
    const rows: [string, Latency, number][] = [
      [
        `fan-out: ${n(r.fanout.subscribers)} subscribers × ${r.fanout.rounds} rounds`,
        r.fanout.latency,
        perEvent(r.fanout.server_cpu_ms, r.fanout.rounds),
      ],
      ['fan-out: the last subscriber of each round', r.fanout.last, Number.NaN],
      ['throughput run: each delivery', h.latency, hCpu],
      [
        `chat messages at ${r.chat.rate}/s: each delivery`,
        r.chat.latency,
        perEvent(r.chat.server_cpu_ms, r.chat.messages),
      ],
      [`chat messages at ${r.chat.rate}/s: the publish call`, r.chat.call, Number.NaN],
    ];
    const columns = ['p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'CPU ms'];
    console.log(`  ${''.padEnd(48)}${columns.map((x) => x.padStart(9)).join('')}`);
    for (const [name, l, cpu] of rows) {
      const values = [l.p50_ms, l.p95_ms, l.p99_ms, l.max_ms, Number.isNaN(cpu) ? '' : cpu];
      console.log(`  ${name.padEnd(48)}${values.map((x) => String(x).padStart(9)).join('')}`);
    }
    console.log(`  chat messages go through: ${r.chat.via}; server RSS at the end ${r.rss_end_mb} MB`);
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

/** --redis URL and the sizes (--rt-connections, --rt-fanout, --rt-rounds, --rt-chats, --rt-seconds, --rt-messages, --rt-rate). */
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
  const sizes = ['connections', 'fanout', 'rounds', 'chats', 'seconds', 'messages', 'rate'] as const;
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
