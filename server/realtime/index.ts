// The embedded realtime server as the app runs it (server/http.ts): the app's credentials and
// limits from the configuration, the Redis adapter when REDIS_URL is set (ADR 0014).
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { Adapter } from './adapter.ts';
import { LocalAdapter } from './adapter.ts';
import { userOfChannel } from './channels.ts';
import { FANOUT_WRITER_FILE, loadFanoutWriter } from './fanout-writer.ts';
import { RedisAdapter } from './redis-adapter.ts';
import { RealtimeServer } from './server.ts';

export { apiHandler } from './http-api.ts';
export { createPublisher, type Publisher } from './publish.ts';
export { RealtimeServer } from './server.ts';

export async function startRealtime(config: Config, logger: Logger): Promise<RealtimeServer> {
  const { appId, key, secret, maxConnections, maxConnectionsPerIp } = config.realtime;
  const adapter: Adapter = config.redisUrl
    ? new RedisAdapter({ url: config.redisUrl, appId, logger })
    : new LocalAdapter();
  const { writer, problem } = loadFanoutWriter();
  if (problem) logger.warn({ problem }, `realtime: ${FANOUT_WRITER_FILE} did not load: writing through socket.write`);
  const server = new RealtimeServer({
    app: { id: appId, key, secret },
    adapter,
    writer,
    logger,
    trustProxy: config.trustProxy,
    userOfChannel,
    limits: { maxConnections, maxConnectionsPerIp },
  });
  await server.start();
  logger.info(
    { adapter: adapter.name, writer: writer ? FANOUT_WRITER_FILE : 'socket.write' },
    'realtime server started',
  );
  if (!config.redisUrl && config.webConcurrency > 1) {
    logger.warn(
      { processes: config.webConcurrency },
      'realtime: several processes without REDIS_URL: each serves only its own sockets (docs/realtime.md)',
    );
  }
  return server;
}
