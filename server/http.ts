// The HTTP shell (bundled into the server build): static assets, health checks, the JSON API,
// locale routing and the React Router handler, on one Express app and one port.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import compression from 'compression';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { RouterContextProvider, type ServerBuild } from 'react-router';
import { localeOfPath } from '../app/i18n/config.ts';
import { i18nFor } from '../app/i18n/resources.server.ts';
import { FLASH_COOKIE } from '../app/lib/page-cache.ts';
import { createAuth } from './auth/index.ts';
import { type Config, loadConfig } from './config.ts';
import { type AppServices, type BuildInfo, requestContext, servicesContext } from './context.ts';
import { type DatabaseHandle, openDatabase } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDemoAds } from './db/seed/ads.ts';
import { seedDemoAccounts } from './db/seed/demo.ts';
import { isDatabaseEmpty, seedCatalogue } from './db/seed/index.ts';
import { setAfterCommitLogger } from './db/transaction.ts';
import { recordAdView } from './domain/ads/view.ts';
import { seedPermissions } from './domain/permissions.ts';
import { searchEngine } from './domain/search/service.ts';
import { titleWords } from './domain/search/suggest.ts';
import { setSettingDefaults } from './domain/settings.ts';
import { apiErrorHandler, apiRouter } from './http/api.ts';
import { authEndpoints } from './http/auth-endpoints.ts';
import { bannerClickRouter } from './http/banners.ts';
import { API_BODY_LIMIT, apiBodies } from './http/body.ts';
import { localeRouting } from './http/locale.ts';
import { answerFromMemory, createPageCache, type StoredPage, storedPage } from './http/page-cache.ts';
import { createPageHandler } from './http/pages.ts';
import { pageOriginMismatch, securityHeaders } from './http/security.ts';
import { sitemapRouter, siteOrigin } from './http/sitemap.ts';
import { BENCH_STATIC, staticFiles } from './http/static-files.ts';
import { uploadsRouter } from './http/uploads.ts';
import { jobHandlers, mailLinks, schedules } from './jobs/app-jobs.ts';
import { createWorker } from './jobs/queue.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMailer } from './mail/index.ts';
import { createStorage } from './media/storage.ts';
import { relayBans } from './realtime/bans.ts';
import { relayChats } from './realtime/chats.ts';
import { apiHandler, createPublisher, startRealtime } from './realtime/index.ts';
import { relayNotifications } from './realtime/notifications.ts';
import { createSmsSender } from './sms/index.ts';

export interface StartOptions {
  /** Vite's dev middleware (development only). */
  devMiddleware?: RequestHandler;
  /** Overrides the configuration read from the environment (tests). */
  config?: Config;
  /** Listen on this port instead of the configured one (0 = any free port). */
  port?: number;
  /** Skip migrations and catalogue seeding (they ran in the cluster primary). */
  skipPrepare?: boolean;
}

/** Cache-Control of hashed files: their name changes with their content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const loadBuild = () => import('virtual:react-router/server-build') as Promise<ServerBuild>;

/**
 * Demo ads drawn with photos at a first start: the newest 40, two photos at most, a few seconds
 * (all of them take half a minute: `npm run db:seed` on an empty database draws every one).
 */
const DEMO_PHOTOS_AT_START = { photoAds: 40, maxPhotosPerAd: 2 };

/**
 * Migrations, permissions and roles, the catalogue into an empty database, and the demo accounts
 * and demo ads when asked for. Safe to run at every start.
 */
export async function prepareDatabase(config: Config, database: DatabaseHandle, logger: Logger): Promise<void> {
  const applied = await migrateToLatest(database.db, database.dialect);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  await seedPermissions(database.db);
  if (await isDatabaseEmpty(database.db)) {
    const report = await seedCatalogue(database.db);
    logger.info(report, 'empty database: catalogue and cities seeded');
  }
  if (config.seedDemo) {
    // Demo accounts are created verified: no mail is sent for them.
    const created = await seedDemoAccounts(database.db, createAuth(config, database, { quiet: true }));
    if (created.length) logger.info({ created }, 'demo accounts created');
    // A lively site from the first start: demo ads into a database without any (server/db/seed/ads.ts).
    const ads = config.seedDemoAds
      ? await seedDemoAds(database, { storage: createStorage(config), ...DEMO_PHOTOS_AT_START })
      : undefined;
    if (ads) logger.info({ ads: ads.ads, photos: ads.photos, ms: ads.ms }, 'demo ads seeded');
  }
}

