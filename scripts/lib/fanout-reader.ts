// The fan-out figure's native reader (./fanout-reader.c): building it with the machine's C
// compiler, and driving it from Node over its stdin and stdout (the line protocol is in the C
// file's header). The realtime bench's client process (./bench-realtime-client.ts) starts it,
// signs its subscriptions and publishes the rounds; tests/realtime/fanout-reader.test.ts holds it
// to a WebSocket server.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';

const SOURCE = path.join(import.meta.dirname, 'fanout-reader.c');

/**
 * Compiles the reader (`cc`, or `CC`) into the temporary folder, once per version of its source;
 * resolves with the program's path, or rejects saying why (no compiler, a compile error).
 */
export async function buildFanoutReader(): Promise<string> {
  const source = readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const out = path.join(tmpdir(), `souq-fanout-reader-${hash}`);
  if (existsSync(out)) return out;
  const compiler = process.env.CC || 'cc';
  const partial = `${out}.${process.pid}`;
  try {
    await promisify(execFile)(compiler, ['-O2', '-Wall', '-o', partial, SOURCE]);
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    throw new Error(
      e.code === 'ENOENT' ? `no C compiler (${compiler})` : `${compiler} failed: ${e.stderr?.trim() || e.message}`,
    );
  }
  // Renamed into place whole, so a concurrent build never runs a half-written program.
  await rename(partial, out);
  return out;
}

export interface FanoutReaderOptions {
  /** The compiled reader (`buildFanoutReader`). */
  program: string;
  /** http://127.0.0.1:port of the realtime server. */
  url: string;
  appKey: string;
  count: number;
  channel: string;
  /** The event whose rounds are timed; its data is the round's number, as a string. */
  event: string;
  /** Sockets per source address (127.0.x.y): under the server's per-address limit. */
  perAddress: number;
  /** Signs a subscription as an app's auth endpoint would (`auth`). */
  sign: (socketId: string, channel: string) => string;
}

/** One round's receipts: each socket's read that held the event (process.hrtime.bigint() time), and repeats. */
export interface Receipts {
  round: number;
  times: bigint[];
  duplicates: number;
}

/** The running reader: its sockets are open and subscribed when `start` resolves. */
export class FanoutReader {
  /** A round's receipts that came before `receipts` asked (the event can beat the publish call's answer). */
  private arrived: Receipts | null = null;
  private waiting: ((r: Receipts) => void) | null = null;
  private stderr = '';
  private exited: Promise<number | null>;
  readonly child: ChildProcess;
  /** `floor`: the process that writes the rounds, in the server's place. */
  writerPid: number | null = null;

  private constructor(
    child: ChildProcess,
    ready: () => void,
    fail: (e: Error) => void,
    sign: (socketId: string) => string,
  ) {
    this.child = child;
    this.exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += String(chunk);
    });
    child.once('close', (code) => fail(new Error(`fanout-reader exited with ${code}: ${this.stderr.trim()}`)));
    child.once('error', fail);
    const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const [kind, ...rest] = line.split(' ');
      if (kind === 'socket') child.stdin?.write(`auth ${rest[0]} ${sign(rest[1] ?? '')}\n`);
      else if (kind === 'ready') {
        if (rest[0]) this.writerPid = Number(rest[0]);
        ready();
      } else if (kind === 'times') {
        const [round, k, duplicates, ...times] = rest;
        if (times.length !== Number(k)) return fail(new Error(`fanout-reader: a short line: ${line.slice(0, 80)}`));
        const receipts = { round: Number(round), times: times.map(BigInt), duplicates: Number(duplicates) };
        const w = this.waiting;
        this.waiting = null;
        if (w) w(receipts);
        else this.arrived = receipts;
      }
    });
  }

  /**
   * The machine's floor for the fan-out: the reader with its own C writer in the server's place
   * (`--floor` in the C file's header); resolves once its `count` connections are open. Rounds are
   * sent with `publish`.
   */
  static floor(o: Pick<FanoutReaderOptions, 'program' | 'count' | 'channel' | 'event'>): Promise<FanoutReader> {
    return FanoutReader.run(o.program, ['--floor', String(o.count), o.channel, o.event], () => {
      throw new Error('fanout-reader --floor subscribes nothing');
    });
  }

  /** Starts the reader; resolves once every socket is subscribed. */
  static start(o: FanoutReaderOptions): Promise<FanoutReader> {
    const { hostname, port } = new URL(o.url);
    return FanoutReader.run(
      o.program,
      [
        hostname,
        port,
        `/app/${o.appKey}?protocol=7&client=souq-fanout-reader&version=1`,
        String(o.count),
        o.channel,
        o.event,
        String(o.perAddress),
      ],
      (socketId) => o.sign(socketId, o.channel),
    );
  }

  /** Spawns the program with `args`; resolves once it says `ready`, rejects if it exits first. */
  private static run(program: string, args: string[], sign: (socketId: string) => string): Promise<FanoutReader> {
    const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    return new Promise((resolve, reject) => {
      const reader: FanoutReader = new FanoutReader(child, () => resolve(reader), reject, sign);
    });
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** Times the next round: the event with the data `String(round)`. Call before publishing it. */
  expect(round: number) {
    this.arrived = null;
    this.child.stdin?.write(`expect ${round}\n`);
  }

  /** A floor's round: times it as `expect` does and has the floor's writer send it at once. */
  publish(round: number) {
    this.arrived = null;
    this.child.stdin?.write(`publish ${round}\n`);
  }

  /** The round's receipts once every socket has it, or what it has after `ms`. */
  receipts(ms: number): Promise<Receipts> {
    const arrived = this.arrived;
    this.arrived = null;
    if (arrived) return Promise.resolve(arrived);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.child.stdin?.write('report\n'), ms);
      const exit = () => reject(new Error(`fanout-reader exited: ${this.stderr.trim()}`));
      this.child.once('close', exit);
      this.waiting = (r) => {
        clearTimeout(timer);
        this.child.off('close', exit);
        resolve(r);
      };
    });
  }

  /** Closes every socket and waits for the reader to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null) this.child.stdin?.end('quit\n');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}
