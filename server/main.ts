// Process entry: one process, or a cluster of WEB_CONCURRENCY workers, serving the app.
// Production imports the built server bundle; development (`node --conditions=development`)
// loads the same module through Vite with hot reload.
import cluster from 'node:cluster';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from './config.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './db/seed/demo-accounts.ts';

type HttpModule = typeof import('./http.ts');

const development = process.execArgv.some((a) => a.includes('conditions=development'));

function fail(error: unknown): never {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  fail(error);
}

async function loadHttp(): Promise<{ http: HttpModule; devMiddleware?: import('express').RequestHandler }> {
  if (development) {
    const { createServer } = await import('vite');
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    const http = (await vite.ssrLoadModule('./server/http.ts')) as HttpModule;
    return { http, devMiddleware: vite.middlewares };
  }
  const bundle = path.resolve('build/server/index.js');
  if (!existsSync(bundle))
    fail('No server build found: run `npm run build` (or `npm start`, which builds when needed).');
  process.env.SOUQ_BUILD_TIME ??= statSync(bundle).mtime.toISOString();
  return { http: (await import(pathToFileURL(bundle).href)) as HttpModule };
}

async function serve(skipPrepare: boolean) {
  const { http, devMiddleware } = await loadHttp();
  const running = await http.start({ config, devMiddleware, skipPrepare });
  const { logger } = running.services;
  if (!cluster.isWorker) {
    console.log(`\n  Souq is running at ${running.url}  (العربية)  and  ${running.url}/en  (English)`);
    if (config.seedDemo) {
      console.log(`  Demo accounts (password ${DEMO_PASSWORD}): ${DEMO_ACCOUNTS.map((a) => a.email).join(', ')}`);
    }
    console.log('');
  }
  logger.info({ url: running.url, database: running.services.database.dialect }, 'listening');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining connections');
    running.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (cluster.isPrimary && config.webConcurrency > 1 && !development) {
  const { http } = await loadHttp();
  await http.prepare(config).catch(fail);
  for (let i = 0; i < config.webConcurrency; i++) cluster.fork();
  let stopping = false;
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    console.error(`worker ${worker.process.pid} exited with ${code}; starting another`);
    cluster.fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      cluster.on('exit', () => {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      });
    });
  }
} else {
  serve(cluster.isWorker).catch(fail);
}