/** Runs migrations and seeding once, before worker processes start (cluster primary). */
export async function prepare(config: Config = loadConfig()): Promise<void> {
  const logger = createLogger(config.logLevel);
  const database = openDatabase(config.database, { poolSize: 2 });
  try {
    await prepareDatabase(config, database, logger);
  } finally {
    await database.close();
  }
}

export function createApp(services: AppServices, opts: { devMiddleware?: RequestHandler } = {}) {
  const { config, logger } = services;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', 'strong');

  // Request id + one log line per request.
  app.use((req, res, next) => {
    const id = (req.get('x-request-id') || '').slice(0, 64) || randomUUID();
    res.setHeader('X-Request-Id', id);
    res.locals.requestId = id;
    res.locals.logger = logger.child({ req_id: id });
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : 'info';
      res.locals.logger[level](
        { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  });

  // A path whose escapes do not decode names nothing here: refused before any router reads it.
  app.use((req, res, next) => {
    try {
      decodeURIComponent(req.path);
      next();
    } catch {
      const t = i18nFor(localeOfPath(req.path)).t;
      if (req.path.startsWith('/api/')) return void res.status(400).json({ message: t('errors:bad-request') });
      res.status(400).type('text/plain').send(t('common:error-page.bad-request-description'));
    }
  });

  app.use(
    securityHeaders({ development: !config.isProduction && !!opts.devMiddleware, mapTileUrl: config.mapTileUrl }),
  );
  // The build's files, in the brotli or gzip form written at build time (server/http/static-files.ts,
  // ADR 0011): no request compresses them. Ahead of the compression middleware, which they skip.
  const clientDir = path.resolve('build/client');
  if (!opts.devMiddleware) {
    app.use('/assets', staticFiles(path.join(clientDir, 'assets'), { cacheControl: IMMUTABLE }));
    app.use(staticFiles(clientDir, { cacheControl: 'public, max-age=3600', only: (f) => !f.startsWith('assets/') }));
  }
  // `npm run bench`: a file of the size of a page served like the build's files (it writes
  // bench-static.html and its forms beside BENCH_PAGE_FILE before the first request).
  const benchPageFile = config.benchPageFile;
  if (benchPageFile) {
    app.use(
      '/__bench/static',
      staticFiles(path.dirname(benchPageFile), {
        cacheControl: IMMUTABLE,
        lazy: true,
        only: (f) => f === BENCH_STATIC,
      }),
    );
  }

  // Anything else is compressed per answer (brotli quality 2 costs half of the default 4 for about
  // 7 % more bytes): pages rendered for one visitor, the API, and a cached page whose compressed
  // forms are not ready yet (the page cache compresses its entries once: server/http/page-cache.ts).
  app.use(
    compression({
      threshold: 1024,
      brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 } },
    }),
  );

  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    // Which worker answered, for operators checking a cluster (WEB_CONCURRENCY).
    res.setHeader('X-Worker-Pid', String(process.pid));
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      await services.database.ping();
      // Not ready until the search index is built: traffic sent before would wait for it.
      if (!searchEngine(services.database).ready()) {
        res.status(503).json({ status: 'starting', database: services.database.dialect });
        return;
      }
      res.json({ status: 'ready', database: services.database.dialect });
    } catch (err) {
      logger.warn({ err }, 'readiness check failed');
      res.status(503).json({ status: 'unavailable' });
    }
  });

  if (opts.devMiddleware) app.use(opts.devMiddleware);
  app.use('/uploads', uploadsRouter(config));

  app.get('/robots.txt', (req, res) => {
    res.type('text/plain').setHeader('Cache-Control', 'public, max-age=3600');
    res.send(
      [
        'User-agent: *',
        'Allow: /',
        'Disallow: /api/',
        'Disallow: /admin',
        'Disallow: /en/admin',
        'Disallow: /locale/',
        '',
        `Sitemap: ${siteOrigin(config, req)}/sitemap.xml`,
        '',
      ].join('\n'),
    );
  });
  // /sitemap.xml and /sitemaps/*.xml, streamed from the database.
  app.use(sitemapRouter(services));

  app.get('/builds/latest.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(services.build);
  });

  // The banners' tracked redirect, in both languages, ahead of the language routing (server/http/banners.ts).
  app.use(bannerClickRouter(services));
  app.use(localeRouting());
  // Better Auth's endpoints: only the allowlisted ones, behind our limits (server/http/auth-endpoints.ts),
  // their bodies read under the API's limit before it sees them (it would read any size).
  app.use('/api/auth', apiBodies({ limit: API_BODY_LIMIT, multipart: false }));
  app.all('/api/auth/{*rest}', authEndpoints(services));
  app.use('/api', apiRouter(services));

  // Page forms are protected by strict Origin checking (docs/api.md).
  const allowedOrigins = config.appUrl ? [new URL(config.appUrl).origin] : [];
  app.use((req, res, next) => {
    if (!pageOriginMismatch(req, allowedOrigins)) return next();
    const t = i18nFor(localeOfPath(req.path)).t;
    res.status(419).type('text/plain').send(t('errors:csrf-mismatch'));
  });

  // `npm run bench`: the serving limit of pages, an HTML answered from memory at the page cache's
  // place, as a cache hit answers (same log line, security headers, compressed forms made once),
  // without lookup or render. The file is read at the first request, so the bench can write it from
  // a page it fetched.
  if (benchPageFile) {
    let page: Promise<StoredPage> | undefined;
    app.get('/__bench/page', async (req, res) => {
      page ??= storedPage(readFileSync(benchPageFile), [
        ['content-type', 'text/html; charset=utf-8'],
        ['cache-control', 'no-store'],
      ]);
      answerFromMemory(req, res, await page);
    });
  }

  // Anonymous visitors' pages that say they may be shared come from memory while fresh (ADR 0007).
  if (config.pageCacheMs > 0) {
    // Visitors whose view of an ad this process has recorded today (counted, or found counted): a
    // view counts once per visitor per ad per day, so asking the database again would change nothing.
    // Bounded: emptied when full or when the day changes.
    const recorded = new Set<string>();
    let recordedDay = '';
    const pageCache = createPageCache({
      ttlMs: config.pageCacheMs,
      sessionCookie: 'souq.session_token',
      passCookies: [FLASH_COOKIE],
      countView: async (adId, req) => {
        // Cached pages are anonymous visitors' pages of published ads.
        const ad = { id: adId, status: 'published' as const, sellerId: null };
        const visitor = { userId: null, ip: req.ip ?? '', userAgent: req.get('user-agent') ?? '' };
        const day = new Date().toISOString().slice(0, 10);
        if (day !== recordedDay || recorded.size >= 100_000) {
          recorded.clear();
          recordedDay = day;
        }
        const key = `${adId}|${visitor.ip}|${visitor.userAgent}`;
        if (recorded.has(key)) return;
        await recordAdView(services.database.db, ad, visitor).then(
          () => recorded.add(key),
          (err) => logger.warn({ err, adId }, 'view of a cached ad page not counted'),
        );
      },
    });
    app.use(pageCache.middleware);
  }

  // Pages, through server/http/pages.ts (body limits per route, domain errors as HTTP). React
  // Router prepares its route tables from the build once per handler: in production the handler is
  // made once, from the loaded build; the dev server (whose build changes) makes one per request.
  const pageHandler = (build: ServerBuild) =>
    createPageHandler({
      build,
      mode: config.isProduction ? 'production' : 'development',
      getLoadContext(req, res, body) {
        const context = new RouterContextProvider();
        context.set(servicesContext, services);
        context.set(requestContext, {
          id: res.locals.requestId,
          ip: req.ip ?? '',
          userAgent: (req.get('user-agent') ?? '').slice(0, 400),
          nonce: res.locals.nonce,
          logger: res.locals.logger,
          bodyTooLarge: body.tooLarge,
          bodyRefusal: body.refusal,
        });
        return context;
      },
    });
  let pages: RequestHandler | null = null;
  // `app.use`, not a `/{*path}` route: Express would decode the path into a parameter nobody reads,
  // and a malformed escape would fail there; React Router reads the path itself.
  app.use(async (req, res, next) => {
    if (opts.devMiddleware) return pageHandler(await loadBuild())(req, res, next);
    pages ??= pageHandler(await loadBuild());
    return pages(req, res, next);
  });

  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (req.path.startsWith('/api/')) return apiErrorHandler(services)(err, req, res, next);
    if (res.headersSent) return void res.destroy();
    // Refusals raised before a page is reached (a path whose escapes do not decode, a body that
    // does not parse) keep their 4xx status, with a translated message.
    const status = (err as { status?: unknown })?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const t = i18nFor(localeOfPath(req.path)).t;
      return void res.status(status).type('text/plain').send(t('common:error-page.bad-request-description'));
    }
    logger.error({ err, url: req.originalUrl }, 'unhandled error');
    res.status(500).type('text/plain').send('Internal Server Error');
  });
  return app;
}

