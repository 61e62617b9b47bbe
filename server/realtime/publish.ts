// Server-side publishing: `trigger(channels, event, data, { socketId })`, called after a
// transaction commits (server/db/transaction.ts). With the embedded server the event is handed
// over in-process (and to the other processes by its adapter); with REALTIME_DRIVER=pusher it goes
// to the external Pusher, Soketi or Reverb over its HTTP API, through the official `pusher` SDK.
import Pusher from 'pusher';
import type { RealtimeConfig } from '../config.ts';
import { validateEvent } from './http-api.ts';
import type { RealtimeServer } from './server.ts';

export interface TriggerOptions {
  /** The socket that caused the event: it does not receive it (its page already shows the change). */
  socketId?: string | null;
}

export interface Publisher {
  readonly driver: RealtimeConfig['driver'];
  /**
   * Publishes `event` on each channel; `data` that is not a string is sent as JSON. Rejects on an
   * invalid channel or event name, data over 10 KB, or (external driver) a refusal of the server.
   */
  trigger(channels: string | string[], event: string, data: unknown, options?: TriggerOptions): Promise<void>;
  /**
   * Closes every open connection of the member (a ban: docs/realtime.md, "Ending a member's
   * connections"), in every process of the embedded server. An external server knows a connection's
   * member only when the client signed in (`pusher:signin`), which this app's client does not do.
   */
  terminateUserConnections(userId: string): Promise<void>;
}

/** Channels per request: Pusher's API takes at most 100. */
const CHANNELS_PER_EVENT = 100;

function groups(channels: string | string[]): string[][] {
  const list = typeof channels === 'string' ? [channels] : [...new Set(channels)];
  const out: string[][] = [];
  for (let i = 0; i < list.length; i += CHANNELS_PER_EVENT) out.push(list.slice(i, i + CHANNELS_PER_EVENT));
  return out;
}

const encode = (data: unknown) => (typeof data === 'string' ? data : JSON.stringify(data ?? null));

/** Publishes through the server running in this process. */
export function embeddedPublisher(server: RealtimeServer): Publisher {
  return {
    driver: 'embedded',
    async trigger(channels, event, data, options = {}) {
      for (const group of groups(channels)) {
        const checked = validateEvent(
          { name: event, data: encode(data), channels: group, socket_id: options.socketId ?? undefined },
          server.limits,
        );
        await server.trigger(checked);
      }
    },
    async terminateUserConnections(userId) {
      await server.terminateUserConnections(userId);
    },
  };
}

/** Publishes to an external Pusher-protocol server over its HTTP API. */
export function pusherPublisher(config: RealtimeConfig): Publisher {
  if (!config.host) throw new Error('REALTIME_HOST is required for REALTIME_DRIVER=pusher');
  const client = new Pusher({
    appId: config.appId,
    key: config.key,
    secret: config.secret,
    host: config.host,
    ...(config.port ? { port: String(config.port) } : {}),
    useTLS: config.scheme === 'https',
    timeout: 10_000,
  });
  return {
    driver: 'pusher',
    async trigger(channels, event, data, options = {}) {
      for (const group of groups(channels)) {
        await client.trigger(
          group,
          event,
          encode(data),
          options.socketId ? { socket_id: options.socketId } : undefined,
        );
      }
    },
    async terminateUserConnections(userId) {
      await client.terminateUserConnections(userId);
    },
  };
}

export function createPublisher(config: RealtimeConfig, embedded: RealtimeServer | undefined): Publisher {
  if (config.driver === 'pusher') return pusherPublisher(config);
  if (!embedded) throw new Error('The embedded realtime server is not running');
  return embeddedPublisher(embedded);
}

/**
 * The publisher of a process that runs no realtime server (`npm run worker`): the external server
 * (driver `pusher`), else the embedded server of the web processes through its signed HTTP API at
 * APP_URL. Undefined without APP_URL: that process's events then reach browsers at their next page load.
 */
export function remotePublisher(config: RealtimeConfig, appUrl: string | undefined): Publisher | undefined {
  if (config.driver === 'pusher') return pusherPublisher(config);
  if (!appUrl) return undefined;
  const url = new URL(appUrl);
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  return {
    ...pusherPublisher({ ...config, host: url.hostname, port: Number(url.port) || 0, scheme }),
    driver: 'embedded',
  };
}
