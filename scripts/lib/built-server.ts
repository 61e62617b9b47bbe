// Starts the built server (build/server/index.js) as a child process on a free port (or the one given)
// with a fresh DATA_DIR; used by the HTTP and end-to-end tests and by `npm run bench` (which may add
// Node options, e.g. --cpu-prof).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface RunningTestServer {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop: () => Promise<number | null>;
}

export async function startBuiltServer(
  env: Record<string, string> = {},
  options: { nodeArgs?: string[]; port?: number } = {},
): Promise<RunningTestServer> {
  if (!existsSync('build/server/index.js'))
    throw new Error('No build: run `npm run build` before the HTTP or end-to-end tests.');
  const port = options.port ?? (await freePort());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'souq-http-'));
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(child, `${url}/readyz`, 60_000, 'server');
  return {
    url,
    dataDir,
    child,
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
      return child.exitCode;
    },
  };
}

/** Waits until `url` answers 2xx; throws when `child` exits first or `ms` pass. */
export async function waitUntilAnswering(child: ChildProcess, url: string, ms: number, name: string) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false, // not listening yet
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${name} did not become ready in ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** SIGTERM, then waits for the exit (at once when it has exited already). */
export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