export interface RunningServer {
  server: Server;
  services: AppServices;
  url: string;
  close(): Promise<void>;
}

export async function start(opts: StartOptions = {}): Promise<RunningServer> {
  const config = opts.config ?? loadConfig();
  const logger = createLogger(config.logLevel);
  // MODERATION is the mode until the super admin saves one (server/domain/settings.ts).
  setSettingDefaults({ moderation: config.moderation });
  const database = openDatabase(config.database);
  if (!opts.skipPrepare) await prepareDatabase(config, database, logger);

  const serverBuild = await loadBuild();
  const build: BuildInfo = {
    id: serverBuild.assets.version,
    time: process.env.SOUQ_BUILD_TIME ?? new Date().toISOString(),
  };
  const mailer = createMailer(config, logger);
  const sms = createSmsSender(config, logger);
  // Realtime: the embedded Pusher-protocol server, unless an external one is configured.
  const realtime = config.realtime.driver === 'embedded' ? await startRealtime(config, logger) : undefined;
  const services: AppServices = {
    config,
    database,
    logger,
    build,
    sms,
    auth: createAuth(config, database, { sms, logger }),
    realtime: createPublisher(config.realtime, realtime),
  };
  setAfterCommitLogger(logger);
  // Notifications and chat messages written here reach the members' open tabs
  // (server/realtime/notifications.ts, server/realtime/chats.ts).
  const stopNotifications = relayNotifications(database.db, services.realtime, logger);
  const stopChats = relayChats(database.db, services.realtime, logger);
  // A ban closes the member's open connections too (server/realtime/bans.ts).
  const stopBans = relayBans(services.realtime, logger);
  const app = createApp(services, { devMiddleware: opts.devMiddleware });

  // Jobs (and the recurring clean-ups, and mail) run here unless JOBS_WORKER=off leaves them to
  // `npm run worker`; a job enqueued by this process wakes this worker at once.
  const handlers = jobHandlers({ mailer, links: mailLinks(config) });
  const worker = createWorker({ db: database.db, dialect: database.dialect, logger, handlers, schedules });
  if (config.jobsWorker) worker.start();

  // The embedded realtime server's signed HTTP API, `/apps/{id}/…` (server/realtime/http-api.ts),
  // answered ahead of the Express app: it reads its own bodies, answers JSON and logs its failures,
  // and a published event reaches its sockets without the app's per-request work on the way
  // (docs/realtime.md, "Fan-out").
  const api = realtime
    ? apiHandler(realtime, { onError: (err) => logger.error({ err }, 'realtime API failed') })
    : undefined;
  const server = createServer(api ? (req, res) => api(req, res) || app(req, res) : app);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // WebSockets at /app/{key} (the embedded realtime server); any other upgrade is refused.
  if (realtime) {
    server.on('upgrade', (req, socket, head) => {
      if (!realtime.handleUpgrade(req, socket, head)) socket.destroy();
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? config.port, config.host, () => resolve());
  });
  // The search index is built in the background from the start (seconds at a million ads), so
  // the first visitors' searches find it ready or nearly so.
  searchEngine(database)
    .index()
    // Then the frequent words of titles that suggestions offer (counted in the background).
    .then(() => titleWords(database))
    .catch((error) => logger.error({ err: error }, 'search index build failed'));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // WebSockets first: each is told 4200 (reconnect, to another process) and closed.
      await realtime?.drain();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections become idle once their last response is sent: close them as
        // they do, and cut whatever is still busy after 10 s so shutdown always ends.
        server.closeIdleConnections();
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        const cut = setTimeout(() => server.closeAllConnections(), 10_000);
        server.once('close', () => {
          clearInterval(idle);
          clearTimeout(cut);
        });
      });
      await worker.stop();
      stopNotifications();
      stopBans();
      stopChats();
      await database.close();
    })();
    return closing;
  };
  return { server, services, url, close };
}
