// What browsers are told about the realtime server (docs/realtime.md, "The browser client"): the
// public key and where to connect, nothing secret. The embedded server is the page's own address;
// an external one (REALTIME_DRIVER=pusher) is REALTIME_CLIENT_* or else the API's host, port and scheme.
import type { BrowserRealtimeConfig } from '../../app/lib/realtime/config.ts';
import type { RealtimeConfig } from '../config.ts';

export function browserRealtimeConfig(config: RealtimeConfig): BrowserRealtimeConfig {
  const embedded = config.driver === 'embedded';
  return {
    driver: config.driver,
    broadcaster: config.broadcaster,
    key: config.key,
    host: embedded ? null : (config.client.host ?? null),
    port: embedded || !config.client.port ? null : config.client.port,
    scheme: embedded ? null : config.client.scheme,
  };
}
