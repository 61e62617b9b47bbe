// The signed HTTP API of the embedded realtime server, as Pusher's server libraries call it:
// POST /apps/{id}/events and /batch_events, GET /apps/{id}/channels, /channels/{name} and
// /channels/{name}/users, POST /apps/{id}/users/{user_id}/terminate_connections. Every request is signed (signature.ts); bad input is answered 4xx with a
// JSON `{ "error": … }`, never 5xx (docs/realtime.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { channelKind, isValidChannelName, type RealtimeLimits, SOCKET_ID } from './protocol.ts';
import type { OutgoingEvent, RealtimeServer } from './server.ts';
import { apiStringToSign, hmacHex, md5Hex, safeEqual } from './signature.ts';

/** Seconds a request's `auth_timestamp` may differ from the server's clock. */
export const TIMESTAMP_WINDOW_SECONDS = 600;

/** Largest request body read: a full batch of events with room for their JSON escaping. */
export const API_BODY_LIMIT = 256 * 1024;

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const INFO_ATTRIBUTES = new Set(['user_count', 'subscription_count']);

function parseInfo(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value !== 'string') throw new ApiError(400, 'info must be a comma-separated string');
  const list = value.split(',').map((s) => s.trim());
  for (const a of list)
    if (!INFO_ATTRIBUTES.has(a)) throw new ApiError(400, `Unknown info attribute: ${a.slice(0, 40)}`);
  return list;
}

/** An event as the HTTP API (or the in-process publisher) gives it, checked against the limits. */
export function validateEvent(
  input: unknown,
  limits: RealtimeLimits,
  single = false,
): OutgoingEvent & { info: string[] } {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new ApiError(400, 'An event must be a JSON object');
  const e = input as Record<string, unknown>;
  const { name, data, socket_id } = e;
  if (typeof name !== 'string' || name === '') throw new ApiError(400, 'name must be a non-empty string');
  if (name.length > limits.maxEventNameLength) {
    throw new ApiError(400, `name is longer than ${limits.maxEventNameLength} characters`);
  }
  if (typeof data !== 'string') throw new ApiError(400, 'data must be a string (JSON-encode it)');
  if (Buffer.byteLength(data) > limits.maxEventDataBytes) {
    throw new ApiError(413, `data is larger than ${limits.maxEventDataBytes} bytes`);
  }
  let channels: unknown;
  if (single || e.channels === undefined) channels = e.channel === undefined ? undefined : [e.channel];
  else channels = e.channels;
  if (!Array.isArray(channels) || channels.length === 0) throw new ApiError(400, 'channels must be a non-empty list');
  if (channels.length > limits.maxChannelsPerEvent) {
    throw new ApiError(400, `An event goes to at most ${limits.maxChannelsPerEvent} channels`);
  }
  for (const c of channels) {
    if (!isValidChannelName(c, limits.maxChannelNameLength)) {
      throw new ApiError(400, `Invalid channel name: ${String(c).slice(0, 60)}`);
    }
  }
  if (socket_id !== undefined && socket_id !== null && (typeof socket_id !== 'string' || !SOCKET_ID.test(socket_id))) {
    throw new ApiError(400, 'socket_id must look like 1234.5678');
  }
  const info = parseInfo(e.info);
  if (info.includes('user_count') && (channels as string[]).some((c) => channelKind(c) !== 'presence')) {
    throw new ApiError(400, 'user_count is only for presence channels');
  }
  return {
    name,
    data,
    channels: [...new Set(channels as string[])],
    socketId: (socket_id as string | undefined) ?? null,
    info,
  };
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new ApiError(413, `The body is larger than ${limit} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new ApiError(413, `The body is larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => reject(new ApiError(400, 'The body could not be read')));
    // A client that goes away mid-body: settle, so nothing waits for it.
    req.on('close', () => {
      if (!req.complete) reject(new ApiError(400, 'The body was not sent whole'));
    });
  });
}

/** Query parameters; a repeated one is refused (the signature would not say which counts). */
function queryParams(search: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(search)) {
    if (params.has(k)) throw new ApiError(400, `Repeated query parameter: ${k.slice(0, 40)}`);
    params.set(k, v);
  }
  return params;
}

function authenticate(rt: RealtimeServer, method: string, path: string, params: Map<string, string>, body: Buffer) {
  const key = params.get('auth_key');
  const timestamp = params.get('auth_timestamp');
  const signature = params.get('auth_signature');
  if (!key || !timestamp || !signature) {
    throw new ApiError(401, 'auth_key, auth_timestamp and auth_signature are required');
  }
  if (params.get('auth_version') !== '1.0') throw new ApiError(401, 'auth_version must be 1.0');
  if (!safeEqual(key, rt.app.key)) throw new ApiError(401, 'Unknown auth_key');
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TIMESTAMP_WINDOW_SECONDS) {
    throw new ApiError(401, `auth_timestamp is more than ${TIMESTAMP_WINDOW_SECONDS} s away from the server's clock`);
  }
  const bodyMd5 = params.get('body_md5');
  if (body.length > 0 || bodyMd5 !== undefined) {
    if (!safeEqual(bodyMd5, md5Hex(body))) throw new ApiError(401, 'body_md5 does not match the body');
  }
  const expected = hmacHex(rt.app.secret, apiStringToSign(method, path, params));
  if (!safeEqual(signature, expected)) throw new ApiError(401, 'Invalid signature');
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) throw new ApiError(400, 'A JSON body is required');
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ApiError(400, 'The body is not valid JSON');
  }
}

