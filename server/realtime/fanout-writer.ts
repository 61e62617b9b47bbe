// The fan-out's native writer (./native/fanout-writer.c): a channel's frame written to its
// sockets' file descriptors in one C loop instead of one `socket.write` each. Optional: the server
// writes through Node's streams when the compiled writer is absent (no C compiler at build time).
// Where it is built, and why it exists: docs/realtime.md, "Fan-out"; docs/decisions/0018-native-fanout-writer.md.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';

export interface FanoutWriter {
  /** Writes `frame` to each of `fds` without blocking; `written[i]` gets the bytes `fds[i]` took. */
  writeEach(fds: Int32Array, frame: Uint8Array, written: Int32Array): void;
}

/** Where `npm run build` puts the compiled writer (scripts/build-native.ts), from the app's folder. */
export const FANOUT_WRITER_FILE = path.join('build', 'native', 'fanout-writer.node');

/**
 * Loads the compiled writer: null when it was not built; `problem` says why a file that is there
 * did not load (built for another platform, say), for the log.
 */
export function loadFanoutWriter(file: string = path.resolve(FANOUT_WRITER_FILE)): {
  writer: FanoutWriter | null;
  problem?: string;
} {
  if (!existsSync(file)) return { writer: null };
  try {
    const loaded = createRequire(import.meta.url)(file) as Partial<FanoutWriter>;
    if (typeof loaded.writeEach === 'function') return { writer: loaded as FanoutWriter };
    return { writer: null, problem: `${file} has no writeEach` };
  } catch (error) {
    return { writer: null, problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Where a frame may be written to the socket directly, for its whole life: a plain TCP socket's
 * descriptor (not TLS, not a test double), -1 otherwise; and the handle it was read from.
 */
export function directTarget(socket: Duplex): { fd: number; handle: unknown } {
  const s = socket as Socket & { _handle?: { fd?: unknown } | null; encrypted?: boolean };
  const fd = s._handle?.fd;
  const ok = !s.encrypted && typeof fd === 'number' && Number.isInteger(fd) && fd >= 0;
  return { fd: ok ? fd : -1, handle: s._handle };
}

/**
 * Whether bytes written to `fd` now come after everything written to the socket before: its stream
 * holds nothing (a write the kernel did not take whole stays counted in `writableLength` until it
 * completes, corked writes too) and its handle is the one `fd` was read from (a destroyed socket
 * drops its handle synchronously, before the descriptor's number can be reused).
 */
export function canWriteDirectly(socket: Duplex, handle: unknown): boolean {
  return (socket as Socket & { _handle?: unknown })._handle === handle && socket.writableLength === 0;
}
