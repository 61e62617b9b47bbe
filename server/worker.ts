// `npm run worker`: a process that only runs jobs, for deployments that set JOBS_WORKER=off on the
// web processes. Any number may run; each job goes to one of them.
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { setAfterCommitLogger } from './db/transaction.ts';
import { setSettingDefaults } from './domain/settings.ts';
import { jobHandlers, mailLinks, schedules } from './jobs/app-jobs.ts';
import { createWorker } from './jobs/queue.ts';
import { createLogger } from './logger.ts';
import { createMailer } from './mail/index.ts';
import { relayNotifications } from './realtime/notifications.ts';
import { remotePublisher } from './realtime/publish.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const logger = createLogger(config.logLevel);
setSettingDefaults({ moderation: config.moderation });
const database = openDatabase(config.database, { poolSize: 2 });
await migrateToLatest(database.db, database.dialect);
setAfterCommitLogger(logger);
const handlers = jobHandlers({ mailer: createMailer(config, logger), links: mailLinks(config) });
const worker = createWorker({ db: database.db, dialect: database.dialect, logger, handlers, schedules });
// Notifications written by jobs (expiry, reminders) reach the members' open tabs through the
// realtime server of the web processes, or the external one (docs/realtime.md).
const publisher = remotePublisher(config.realtime, config.appUrl);
const stopRelay = publisher ? relayNotifications(database.db, publisher, logger) : () => {};
if (!publisher) logger.warn('realtime: no APP_URL, notifications from jobs are shown at the next page load');
worker.start();
logger.info({ database: database.dialect }, 'job worker started');

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'job worker stopping after the current job');
  await worker.stop();
  stopRelay();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
