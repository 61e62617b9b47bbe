// Several processes serving one app share their realtime state through Redis (ADR 0014):
// - events: one pub/sub channel per app; each process delivers what the others publish;
// - subscription counts: each process keeps its own counts in a hash of its own, refreshed with
//   its heartbeat, and a query adds up the hashes of the processes still beating;
// - presence members: kept in Redis hashes changed by Lua scripts, so "first socket of this user"
//   and "last socket of this user" are decided atomically across processes (one member_added, one
//   member_removed per user). A process that stops beating is swept by the others: its sockets
//   leave their presence channels and the members who had no other socket are announced removed.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import type { Adapter, Deliver, PresenceJoin, PresenceMember } from './adapter.ts';
import { frame } from './protocol.ts';

// KEYS: sockets, users, info, node's presence channels. ARGV: socket field, user id, user_info JSON, max, channel.
// Returns {state, flat info hash}: state 1 added, 0 already a member, -1 socket already joined, 2 full.
const JOIN = `
local present = redis.call('HGET', KEYS[1], ARGV[1])
if present then return {-1, redis.call('HGETALL', KEYS[3])} end
local n = redis.call('HGET', KEYS[2], ARGV[2])
if not n and redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[4]) then return {2, {}} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[4], ARGV[5])
if n then return {0, redis.call('HGETALL', KEYS[3])} end
return {1, redis.call('HGETALL', KEYS[3])}
`;

// KEYS: sockets, users, info. ARGV: socket field. Returns the user id when it was the user's last socket.
const LEAVE = `
local uid = redis.call('HGET', KEYS[1], ARGV[1])
if not uid then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
local n = redis.call('HINCRBY', KEYS[2], uid, -1)
if n <= 0 then
  redis.call('HDEL', KEYS[2], uid)
  redis.call('HDEL', KEYS[3], uid)
  return uid
end
return false
`;

export interface RedisAdapterOptions {
  url: string;
  appId: string;
  /** Prepended to every key and pub/sub channel (tests use their own). */
  prefix?: string;
  logger?: Logger;
  /** How often this process says it is alive (ms). */
  heartbeatMs?: number;
  /** A process silent this long is swept (ms). */
  deadAfterMs?: number;
}

type Scripted = Redis & {
  rtJoin(...args: (string | number)[]): Promise<[number, string[]]>;
  rtLeave(...args: string[]): Promise<string | null>;
};

