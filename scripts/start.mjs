// `npm start`: build when the sources are newer than the build, then serve.
// Migrations and the catalogue seed of an empty database run at start-up (server/http.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bundle = path.join(root, 'build/server/index.js');
const inputs = ['app', 'server', 'public', 'content', 'vite.config.ts', 'react-router.config.ts', 'package-lock.json'];

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = 0;
  for (const e of readdirSync(p)) max = Math.max(max, newest(path.join(p, e)));
  return max;
}

const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
if (built === 0 || inputs.some((i) => newest(path.join(root, i)) > built)) {
  console.log(built ? 'Sources changed since the last build: building…' : 'No build yet: building…');
  const r = spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  // The brotli and gzip forms of the client files, as `npm run build` writes them (ADR 0011).
  const p = spawnSync(process.execPath, ['scripts/precompress.ts'], { cwd: root, stdio: 'inherit' });
  if (p.status !== 0) process.exit(p.status ?? 1);
  // The realtime server's fan-out writer, when the machine has a C compiler (scripts/build-native.ts).
  spawnSync(process.execPath, ['scripts/build-native.ts'], { cwd: root, stdio: 'inherit' });
}

// The quick start: production build and runtime, plus the demo accounts, unless the operator set
// NODE_ENV (then SEED_DEMO decides, off by default in production).
const env = process.env.NODE_ENV
  ? process.env
  : { ...process.env, NODE_ENV: 'production', SEED_DEMO: process.env.SEED_DEMO ?? 'true' };
const child = spawn(process.execPath, ['server/main.ts'], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
