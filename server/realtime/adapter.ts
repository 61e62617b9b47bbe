// What the realtime server shares with the other processes serving the same app: the events
// published to a channel, the subscription counts and the members of presence channels.
// `LocalAdapter` is one process alone; `RedisAdapter` (redis-adapter.ts) shares them through Redis.

/** A presence channel member as the subscription's signed `channel_data` gives it. */
export interface PresenceMember {
  user_id: string;
  user_info?: unknown;
}

export interface PresenceJoin {
  /** Refused: the channel already has its maximum of distinct users and this one is new. */
  full: boolean;
  /** The user had no other socket in the channel: the others are told `member_added`. */
  added: boolean;
  /** The channel's members after the join: user id → user_info. */
  members: Map<string, unknown>;
}

/** Delivers a frame to this process's sockets of `channel`, but not to socket `except`. */
export type Deliver = (channel: string, message: string, except: string | null) => void;

export interface Adapter {
  readonly name: 'local' | 'redis';
  /** Starts receiving what other processes publish (through `deliver`). */
  start(deliver: Deliver): Promise<void>;
  /** Sends a frame to the channel's sockets in the other processes (the caller delivers its own). */
  broadcast(channel: string, message: string, except: string | null): Promise<void>;
  /** This process has `count` sockets subscribed to `channel` now (0: none). */
  setLocalCount(channel: string, count: number): Promise<void>;
  /** Adds socket `socketId` of `member.user_id` to a presence channel, at most `maxMembers` users. */
  presenceJoin(channel: string, socketId: string, member: PresenceMember, maxMembers: number): Promise<PresenceJoin>;
  /** Removes the socket; true when it was its user's last one in the channel (`member_removed`). */
  presenceLeave(channel: string, socketId: string): Promise<boolean>;
  /** user id → user_info of a presence channel's members, all processes. */
  presenceMembers(channel: string): Promise<Map<string, unknown>>;
  /** Occupied channels whose name starts with `prefix`, with their subscription counts, all processes. */
  channels(prefix: string): Promise<Map<string, number>>;
  /** Connections subscribed to `channel`, all processes. */
  subscriptionCount(channel: string): Promise<number>;
  /** Distinct users in a presence channel, all processes. */
  userCount(channel: string): Promise<number>;
  close(): Promise<void>;
}

interface LocalPresence {
  /** user id → user_info and the user's sockets in the channel. */
  users: Map<string, { info: unknown; sockets: Set<string> }>;
  /** socket id → user id. */
  sockets: Map<string, string>;
}

/** One process: everything is already here. */
export class LocalAdapter implements Adapter {
  readonly name = 'local';
  readonly counts = new Map<string, number>();
  readonly presence = new Map<string, LocalPresence>();

  async start(): Promise<void> {}

  async broadcast(): Promise<void> {}

  async setLocalCount(channel: string, count: number): Promise<void> {
    if (count > 0) this.counts.set(channel, count);
    else this.counts.delete(channel);
  }

  async presenceJoin(
    channel: string,
    socketId: string,
    member: PresenceMember,
    maxMembers: number,
  ): Promise<PresenceJoin> {
    let p = this.presence.get(channel);
    if (!p) {
      p = { users: new Map(), sockets: new Map() };
      this.presence.set(channel, p);
    }
    const user = p.users.get(member.user_id);
    if (!p.sockets.has(socketId)) {
      if (!user && p.users.size >= maxMembers) {
        if (p.users.size === 0) this.presence.delete(channel);
        return { full: true, added: false, members: new Map() };
      }
      p.sockets.set(socketId, member.user_id);
      if (user) {
        user.sockets.add(socketId);
        user.info = member.user_info;
      } else {
        p.users.set(member.user_id, { info: member.user_info, sockets: new Set([socketId]) });
      }
    }
    return { full: false, added: !user, members: membersOf(p) };
  }

  async presenceLeave(channel: string, socketId: string): Promise<boolean> {
    const p = this.presence.get(channel);
    const userId = p?.sockets.get(socketId);
    if (!p || userId === undefined) return false;
    p.sockets.delete(socketId);
    const user = p.users.get(userId);
    user?.sockets.delete(socketId);
    if (user && user.sockets.size > 0) return false;
    p.users.delete(userId);
    if (p.users.size === 0) this.presence.delete(channel);
    return true;
  }

  async presenceMembers(channel: string): Promise<Map<string, unknown>> {
    const p = this.presence.get(channel);
    return p ? membersOf(p) : new Map();
  }

  async channels(prefix: string): Promise<Map<string, number>> {
    return new Map([...this.counts].filter(([name]) => name.startsWith(prefix)));
  }

  async subscriptionCount(channel: string): Promise<number> {
    return this.counts.get(channel) ?? 0;
  }

  async userCount(channel: string): Promise<number> {
    return this.presence.get(channel)?.users.size ?? 0;
  }

  async close(): Promise<void> {
    this.counts.clear();
    this.presence.clear();
  }
}

function membersOf(p: LocalPresence): Map<string, unknown> {
  return new Map([...p.users].map(([id, u]) => [id, u.info]));
}
