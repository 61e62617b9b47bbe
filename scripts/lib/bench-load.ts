// Load generation for `npm run bench`: autocannon drives the requests; the latency percentiles are
// computed here from every response's time (autocannon's own histogram has whole milliseconds and
// no p95).
import type { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

/** CPU time (user + system) a process has used, in ms (Linux: /proc, 100 ticks a second). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface LoadResult {
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  /** Bytes on the wire per response (compressed), in KB. */
  kb: number;
  /** Transport errors, timeouts and answers other than 2xx. */
  errors: number;
  /** The status answered most often. */
  status: number;
  /**
   * CPU time the server process spent per response, in ms: less disturbed than latency by other
   * work on the machine (the database server's own time is not in it with PostgreSQL); null when
   * too few responses came back to tell.
   */
  cpu_ms: number | null;
}

/** The `p`-th percentile (0–100) of sorted values, to 0.1 ms. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[i] as number) * 10) / 10;
}

export function summarise(times: number[]): { p50_ms: number; p95_ms: number; p99_ms: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50_ms: percentile(sorted, 50), p95_ms: percentile(sorted, 95), p99_ms: percentile(sorted, 99) };
}

/** `connections` clients requesting `url` for `duration` seconds, one request at a time each. */
export async function load(
  url: string,
  options: { connections: number; duration: number; headers: Record<string, string>; pid?: number },
): Promise<LoadResult> {
  const { pid, ...rest } = options;
  const cpuBefore = pid ? processCpuMs(pid) : 0;
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, ...rest, timeout: 30 }, (err, r) => (err ? reject(err) : resolve(r)));
    // autocannon passes the client first (its type declarations leave it out).
    (instance as unknown as EventEmitter).on('response', (_client: unknown, status: number, _b: number, ms: number) => {
      times.push(ms);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
  const status = [...statuses].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const responses = Math.max(1, result.requests.total);
  return {
    rps: Math.round(result.requests.total / Math.max(result.duration, 0.001)),
    ...summarise(times),
    kb: Math.round(result.throughput.total / responses / 102.4) / 10,
    errors: result.errors + result.timeouts + result.non2xx,
    status,
    // Only when the responses are many: the requests in flight at either end blur a small count.
    cpu_ms:
      pid && result.requests.total >= (rest.connections === 1 ? 10 : 20 * rest.connections)
        ? Math.round(((processCpuMs(pid) - cpuBefore) / responses) * 100) / 100
        : null,
  };
}