export class RedisAdapter implements Adapter {
  readonly name = 'redis';
  /** This process's id in Redis. */
  readonly node = randomUUID();
  private readonly base: string;
  private readonly events: string;
  private readonly pub: Scripted;
  private readonly sub: Redis;
  private readonly logger: Logger | undefined;
  private readonly heartbeatMs: number;
  private readonly deadAfterMs: number;
  private readonly local = new Map<string, number>();
  private deliver: Deliver = () => {};
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: RedisAdapterOptions) {
    this.base = `${options.prefix ?? 'souq:realtime:'}${options.appId}:`;
    this.events = `${this.base}events`;
    this.logger = options.logger;
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.deadAfterMs = options.deadAfterMs ?? 15_000;
    const redisOptions = { maxRetriesPerRequest: 2, lazyConnect: true, enableOfflineQueue: true };
    this.pub = new Redis(options.url, redisOptions) as Scripted;
    this.sub = new Redis(options.url, redisOptions);
    this.pub.defineCommand('rtJoin', { numberOfKeys: 4, lua: JOIN });
    this.pub.defineCommand('rtLeave', { numberOfKeys: 3, lua: LEAVE });
    for (const client of [this.pub, this.sub]) {
      client.on('error', (err) => this.logger?.warn({ err }, 'realtime: Redis connection error'));
    }
  }

  private get nodesKey() {
    return `${this.base}nodes`;
  }
  private countsKey(node: string) {
    return `${this.base}node:${node}:counts`;
  }
  private nodePresenceKey(node: string) {
    return `${this.base}node:${node}:presence`;
  }
  private presenceKeys(channel: string): [string, string, string] {
    const p = `${this.base}presence:${channel}:`;
    return [`${p}sockets`, `${p}users`, `${p}info`];
  }

  async start(deliver: Deliver): Promise<void> {
    this.deliver = deliver;
    await Promise.all([this.pub.connect(), this.sub.connect()]);
    this.sub.on('message', (_channel: string, text: string) => this.onMessage(text));
    await this.sub.subscribe(this.events);
    await this.heartbeat();
    this.timer = setInterval(() => {
      this.heartbeat().catch((err) => this.logger?.warn({ err }, 'realtime: Redis heartbeat failed'));
    }, this.heartbeatMs);
    this.timer.unref();
  }

  private onMessage(text: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    if (!Array.isArray(parsed) || parsed.length !== 4) return;
    const [node, channel, message, except] = parsed as [unknown, unknown, unknown, unknown];
    if (node === this.node || typeof channel !== 'string' || typeof message !== 'string') return;
    this.deliver(channel, message, typeof except === 'string' ? except : null);
  }

  /** Says this process is alive, and sweeps the processes that stopped saying so. */
  private async heartbeat() {
    const now = Date.now();
    const ttl = this.deadAfterMs * 2;
    await this.pub
      .multi()
      .zadd(this.nodesKey, now, this.node)
      .pexpire(this.countsKey(this.node), ttl)
      .pexpire(this.nodePresenceKey(this.node), ttl)
      .exec();
    const dead = await this.pub.zrangebyscore(this.nodesKey, '-inf', now - this.deadAfterMs);
    for (const node of dead) if (node !== this.node) await this.sweep(node);
  }

  /** Removes a silent process's sockets from presence channels and announces the members who left. */
  private async sweep(node: string) {
    const channels = await this.pub.smembers(this.nodePresenceKey(node));
    for (const channel of channels) {
      const keys = this.presenceKeys(channel);
      let cursor = '0';
      do {
        const [next, fields] = await this.pub.hscan(keys[0], cursor, 'MATCH', `${node}/*`, 'COUNT', 200);
        cursor = next;
        for (let i = 0; i < fields.length; i += 2) {
          const uid = await this.pub.rtLeave(...keys, fields[i]);
          if (uid !== null) {
            const message = frame('pusher_internal:member_removed', { user_id: uid }, channel);
            this.deliver(channel, message, null);
            await this.broadcast(channel, message, null);
          }
        }
      } while (cursor !== '0');
    }
    await this.pub.multi().del(this.nodePresenceKey(node), this.countsKey(node)).zrem(this.nodesKey, node).exec();
    this.logger?.info({ node }, 'realtime: swept a process that stopped');
  }

  async broadcast(channel: string, message: string, except: string | null): Promise<void> {
    await this.pub.publish(this.events, JSON.stringify([this.node, channel, message, except]));
  }

  async setLocalCount(channel: string, count: number): Promise<void> {
    if (count > 0) this.local.set(channel, count);
    else this.local.delete(channel);
    const key = this.countsKey(this.node);
    if (count > 0) {
      await this.pub
        .multi()
        .hset(key, channel, count)
        .pexpire(key, this.deadAfterMs * 2)
        .exec();
    } else {
      await this.pub.hdel(key, channel);
    }
  }

  async presenceJoin(
    channel: string,
    socketId: string,
    member: PresenceMember,
    maxMembers: number,
  ): Promise<PresenceJoin> {
    const [state, flat] = await this.pub.rtJoin(
      ...this.presenceKeys(channel),
      this.nodePresenceKey(this.node),
      `${this.node}/${socketId}`,
      member.user_id,
      JSON.stringify(member.user_info ?? null),
      maxMembers,
      channel,
    );
    if (state === 2) return { full: true, added: false, members: new Map() };
    return { full: false, added: state === 1, members: infoMap(flat) };
  }

  async presenceLeave(channel: string, socketId: string): Promise<boolean> {
    const uid = await this.pub.rtLeave(...this.presenceKeys(channel), `${this.node}/${socketId}`);
    return uid !== null;
  }

  async presenceMembers(channel: string): Promise<Map<string, unknown>> {
    return infoMap(await this.pub.hgetall(this.presenceKeys(channel)[2]));
  }

  async userCount(channel: string): Promise<number> {
    return this.pub.hlen(this.presenceKeys(channel)[1]);
  }

  /** Subscription counts of the live processes, this one's from memory. */
  private async allCounts(): Promise<Map<string, number>[]> {
    const nodes = await this.pub.zrangebyscore(this.nodesKey, Date.now() - this.deadAfterMs, '+inf');
    const others = nodes.filter((n) => n !== this.node);
    const pipeline = this.pub.pipeline();
    for (const n of others) pipeline.hgetall(this.countsKey(n));
    const results = others.length ? ((await pipeline.exec()) ?? []) : [];
    const maps = [this.local];
    for (const [err, value] of results) {
      if (err || !value || typeof value !== 'object') continue;
      maps.push(new Map(Object.entries(value as Record<string, string>).map(([k, v]) => [k, Number(v)])));
    }
    return maps;
  }

  async channels(prefix: string): Promise<Map<string, number>> {
    const total = new Map<string, number>();
    for (const counts of await this.allCounts()) {
      for (const [name, n] of counts) if (name.startsWith(prefix) && n > 0) total.set(name, (total.get(name) ?? 0) + n);
    }
    return total;
  }

  async subscriptionCount(channel: string): Promise<number> {
    let total = 0;
    for (const counts of await this.allCounts()) total += counts.get(channel) ?? 0;
    return total;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    try {
      await this.pub
        .multi()
        .del(this.countsKey(this.node), this.nodePresenceKey(this.node))
        .zrem(this.nodesKey, this.node)
        .exec();
    } catch (err) {
      this.logger?.warn({ err }, 'realtime: could not remove this process from Redis');
    }
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }
}

function infoMap(flat: string[] | Record<string, string>): Map<string, unknown> {
  const entries: [string, string][] = [];
  if (Array.isArray(flat)) for (let i = 0; i + 1 < flat.length; i += 2) entries.push([flat[i], flat[i + 1]]);
  else entries.push(...Object.entries(flat));
  return new Map(
    entries.map(([id, json]) => {
      try {
        return [id, JSON.parse(json) ?? undefined];
      } catch {
        return [id, undefined];
      }
    }),
  );
}
