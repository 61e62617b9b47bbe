// The last step of `npm run build`: compiles the realtime server's fan-out writer
// (server/realtime/native/fanout-writer.c) into build/native/ with the machine's C compiler (`cc`,
// or `CC`) against the running Node's own Node-API headers. Optional: without a compiler the step
// says so and the server writes through Node's streams (docs/decisions/0018-native-fanout-writer.md).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { FANOUT_WRITER_FILE } from '../server/realtime/fanout-writer.ts';

const root = path.resolve(import.meta.dirname, '..');
const SOURCE = path.join(root, 'server', 'realtime', 'native', 'fanout-writer.c');

/**
 * The running Node's headers: `include/node` beside its `bin` (an install from nodejs.org or the
 * system's), or in the npm `node` package's platform package, which holds the Node this project runs.
 * Node-API is the same on every later Node, so the writer does not depend on which one.
 */
export function nodeHeaders(): string | null {
  const platform = `node-${process.platform}-${process.arch}`;
  const candidates = [
    path.resolve(path.dirname(process.execPath), '..', 'include', 'node'),
    path.join(root, 'node_modules', 'node', 'node_modules', platform, 'include', 'node'),
    path.join(root, 'node_modules', platform, 'include', 'node'),
  ];
  return candidates.find((dir) => existsSync(path.join(dir, 'node_api.h'))) ?? null;
}

/** Compiles the writer into `out`; resolves to null when built, or to why not. */
export function buildFanoutWriter(out: string): string | null {
  const headers = nodeHeaders();
  if (!headers) return `no Node-API headers beside ${process.execPath}`;
  const compiler = process.env.CC || 'cc';
  mkdirSync(path.dirname(out), { recursive: true });
  const partial = `${out}.${process.pid}.tmp`;
  try {
    execFileSync(compiler, ['-O2', '-Wall', '-Werror', '-shared', '-fPIC', '-I', headers, '-o', partial, SOURCE], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    rmSync(partial, { force: true });
    const e = error as NodeJS.ErrnoException & { stderr?: Buffer };
    return e.code === 'ENOENT'
      ? `no C compiler (${compiler})`
      : `${compiler} failed: ${e.stderr?.toString().trim() || e.message}`;
  }
  // Renamed into place whole: a server starting meanwhile never loads a half-written file.
  renameSync(partial, out);
  return null;
}

if (import.meta.main) {
  const out = path.join(root, FANOUT_WRITER_FILE);
  const failure = buildFanoutWriter(out);
  if (failure) {
    // A build without it still serves everything, with more CPU a published event.
    rmSync(out, { force: true });
    console.log(`native fan-out writer not built (${failure}): the realtime server writes through Node's streams`);
  } else {
    console.log(`native fan-out writer: ${path.relative(process.cwd(), out)}`);
  }
}
