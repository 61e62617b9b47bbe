// The Pusher Channels protocol (version 7) as this server speaks it: error codes, channel kinds,
// name rules, socket ids and the default limits (docs/realtime.md lists them for operators).
import { randomInt } from 'node:crypto';

/**
 * Error codes sent in `pusher:error` and as WebSocket close codes. Clients act on the range:
 * 4000–4099 do not reconnect, 4100–4199 reconnect after a back-off, 4200–4299 reconnect at once,
 * 4300–4399 are other errors (sent as events on a connection that stays open).
 */
export const ErrorCode = {
  /** The app only accepts TLS connections (unused: TLS ends at the operator's proxy). */
  sslOnly: 4000,
  /** No app has the key in the path. */
  appDoesNotExist: 4001,
  /** The app is disabled. */
  appDisabled: 4003,
  /** The app's connection quota is reached. */
  overQuota: 4004,
  /** The path is not `/app/{key}`. */
  pathNotFound: 4005,
  /** The `protocol` parameter is not a number. */
  invalidVersionFormat: 4006,
  /** The client speaks a protocol this server does not. */
  unsupportedProtocol: 4007,
  /** The client did not say which protocol it speaks. */
  noProtocol: 4008,
  /** The connection (or a subscription) is not authorised. */
  unauthorized: 4009,
  /** Too many connections (this process, or this client address): try again later. */
  overCapacity: 4100,
  /** Reconnect now, e.g. to another process while this one stops. */
  reconnect: 4200,
  /** A ping got no answer in time. */
  pongNotReceived: 4201,
  /** The client answered nothing but transport pings for too long. */
  closedAfterInactivity: 4202,
  /** A client event was refused: over the rate limit. */
  clientEventRejected: 4301,
} as const;

export const PROTOCOL_MIN = 4;
export const PROTOCOL_MAX = 7;

export interface RealtimeLimits {
  /** Seconds of silence after which the client (told in `connection_established`) and the server ping. */
  activityTimeoutSeconds: number;
  /** How long a ping may wait for its answer before the connection is closed with 4201. */
  pongTimeoutMs: number;
  /** How long a connection that answers only transport-level pings stays open (then 4202). */
  inactivityCloseMs: number;
  /** Open connections of this process. */
  maxConnections: number;
  /** Open connections of one client address on this process. */
  maxConnectionsPerIp: number;
  /** Largest WebSocket frame a client may send (bytes); a larger one closes the connection (1009). */
  maxPayloadBytes: number;
  /** Event data (HTTP API and client events), bytes. */
  maxEventDataBytes: number;
  maxEventNameLength: number;
  maxChannelNameLength: number;
  /** Channels one HTTP API event may name. */
  maxChannelsPerEvent: number;
  /** Events in one `batch_events` request. */
  maxBatchEvents: number;
  /** Channels one connection may be subscribed to at once. */
  maxChannelsPerConnection: number;
  /** Distinct users in one presence channel. */
  maxPresenceMembers: number;
  maxPresenceUserIdLength: number;
  /** A presence member's `user_info`, as JSON, bytes. */
  maxPresenceUserInfoBytes: number;
  /** Client events one connection may send per second. */
  clientEventsPerSecond: number;
  /** Frames of any kind one connection may send per second before it is closed (4100). */
  framesPerSecond: number;
  /** Bytes waiting to be written to one connection before it is closed as a slow consumer (4100). */
  maxBufferedBytes: number;
  /** How long a stopping process waits for its connections to close after telling them 4200. */
  drainTimeoutMs: number;
}

export const DEFAULT_LIMITS: RealtimeLimits = {
  activityTimeoutSeconds: 120,
  pongTimeoutMs: 30_000,
  inactivityCloseMs: 24 * 60 * 60 * 1000,
  maxConnections: 10_000,
  maxConnectionsPerIp: 100,
  maxPayloadBytes: 32 * 1024,
  maxEventDataBytes: 10 * 1024,
  maxEventNameLength: 200,
  maxChannelNameLength: 200,
  maxChannelsPerEvent: 100,
  maxBatchEvents: 10,
  maxChannelsPerConnection: 100,
  maxPresenceMembers: 100,
  maxPresenceUserIdLength: 128,
  maxPresenceUserInfoBytes: 1024,
  clientEventsPerSecond: 10,
  framesPerSecond: 100,
  maxBufferedBytes: 1024 * 1024,
  drainTimeoutMs: 5_000,
};

export type ChannelKind = 'public' | 'private' | 'encrypted' | 'presence';

export function channelKind(name: string): ChannelKind {
  if (name.startsWith('presence-')) return 'presence';
  if (name.startsWith('private-encrypted-')) return 'encrypted';
  if (name.startsWith('private-')) return 'private';
  return 'public';
}

const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]+$/;

/** Channel names Pusher accepts: letters, digits and `_-=@,.;`, at most `max` characters. */
export function isValidChannelName(name: unknown, max: number): name is string {
  return typeof name === 'string' && name.length > 0 && name.length <= max && CHANNEL_NAME.test(name);
}

export const SOCKET_ID = /^\d+\.\d+$/;

/** A socket id as Pusher writes them: two random whole numbers joined by a dot. */
export function newSocketId(): string {
  return `${randomInt(1, 2 ** 47)}.${randomInt(1, 2 ** 47)}`;
}

/** One frame as the protocol writes it: `data` is a string, except where the sender gave an object. */
export function frame(event: string, data?: unknown, channel?: string): string {
  const message: Record<string, unknown> = { event };
  if (channel !== undefined) message.channel = channel;
  if (data !== undefined) message.data = typeof data === 'string' ? data : JSON.stringify(data);
  return JSON.stringify(message);
}

export function errorFrame(message: string, code: number | null, channel?: string): string {
  return JSON.stringify({ event: 'pusher:error', ...(channel ? { channel } : {}), data: { code, message } });
}
