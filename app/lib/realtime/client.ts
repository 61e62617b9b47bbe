// The realtime client (docs/realtime.md, "The browser client"): laravel-echo on pusher-js,
// configured from what the server sent (app/lib/realtime/config.ts checks it), subscribed to the
// member's own channel `private-users.{id}`, and to the presence channels pages ask for (a chat). Loaded only by app/lib/realtime/use-member-realtime.ts,
// after hydration, for signed-in members. Reports the connection's state and the channel's events
// to app/lib/realtime/state.ts, where components read them.
import Echo, { type EchoOptions } from 'laravel-echo';
import Pusher from 'pusher-js';
import { readCookie, XSRF_COOKIE, XSRF_HEADER } from '~/lib/api-client.ts';
import {
  type BrowserRealtimeConfig,
  CHANNEL_AUTH_ENDPOINT,
  type CookieAuthentication,
  channelName,
  echoSettings,
} from './config.ts';
import { USER_EVENTS, type UserEvents } from './events.ts';
import { setPresenceJoiner, THREAD_MESSAGE, THREAD_MESSAGE_UPDATED, THREAD_READ, TYPING_WHISPER } from './presence.ts';
import { type ConnectionState, dispatchUserEvent, setConnectionState } from './state.ts';

/** The server events of a chat's presence channel that pages hear (app/lib/realtime/events.ts). */
const PRESENCE_EVENTS = [THREAD_MESSAGE, THREAD_MESSAGE_UPDATED, THREAD_READ] as const;

/** Cookie authentication: the session cookie, and the anti-forgery token every API write sends. */
export const COOKIE_AUTH: CookieAuthentication = {
  mode: 'cookie',
  endpoint: CHANNEL_AUTH_ENDPOINT,
  csrfCookie: XSRF_COOKIE,
  csrfEndpoint: '/api/csrf-cookie',
  csrfHeader: XSRF_HEADER,
};

type AuthCallback = (error: Error | null, data: { auth: string; channel_data?: string } | null) => void;

/**
 * Asks the server to sign a subscription: POST with the session cookie and the anti-forgery header
 * (its cookie fetched first when missing). No retry: pusher-js reports the refusal on the channel.
 */
export async function authorizeChannel(
  auth: CookieAuthentication,
  params: { socketId: string; channelName: string },
  callback: AuthCallback,
): Promise<void> {
  try {
    let token = readCookie(auth.csrfCookie);
    if (!token) {
      await fetch(auth.csrfEndpoint, { credentials: 'same-origin', cache: 'no-store' });
      token = readCookie(auth.csrfCookie);
      if (!token) console.warn(`realtime: no ${auth.csrfCookie} cookie; the channel authorisation will be refused`);
    }
    const res = await fetch(auth.endpoint, {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', [auth.csrfHeader]: token ?? '' },
      body: JSON.stringify({ socket_id: params.socketId, channel_name: params.channelName }),
    });
    if (!res.ok) return callback(new Error(`Channel authorisation answered ${res.status}`), null);
    callback(null, (await res.json()) as { auth: string });
  } catch (error) {
    callback(error instanceof Error ? error : new Error(String(error)), null);
  }
}

/**
 * Connects for member `userId` and listens on their channel; returns the disconnect. Throws
 * RealtimeConfigError when the configuration is refused (app/lib/realtime/config.ts).
 */
export function connectMember(config: BrowserRealtimeConfig, userId: string): () => void {
  const settings = echoSettings(config, COOKIE_AUTH, window.location);
  // Typed as reverb: the pusher broadcaster takes the same options and gives the same channels.
  const echo: Echo<'reverb'> = new Echo<'reverb'>({
    ...settings,
    Pusher,
    channelAuthorization: {
      endpoint: COOKIE_AUTH.endpoint,
      transport: 'ajax',
      customHandler: (params: { socketId: string; channelName: string }, callback: AuthCallback) =>
        void authorizeChannel(COOKIE_AUTH, params, callback),
    },
  } as EchoOptions<'reverb'> & { broadcaster: 'reverb' });
  const connection = (echo.connector as unknown as { pusher: Pusher }).pusher.connection;
  const report = () => setConnectionState(connection.state as ConnectionState);
  connection.bind('state_change', report);
  report();
  const name = channelName(`users.${userId}`);
  const channel = echo.private(name);
  for (const event of USER_EVENTS) {
    channel.listen(`.${event}`, (data: UserEvents[typeof event]) => dispatchUserEvent(event, data));
  }
  // The presence channels pages ask for (a chat thread: usePresenceChannel in ./state.ts).
  setPresenceJoiner((presence, listener) => {
    const short = channelName(presence.replace(/^presence-/, ''));
    const joined = echo.join(short);
    joined
      .here((members: unknown[]) => listener.here(members))
      .joining((member: unknown) => listener.joining(member))
      .leaving((member: unknown) => listener.leaving(member));
    for (const event of PRESENCE_EVENTS) joined.listen(`.${event}`, (data: unknown) => listener.event(event, data));
    joined.listenForWhisper(TYPING_WHISPER, (data: unknown) => listener.whisper(TYPING_WHISPER, data));
    return {
      leave: () => echo.leave(short),
      whisper: (event, data) => joined.whisper(event, data as Record<string, unknown>),
    };
  });
  return () => {
    setPresenceJoiner(null);
    connection.unbind('state_change', report);
    echo.leave(name);
    echo.disconnect();
    setConnectionState('disconnected');
  };
}
