// HMAC-SHA256 signatures of the Pusher protocol, compared in constant time: channel
// subscriptions (`key:hex(HMAC(secret, "socket_id:channel[:channel_data]"))`) and HTTP API requests
// (`hex(HMAC(secret, "METHOD\npath\nsorted query"))`, docs/realtime.md).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

export function md5Hex(body: Buffer | string): string {
  return createHash('md5').update(body).digest('hex');
}

/** Equal strings, in a time that depends only on the expected string's length. */
export function safeEqual(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  // Compare against itself when the lengths differ, so the time does not tell how much matched.
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}

/** The `auth` value a channel authorisation endpoint answers for this subscription. */
export function channelAuth(
  app: { key: string; secret: string },
  socketId: string,
  channel: string,
  channelData?: string,
): string {
  const text = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  return `${app.key}:${hmacHex(app.secret, text)}`;
}

/** The string an HTTP API request signs: method, path and the query without the signature, sorted by key. */
export function apiStringToSign(method: string, path: string, params: Map<string, string>): string {
  const query = [...params]
    .filter(([k]) => k !== 'auth_signature')
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `${method.toUpperCase()}\n${path}\n${query}`;
}
