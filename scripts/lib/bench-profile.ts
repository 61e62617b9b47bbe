// `npm run bench -- --profile`: a CPU profile of the server while the rows are measured, taken
// through the inspector (the server starts with --inspect on a local port), so the start-up and the
// first build of the search index stay out of it. The profile is written for Chrome DevTools
// (Performance panel, or chrome://inspect) and summarised: own time by package and by function.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Connects to the inspector of a process started with --inspect=127.0.0.1:<port>. */
export async function connectProfiler(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error('no inspector target');
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (m.id !== undefined) {
      pending.get(m.id)?.(m.result);
      pending.delete(m.id);
    }
  };
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  return {
    start: () => send('Profiler.start'),
    stop: async () => {
      const r = (await send('Profiler.stop')) as { profile: CpuProfile };
      ws.close();
      return r.profile;
    },
  };
}

/** Writes the profile into `dir` and returns its summary lines. */
export function summariseProfile(profile: CpuProfile, dir: string, root: string): string[] {
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  const byNode = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const fns = new Map<string, number>();
  const areas = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const n of profile.nodes) {
    const us = byNode.get(n.id) ?? 0;
    if (us === 0) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const where = url.replace(/^file:\/\//, '').replace(`${root}/`, '');
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1];
    const area =
      pkg ??
      (where.startsWith('node:')
        ? 'node (built-in)'
        : where === ''
          ? functionName || '(native)'
          : where.startsWith('build/server')
            ? 'app (build/server)'
            : where.split('/').slice(0, 2).join('/'));
    areas.set(area, (areas.get(area) ?? 0) + us);
    const key = `${functionName || '(anonymous)'}${where ? ` ${where}:${lineNumber + 1}` : ''}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / (busy || 1)).toFixed(1)}%`.padStart(6);
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `  ${pct(us)}  ${k}`);
  return [
    `CPU profile of the server while measured: ${path.relative(root, file)} ` +
      `(${(busy / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle; shares of the busy time)`,
    'own time by package or folder:',
    ...top(areas, 12),
    'own time by function:',
    ...top(fns, 25),
  ];
}