async function channelAttributes(rt: RealtimeServer, channel: string, info: string[]) {
  const out: Record<string, number> = {};
  if (info.includes('user_count')) out.user_count = await rt.adapter.userCount(channel);
  if (info.includes('subscription_count')) out.subscription_count = await rt.adapter.subscriptionCount(channel);
  return out;
}

async function route(
  rt: RealtimeServer,
  method: string,
  rest: string,
  params: Map<string, string>,
  body: Buffer,
): Promise<[number, unknown]> {
  const limits = rt.limits;
  if (rest === '/events') {
    if (method !== 'POST') throw new ApiError(405, 'Use POST');
    const event = validateEvent(parseJson(body), limits);
    await rt.trigger(event);
    if (event.info.length === 0) return [200, {}];
    const channels: Record<string, unknown> = {};
    for (const c of event.channels) channels[c] = await channelAttributes(rt, c, event.info);
    return [200, { channels }];
  }
  if (rest === '/batch_events') {
    if (method !== 'POST') throw new ApiError(405, 'Use POST');
    const parsed = parseJson(body) as { batch?: unknown } | null;
    const batch = parsed && typeof parsed === 'object' ? parsed.batch : undefined;
    if (!Array.isArray(batch) || batch.length === 0) throw new ApiError(400, 'batch must be a non-empty list');
    if (batch.length > limits.maxBatchEvents)
      throw new ApiError(400, `A batch has at most ${limits.maxBatchEvents} events`);
    const events = batch.map((e) => validateEvent(e, limits, true));
    // Each event is delivered here as trigger() is called, in the batch's order; what goes to the
    // other processes is sent in that order too (one Redis connection), so the batch waits for
    // one round trip rather than one per event.
    await Promise.all(events.map((e) => rt.trigger(e)));
    if (events.every((e) => e.info.length === 0)) return [200, {}];
    const out = [];
    for (const e of events) out.push(await channelAttributes(rt, e.channels[0], e.info));
    return [200, { batch: out }];
  }
  const terminate = /^\/users\/([^/]+)\/terminate_connections$/.exec(rest);
  if (terminate) {
    if (method !== 'POST') throw new ApiError(405, 'Use POST');
    let userId: string;
    try {
      userId = decodeURIComponent(terminate[1]);
    } catch {
      throw new ApiError(400, 'Invalid user id');
    }
    if (userId === '' || userId.length > limits.maxPresenceUserIdLength) throw new ApiError(400, 'Invalid user id');
    await rt.terminateUserConnections(userId);
    return [200, {}];
  }
  if (method !== 'GET' && method !== 'HEAD') throw new ApiError(405, 'Use GET');
  if (rest === '/channels') {
    const prefix = params.get('filter_by_prefix') ?? '';
    const info = parseInfo(params.get('info'));
    if (info.includes('user_count') && !prefix.startsWith('presence-')) {
      throw new ApiError(400, 'user_count needs filter_by_prefix=presence-');
    }
    const channels: Record<string, unknown> = {};
    for (const [name, count] of await rt.adapter.channels(prefix)) {
      const attributes: Record<string, number> = {};
      if (info.includes('subscription_count')) attributes.subscription_count = count;
      if (info.includes('user_count')) attributes.user_count = await rt.adapter.userCount(name);
      channels[name] = attributes;
    }
    return [200, { channels }];
  }
  const m = /^\/channels\/([^/]+)(\/users)?$/.exec(rest);
  if (!m) throw new ApiError(404, 'Not found');
  let name: string;
  try {
    name = decodeURIComponent(m[1]);
  } catch {
    throw new ApiError(400, 'Invalid channel name');
  }
  if (!isValidChannelName(name, limits.maxChannelNameLength)) throw new ApiError(400, 'Invalid channel name');
  const presence = channelKind(name) === 'presence';
  if (m[2]) {
    if (!presence) throw new ApiError(400, 'Users are listed for presence channels only');
    const members = await rt.adapter.presenceMembers(name);
    return [200, { users: [...members.keys()].map((id) => ({ id })) }];
  }
  const info = parseInfo(params.get('info'));
  if (info.includes('user_count') && !presence) throw new ApiError(400, 'user_count is only for presence channels');
  const count = await rt.adapter.subscriptionCount(name);
  return [200, { occupied: count > 0, ...(await channelAttributes(rt, name, info)) }];
}

function answer(res: ServerResponse, status: number, body: unknown) {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

/**
 * Handles `/apps/…` requests; false for any other path. Works on a plain Node request or an
 * Express one (whose `originalUrl` keeps the path as it was sent).
 */
export function apiHandler(rt: RealtimeServer, opts: { onError?: (err: unknown) => void } = {}) {
  return (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse): boolean => {
    const raw = req.originalUrl ?? req.url ?? '/';
    if (!raw.startsWith('/apps/')) return false;
    const qi = raw.indexOf('?');
    const path = qi >= 0 ? raw.slice(0, qi) : raw;
    const search = qi >= 0 ? raw.slice(qi + 1) : '';
    const method = (req.method ?? 'GET').toUpperCase();
    void (async () => {
      try {
        const m = /^\/apps\/([^/]+)(\/.*)?$/.exec(path);
        if (!m || !safeEqual(m[1], rt.app.id)) throw new ApiError(404, 'No app has this id');
        const params = queryParams(search);
        const body = method === 'POST' ? await readBody(req, API_BODY_LIMIT) : Buffer.alloc(0);
        authenticate(rt, method, path, params, body);
        const [status, out] = await route(rt, method, m[2] ?? '', params, body);
        answer(res, status, out);
      } catch (err) {
        if (err instanceof ApiError) return answer(res, err.status, { error: err.message });
        opts.onError?.(err);
        answer(res, 503, { error: 'The realtime server could not answer: try again' });
      }
    })();
    return true;
  };
}
