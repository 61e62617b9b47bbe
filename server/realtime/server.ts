// The embedded realtime server: Pusher Channels protocol 7 over WebSocket at `/app/{key}` on the
// app's own HTTP server (docs/realtime.md; ADR 0014). Sockets, subscriptions and timers live here;
// what several processes share goes through the adapter (adapter.ts, redis-adapter.ts).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../logger.ts';
import { type Adapter, LocalAdapter, type PresenceMember } from './adapter.ts';
import { canWriteDirectly, directTarget, type FanoutWriter } from './fanout-writer.ts';
import {
  channelKind,
  DEFAULT_LIMITS,
  ErrorCode,
  errorFrame,
  frame,
  isValidChannelName,
  newSocketId,
  PROTOCOL_MAX,
  PROTOCOL_MIN,
  type RealtimeLimits,
} from './protocol.ts';
import { channelAuth, safeEqual } from './signature.ts';

export interface RealtimeApp {
  id: string;
  key: string;
  secret: string;
}

export interface RealtimeServerOptions {
  app: RealtimeApp;
  /** Default: this process alone (LocalAdapter). */
  adapter?: Adapter;
  /**
   * Writes a channel's frame to its sockets in one native call (./fanout-writer.ts); default null:
   * one `socket.write` a socket.
   */
  writer?: FanoutWriter | null;
  limits?: Partial<RealtimeLimits>;
  logger?: Logger;
  /** Reverse proxies in front (TRUST_PROXY): which X-Forwarded-For entry is the client's address. */
  trustProxy?: number;
  /**
   * The member a private channel belongs to, or null (the app's `private-users.{id}`:
   * server/realtime/channels.ts). A connection whose subscription to it was signed is that member's,
   * as is one signed into a presence channel as them: `terminateUserConnections` closes it.
   */
  userOfChannel?: (channel: string) => string | null;
}

/**
 * The adapter's "channel" of the order to close a member's connections in every process: not a
 * valid channel name (`#`), so no client can subscribe to it or publish on it.
 */
const TERMINATE_USER = '#terminate-user';

/** An event to publish, already validated (see validateEvent in http-api.ts). */
export interface OutgoingEvent {
  channels: string[];
  name: string;
  data: string;
  /** Socket that does not receive it (the sender's own, so it is not echoed). */
  socketId?: string | null;
}

/** A simple token bucket: `capacity` at once, refilled at `perSecond`. */
class Bucket {
  tokens: number;
  at = Date.now();
  readonly capacity: number;
  readonly perSecond: number;
  constructor(capacity: number, perSecond: number) {
    this.capacity = capacity;
    this.perSecond = perSecond;
    this.tokens = capacity;
  }
  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

class Connection {
  readonly id = newSocketId();
  readonly ws: WebSocket;
  /** The upgraded TCP socket under `ws`: channel events are written to it ready-framed (see `deliver`). */
  readonly socket: Duplex;
  /** The socket's descriptor for the native writer, -1 when it cannot be written directly. */
  readonly fd: number;
  /** The socket's handle when `fd` was read: `fd` is good while the socket still has it. */
  readonly handle: unknown;
  readonly ip: string;
  /** Subscribed channels → the presence member this socket is (null for other kinds). */
  readonly channels = new Map<string, PresenceMember | null>();
  /** Subscriptions, unsubscriptions and the final clean-up run one after the other. */
  queue: Promise<void> = Promise.resolve();
  /** Last Pusher frame received (any frame counts as activity). */
  lastSeen = Date.now();
  /** When the server's ping went out, 0 when none is waiting. */
  pingSentAt = 0;
  /** Last transport-level (WebSocket) pong. */
  transportPongAt = 0;
  closed = false;
  /** The members this connection proved to be, by a signed subscription (see `userOfChannel`). */
  readonly users = new Set<string>();
  readonly clientEvents: Bucket;
  readonly frames: Bucket;
  constructor(ws: WebSocket, socket: Duplex, ip: string, limits: RealtimeLimits) {
    this.ws = ws;
    this.socket = socket;
    const target = directTarget(socket);
    this.fd = target.fd;
    this.handle = target.handle;
    this.ip = ip;
    this.clientEvents = new Bucket(limits.clientEventsPerSecond, limits.clientEventsPerSecond);
    this.frames = new Bucket(limits.framesPerSecond, limits.framesPerSecond);
  }
}

export class RealtimeServer {
  readonly app: RealtimeApp;
  readonly limits: RealtimeLimits;
  readonly adapter: Adapter;
  private readonly logger: Logger | undefined;
  private readonly trustProxy: number;
  private readonly userOfChannel: (channel: string) => string | null;
  private readonly wss: WebSocketServer;
  private readonly writer: FanoutWriter | null;
  private readonly connections = new Set<Connection>();
  private readonly perIp = new Map<string, number>();
  /** Local sockets of each channel. */
  private readonly subscribers = new Map<string, Set<Connection>>();
  private sweeper: NodeJS.Timeout | undefined;
  private started: Promise<void> | undefined;
  private draining: Promise<void> | undefined;

