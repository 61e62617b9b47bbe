// The browser's realtime client configuration (docs/realtime.md, "The browser client"): what the
// server sends (`BrowserRealtimeConfig`, from the root loader for signed-in members) turned into
// laravel-echo's options, checked here so a wrong setting fails when the client is configured,
// never later on the wire:
// - broadcaster `reverb` (default) or `pusher`, nothing else; `pusher` only over https (forceTLS);
// - cookie authentication: the session cookie plus the anti-forgery token, read from `csrfCookie`,
//   fetched from `csrfEndpoint` when missing, sent in `csrfHeader` (app/lib/api-client.ts);
// - activity timeout 120 s, pong timeout 30 s, unavailable timeout 10 s;
// - WebSockets only (the CSP allows ws: and wss:, not the XHR fallbacks' hosts).
// Channel names the client makes may not start with `#` (`channelName`).

export const BROADCASTERS = ['reverb', 'pusher'] as const;
export type Broadcaster = (typeof BROADCASTERS)[number];

/** What the server tells the browser (server/realtime/browser-config.ts); nothing secret. */
export interface BrowserRealtimeConfig {
  /** `embedded`: this site serves the protocol; `pusher`: an external Pusher, Soketi or Reverb. */
  driver: 'embedded' | 'pusher';
  broadcaster: Broadcaster;
  /** The app key (`/app/{key}`). */
  key: string;
  /** The WebSocket server; null: the page's own host, port and scheme (the embedded server). */
  host: string | null;
  /** Null: the scheme's default port (or the page's, with `host` null). */
  port: number | null;
  scheme: 'http' | 'https' | null;
}

/** Cookie-mode authentication of private and presence channels (POST `endpoint`). */
export interface CookieAuthentication {
  mode: 'cookie';
  endpoint: string;
  csrfCookie: string;
  csrfEndpoint: string;
  csrfHeader: string;
}

export const CHANNEL_AUTH_ENDPOINT = '/api/broadcasting/auth';

/** Timeouts of the connection (milliseconds). */
export const REALTIME_TIMEOUTS = { activityTimeout: 120_000, pongTimeout: 30_000, unavailableTimeout: 10_000 } as const;

export class RealtimeConfigError extends Error {
  override name = 'RealtimeConfigError';
}

/** The page's address, as far as the client needs it. */
export interface PageLocation {
  protocol: string;
  hostname: string;
  port: string;
}

export interface EchoSettings {
  broadcaster: Broadcaster;
  key: string;
  wsHost: string;
  wsPort: number;
  wssPort: number;
  forceTLS: boolean;
  enabledTransports: ('ws' | 'wss')[];
  activityTimeout: number;
  pongTimeout: number;
  unavailableTimeout: number;
  /** pusher-js wants one even when `wsHost` says where to connect. */
  cluster: string;
  /** No X-Socket-ID interceptors on axios, jQuery, Vue or Turbo (the site uses none of them). */
  withoutInterceptors: true;
}

/**
 * laravel-echo's settings for `config` on a page at `page`. Throws RealtimeConfigError for a
 * broadcaster other than reverb or pusher, pusher without https, a missing key or host, or cookie
 * authentication without its three anti-forgery settings.
 */
export function echoSettings(
  config: BrowserRealtimeConfig,
  auth: CookieAuthentication,
  page: PageLocation,
): EchoSettings {
  const broadcaster = config.broadcaster as string;
  if (!(BROADCASTERS as readonly string[]).includes(broadcaster)) {
    throw new RealtimeConfigError(`Broadcaster "${broadcaster}" is not supported: use reverb or pusher`);
  }
  if (!config.key) throw new RealtimeConfigError('The realtime app key is missing');
  if (auth.mode !== 'cookie') throw new RealtimeConfigError(`Authentication mode "${auth.mode}" is not supported`);
  for (const setting of ['endpoint', 'csrfCookie', 'csrfEndpoint', 'csrfHeader'] as const) {
    if (!auth[setting]) throw new RealtimeConfigError(`Cookie authentication needs ${setting}`);
  }
  const samePage = config.host === null;
  const scheme = samePage ? (page.protocol === 'https:' ? 'https' : 'http') : (config.scheme ?? 'https');
  if (!samePage && !config.host) throw new RealtimeConfigError('The realtime host is missing');
  if (broadcaster === 'pusher' && scheme !== 'https') {
    throw new RealtimeConfigError('The pusher broadcaster needs a secure (https) scheme');
  }
  const defaultPort = scheme === 'https' ? 443 : 80;
  const port = samePage ? Number(page.port) || defaultPort : (config.port ?? defaultPort);
  return {
    broadcaster: broadcaster as Broadcaster,
    key: config.key,
    wsHost: samePage ? page.hostname : (config.host as string),
    wsPort: port,
    wssPort: port,
    forceTLS: scheme === 'https',
    enabledTransports: ['ws', 'wss'],
    ...REALTIME_TIMEOUTS,
    cluster: '',
    withoutInterceptors: true,
  };
}

/** A channel name the client made, refused when it starts with `#` (reserved for the server). */
export function channelName(name: string): string {
  if (!name || name.startsWith('#')) throw new RealtimeConfigError(`Channel names may not start with #: "${name}"`);
  return name;
}