  constructor(options: RealtimeServerOptions) {
    this.app = options.app;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.adapter = options.adapter ?? new LocalAdapter();
    this.logger = options.logger;
    this.trustProxy = options.trustProxy ?? 0;
    this.userOfChannel = options.userOfChannel ?? (() => null);
    this.writer = options.writer ?? null;
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.limits.maxPayloadBytes,
      perMessageDeflate: false,
      clientTracking: false,
    });
  }

  /** Connects the adapter and starts the idle-connection timer. */
  start(): Promise<void> {
    this.started ??= (async () => {
      await this.adapter.start((channel, message, except) =>
        channel === TERMINATE_USER ? this.closeUser(message) : this.deliver(channel, message, except),
      );
      const period = Math.max(
        50,
        Math.min(1000, this.limits.pongTimeoutMs / 4, (this.limits.activityTimeoutSeconds * 1000) / 4),
      );
      this.sweeper = setInterval(() => this.sweep(), period);
      this.sweeper.unref();
    })();
    return this.started;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /**
   * Takes an HTTP upgrade request when its path is `/app/…`; false for any other path (left to
   * whoever else listens, e.g. Vite's hot reload in development).
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = req.url ?? '/';
    if (!url.startsWith('/app/') && url !== '/app') return false;
    socket.on('error', () => socket.destroy());
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req, socket));
    return true;
  }

  private clientIp(req: IncomingMessage): string {
    const remote = req.socket.remoteAddress ?? '';
    if (this.trustProxy <= 0) return remote;
    const forwarded = String(req.headers['x-forwarded-for'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const chain = [...forwarded, remote];
    return chain[Math.max(0, chain.length - 1 - this.trustProxy)] ?? remote;
  }

  private refuse(ws: WebSocket, code: number, message: string) {
    ws.on('error', () => {});
    ws.send(errorFrame(message, code));
    ws.close(code, message.slice(0, 120));
  }

  private accept(ws: WebSocket, req: IncomingMessage, socket: Duplex) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const key = /^\/app\/([^/]+)\/?$/.exec(url.pathname)?.[1];
    // A stopping process: come back after a back-off (4100), by when another process serves;
    // 4200 would bring the client straight back here.
    if (this.draining) return this.refuse(ws, ErrorCode.overCapacity, 'Server is restarting: try again shortly');
    if (key === undefined) return this.refuse(ws, ErrorCode.pathNotFound, 'Path not found: use /app/{key}');
    if (!safeEqual(decodeURIComponentSafe(key), this.app.key)) {
      return this.refuse(ws, ErrorCode.appDoesNotExist, 'No app has this key');
    }
    const protocol = url.searchParams.get('protocol');
    if (protocol === null || protocol === '') {
      return this.refuse(ws, ErrorCode.noProtocol, 'No protocol version given');
    }
    if (!/^\d+$/.test(protocol)) return this.refuse(ws, ErrorCode.invalidVersionFormat, 'Invalid protocol version');
    const version = Number(protocol);
    if (version < PROTOCOL_MIN || version > PROTOCOL_MAX) {
      return this.refuse(ws, ErrorCode.unsupportedProtocol, `Unsupported protocol version ${version}`);
    }
    if (this.connections.size >= this.limits.maxConnections) {
      return this.refuse(ws, ErrorCode.overCapacity, 'Over capacity: try again later');
    }
    const ip = this.clientIp(req);
    const fromIp = this.perIp.get(ip) ?? 0;
    if (fromIp >= this.limits.maxConnectionsPerIp) {
      return this.refuse(ws, ErrorCode.overCapacity, 'Too many connections from this address: try again later');
    }

    const conn = new Connection(ws, socket, ip, this.limits);
    this.connections.add(conn);
    this.perIp.set(ip, fromIp + 1);
    ws.on('message', (data, isBinary) => this.onFrame(conn, data as Buffer, isBinary));
    ws.on('pong', () => {
      conn.transportPongAt = Date.now();
    });
    ws.on('error', (err) => this.logger?.debug({ err, socket: conn.id }, 'realtime socket error'));
    ws.on('close', () => this.onClose(conn));
    this.send(
      conn,
      frame('pusher:connection_established', {
        socket_id: conn.id,
        activity_timeout: this.limits.activityTimeoutSeconds,
      }),
    );
  }

  private onClose(conn: Connection) {
    if (conn.closed) return;
    conn.closed = true;
    this.connections.delete(conn);
    const n = (this.perIp.get(conn.ip) ?? 1) - 1;
    if (n > 0) this.perIp.set(conn.ip, n);
    else this.perIp.delete(conn.ip);
    this.enqueue(conn, async () => {
      for (const channel of [...conn.channels.keys()]) await this.unsubscribe(conn, channel);
    });
  }

  private enqueue(conn: Connection, op: () => Promise<void>) {
    conn.queue = conn.queue.then(op).catch((err) => {
      this.logger?.error({ err, socket: conn.id }, 'realtime operation failed');
      if (!conn.closed) this.send(conn, errorFrame('The server could not do that: try again', null));
    });
  }

  /** Whether a frame may be written to the socket; one that does not read what it is sent is closed (4100). */
  private writable(conn: Connection): boolean {
    const ws = conn.ws;
    if (ws.readyState !== ws.OPEN) return false;
    if (ws.bufferedAmount > this.limits.maxBufferedBytes) {
      this.logger?.warn({ socket: conn.id, buffered: ws.bufferedAmount }, 'realtime: slow consumer closed');
      ws.close(ErrorCode.overCapacity, 'Slow consumer: too much data waiting');
      return false;
    }
    return true;
  }

  /** Writes a frame of this connection's own (an answer, an error) through `ws`. */
  private send(conn: Connection, text: string) {
    if (this.writable(conn)) conn.ws.send(text);
  }

  private onFrame(conn: Connection, data: Buffer, isBinary: boolean) {
    if (conn.closed) return;
    conn.lastSeen = Date.now();
    conn.pingSentAt = 0;
    if (!conn.frames.take()) {
      conn.ws.close(ErrorCode.overCapacity, 'Too many messages: slow down');
      return;
    }
    if (isBinary) return this.send(conn, errorFrame('Binary frames are not supported', null));
    let message: unknown;
    try {
      message = JSON.parse(data.toString('utf8'));
    } catch {
      return this.send(conn, errorFrame('A frame must be a JSON object', null));
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) {
      return this.send(conn, errorFrame('A frame must be a JSON object', null));
    }
    const { event, channel } = message as { event?: unknown; channel?: unknown };
    let payload = (message as { data?: unknown }).data;
    if (typeof event !== 'string') return this.send(conn, errorFrame('A frame needs an event name', null));
    if (event.startsWith('client-')) return this.clientEvent(conn, event, channel, payload);
    // Some clients send `data` as a JSON string.
    if (typeof payload === 'string') {
      try {
        payload = JSON.parse(payload);
      } catch {
        payload = undefined;
      }
    }
    const body = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
    switch (event) {
      case 'pusher:ping':
        return this.send(conn, frame('pusher:pong', {}));
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return this.enqueue(conn, () => this.subscribe(conn, body));
      case 'pusher:unsubscribe': {
        const name = body.channel;
        if (typeof name !== 'string') return this.send(conn, errorFrame('Unsubscribe needs a channel', null));
        return this.enqueue(conn, () => this.unsubscribe(conn, name));
      }
      case 'pusher:signin':
        return this.send(conn, errorFrame('User sign-in is not supported by this server', null));
      default:
        return this.send(conn, errorFrame(`Unknown event ${event.slice(0, 50)}`, null));
    }
  }

  private subscriptionError(conn: Connection, channel: string, type: string, error: string, status: number) {
    this.send(conn, frame('pusher:subscription_error', { type, error, status }, channel));
  }

  private async subscribe(conn: Connection, body: Record<string, unknown>) {
    if (conn.closed) return;
    const channel = body.channel;
    if (!isValidChannelName(channel, this.limits.maxChannelNameLength)) {
      const message = `Invalid channel name: letters, digits and _-=@,.; only, at most ${this.limits.maxChannelNameLength}`;
      if (typeof channel === 'string' && channel.length <= this.limits.maxChannelNameLength) {
        return this.subscriptionError(conn, channel, 'InvalidChannel', message, 400);
      }
      return this.send(conn, errorFrame(message, null));
    }
    const kind = channelKind(channel);
    let member: PresenceMember | null = null;
    if (kind === 'presence') {
      const channelData = body.channel_data;
      if (
        typeof channelData !== 'string' ||
        !safeEqual(body.auth, channelAuth(this.app, conn.id, channel, channelData))
      ) {
        return this.subscriptionError(conn, channel, 'AuthError', 'Invalid signature', 401);
      }
      const parsed = this.parseMember(channelData);
      if (typeof parsed === 'string') return this.subscriptionError(conn, channel, 'InvalidChannelData', parsed, 400);
      member = parsed;
    } else if (kind !== 'public' && !safeEqual(body.auth, channelAuth(this.app, conn.id, channel))) {
      return this.subscriptionError(conn, channel, 'AuthError', 'Invalid signature', 401);
    }

    const already = conn.channels.has(channel);
    if (!already && conn.channels.size >= this.limits.maxChannelsPerConnection) {
      return this.subscriptionError(
        conn,
        channel,
        'LimitReached',
        `At most ${this.limits.maxChannelsPerConnection} channels per connection`,
        4100,
      );
    }
    const previous = conn.channels.get(channel);
    if (kind === 'presence' && member) {
      if (previous && previous.user_id !== member.user_id) {
        // The same socket as another user: leave as the first one before joining as the second.
        await this.unsubscribe(conn, channel);
      }
      const join = await this.adapter.presenceJoin(channel, conn.id, member, this.limits.maxPresenceMembers);
      if (join.full) {
        return this.subscriptionError(
          conn,
          channel,
          'LimitReached',
          `A presence channel has at most ${this.limits.maxPresenceMembers} members`,
          4100,
        );
      }
      await this.addSubscriber(conn, channel, member);
      conn.users.add(member.user_id);
      if (join.added) {
        await this.publish(
          channel,
          frame('pusher_internal:member_added', { user_id: member.user_id, user_info: member.user_info }, channel),
          conn.id,
        );
      }
      // A member without user_info is listed with null: a missing key would drop it from the hash.
      const hash = Object.fromEntries([...join.members].map(([id, info]) => [id, info ?? null]));
      this.send(
        conn,
        frame(
          'pusher_internal:subscription_succeeded',
          { presence: { ids: Object.keys(hash), hash, count: join.members.size } },
          channel,
        ),
      );
      return;
    }
    if (!already) await this.addSubscriber(conn, channel, null);
    const owner = kind === 'public' ? null : this.userOfChannel(channel);
    if (owner !== null) conn.users.add(owner);
    this.send(conn, frame('pusher_internal:subscription_succeeded', {}, channel));
  }

  /** `channel_data` of a presence subscription, or why it is refused. */
  private parseMember(channelData: string): PresenceMember | string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(channelData);
    } catch {
      return 'channel_data must be JSON';
    }
    if (!parsed || typeof parsed !== 'object') return 'channel_data must be a JSON object';
    const { user_id, user_info } = parsed as { user_id?: unknown; user_info?: unknown };
    if ((typeof user_id !== 'string' && typeof user_id !== 'number') || String(user_id) === '') {
      return 'channel_data needs a user_id';
    }
    const id = String(user_id);
    if (id.length > this.limits.maxPresenceUserIdLength) {
      return `user_id is longer than ${this.limits.maxPresenceUserIdLength} characters`;
    }
    if (
      user_info !== undefined &&
      Buffer.byteLength(JSON.stringify(user_info)) > this.limits.maxPresenceUserInfoBytes
    ) {
      return `user_info is larger than ${this.limits.maxPresenceUserInfoBytes} bytes`;
    }
    return user_info === undefined ? { user_id: id } : { user_id: id, user_info };
  }

  private async addSubscriber(conn: Connection, channel: string, member: PresenceMember | null) {
    conn.channels.set(channel, member);
    let set = this.subscribers.get(channel);
    if (!set) {
      set = new Set();
      this.subscribers.set(channel, set);
    }
    if (set.has(conn)) return;
    set.add(conn);
    await this.adapter.setLocalCount(channel, set.size);
  }

  private async unsubscribe(conn: Connection, channel: string) {
    if (!conn.channels.has(channel)) return;
    const member = conn.channels.get(channel);
    conn.channels.delete(channel);
    const set = this.subscribers.get(channel);
    if (set?.delete(conn)) {
      if (set.size === 0) this.subscribers.delete(channel);
      await this.adapter.setLocalCount(channel, set.size);
    }
    if (member && (await this.adapter.presenceLeave(channel, conn.id))) {
      await this.publish(
        channel,
        frame('pusher_internal:member_removed', { user_id: member.user_id }, channel),
        conn.id,
      );
    }
  }

  private clientEvent(conn: Connection, event: string, channel: unknown, data: unknown) {
    if (typeof channel !== 'string' || !conn.channels.has(channel)) {
      return this.send(conn, errorFrame('Client events need a channel this connection is subscribed to', null));
    }
    const kind = channelKind(channel);
    if (kind !== 'private' && kind !== 'presence') {
      return this.send(
        conn,
        errorFrame('Client events are accepted on private and presence channels only', null, channel),
      );
    }
    if (event.length > this.limits.maxEventNameLength) {
      return this.send(
        conn,
        errorFrame(`Event names are at most ${this.limits.maxEventNameLength} characters`, null, channel),
      );
    }
    const size = data === undefined ? 0 : Buffer.byteLength(typeof data === 'string' ? data : JSON.stringify(data));
    if (size > this.limits.maxEventDataBytes) {
      return this.send(conn, errorFrame(`Event data is at most ${this.limits.maxEventDataBytes} bytes`, null, channel));
    }
    if (!conn.clientEvents.take()) {
      return this.send(
        conn,
        errorFrame(
          `Client event rejected: at most ${this.limits.clientEventsPerSecond} per second`,
          ErrorCode.clientEventRejected,
          channel,
        ),
      );
    }
    const member = conn.channels.get(channel);
    const out: Record<string, unknown> = { event, channel };
    if (data !== undefined) out.data = data;
    if (member) out.user_id = member.user_id;
    void this.publish(channel, JSON.stringify(out), conn.id).catch((err) =>
      this.logger?.error({ err, channel }, 'realtime: client event not shared with the other processes'),
    );
  }

  /** Delivers a frame to this process's sockets of the channel and hands it to the other processes. */
  private publish(channel: string, message: string, except: string | null): Promise<void> {
    this.deliver(channel, message, except);
    return this.adapter.broadcast(channel, message, except);
  }

  /**
   * Delivers a channel's frame to its sockets here. The WebSocket frame is made once, whatever the
   * number of sockets, and written whole to each upgraded socket: one write a socket, nothing
   * encoded or framed per socket (docs/performance.md, "Realtime"). This is what `ws.send` would
   * write: `ws` writes its own frames synchronously (no compression is negotiated), so frames keep
   * their order, and `bufferedAmount` counts these bytes too.
   *
   * With the native writer, the sockets that hold nothing queued get the frame in one C loop, one
   * non-blocking send each; what a full kernel buffer did not take goes to the socket's stream,
   * which queues it ahead of anything written later (./fanout-writer.ts).
   */
  private deliver(channel: string, message: string, except: string | null) {
    const set = this.subscribers.get(channel);
    if (!set) return;
    const bytes = textFrame(message);
    const writer = this.writer;
    if (!writer) {
      for (const conn of set) if (conn.id !== except && this.writable(conn)) conn.socket.write(bytes);
      return;
    }
    const fds = new Int32Array(set.size);
    const direct: Connection[] = [];
    for (const conn of set) {
      if (conn.id === except) continue;
      // Nothing queued is nothing buffered (`writable`'s `bufferedAmount`): an open socket in that
      // state takes the frame directly, any other goes through `writable` and its stream.
      if (conn.fd >= 0 && conn.ws.readyState === WebSocket.OPEN && canWriteDirectly(conn.socket, conn.handle)) {
        fds[direct.length] = conn.fd;
        direct.push(conn);
      } else if (this.writable(conn)) {
        conn.socket.write(bytes);
      }
    }
    if (direct.length === 0) return;
    const written = new Int32Array(direct.length);
    writer.writeEach(fds.subarray(0, direct.length), bytes, written);
    for (let i = 0; i < direct.length; i++) {
      const n = written[i] as number;
      if (n !== bytes.length) direct[i]?.socket.write(n > 0 ? bytes.subarray(n) : bytes);
    }
  }

  /** Publishes a validated event on each of its channels (the HTTP API and the in-process publisher). */
  async trigger(event: OutgoingEvent): Promise<void> {
    await Promise.all(
      event.channels.map((channel) =>
        this.publish(channel, frame(event.name, event.data, channel), event.socketId ?? null),
      ),
    );
  }

  /**
   * Closes every connection of the member, in this process and (through the adapter) in the others:
   * a banned member's open tabs stop receiving at once (docs/realtime.md, "Ending a member's
   * connections"). They are told 4009 (not authorised), a code in 4000–4099 after which Pusher
   * clients do not reconnect. Returns how many this process closed.
   */
  async terminateUserConnections(userId: string): Promise<number> {
    const closed = this.closeUser(userId);
    await this.adapter.broadcast(TERMINATE_USER, userId, null);
    return closed;
  }

  /** Closes this process's connections of the member (4009); how many. */
  private closeUser(userId: string): number {
    let n = 0;
    for (const conn of this.connections) {
      if (conn.closed || !conn.users.has(userId)) continue;
      n++;
      if (conn.ws.readyState !== conn.ws.OPEN) continue;
      const message = 'This account is signed out: connect again after signing in';
      conn.ws.send(errorFrame(message, ErrorCode.unauthorized));
      conn.ws.close(ErrorCode.unauthorized, message);
    }
    if (n > 0) this.logger?.info({ user: userId, connections: n }, 'realtime: closed a member’s connections');
    return n;
  }

  /** Pings quiet connections and closes those that do not answer (4201) or only answer the transport (4202). */
  private sweep() {
    const now = Date.now();
    const activityMs = this.limits.activityTimeoutSeconds * 1000;
    for (const conn of this.connections) {
      if (conn.closed || conn.ws.readyState !== conn.ws.OPEN) continue;
      if (conn.pingSentAt === 0) {
        if (now - conn.lastSeen >= activityMs) {
          conn.pingSentAt = now;
          this.send(conn, frame('pusher:ping', {}));
          conn.ws.ping();
        }
        continue;
      }
      if (now - conn.pingSentAt < this.limits.pongTimeoutMs) continue;
      if (conn.transportPongAt < conn.pingSentAt) {
        conn.ws.close(ErrorCode.pongNotReceived, 'Pong reply not received');
      } else if (now - conn.lastSeen >= this.limits.inactivityCloseMs) {
        conn.ws.close(ErrorCode.closedAfterInactivity, 'Closed after inactivity');
      } else {
        // The transport answers but the client's library does not: ask again next time.
        conn.pingSentAt = 0;
      }
    }
  }

  /**
   * Stops the server: every socket is told 4200 (reconnect, to another process) and closed; the
   * ones still open after `drainTimeoutMs` are cut. Presence members leave as their sockets close.
   */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      if (this.sweeper) clearInterval(this.sweeper);
      const open = [...this.connections];
      const closed = open.map(
        (conn) =>
          new Promise<void>((resolve) => {
            if (conn.ws.readyState === conn.ws.CLOSED) return resolve();
            conn.ws.once('close', () => resolve());
          }),
      );
      for (const conn of open) {
        if (conn.ws.readyState !== conn.ws.OPEN) continue;
        conn.ws.send(errorFrame('Server is restarting: reconnect', ErrorCode.reconnect));
        conn.ws.close(ErrorCode.reconnect, 'Server is restarting: reconnect');
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(closed),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, this.limits.drainTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
      for (const conn of open) if (conn.ws.readyState !== conn.ws.CLOSED) conn.ws.terminate();
      for (const conn of open) this.onClose(conn);
      await Promise.all(open.map((conn) => conn.queue));
      await this.adapter.close();
    })();
    return this.draining;
  }
}

/** A server's WebSocket text frame (RFC 6455 §5.2): final, unmasked, the payload's length in 7, 16 or 64 bits. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(header + length);
  out[0] = 0x81;
  if (header === 2) out[1] = length;
  else if (header === 4) {
    out[1] = 126;
    out.writeUInt16BE(length, 2);
  } else {
    out[1] = 127;
    out.writeBigUInt64BE(BigInt(length), 2);
  }
  out.write(text, header, 'utf8');
  return out;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
