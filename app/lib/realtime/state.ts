// The realtime connection as the page's components see it, without loading the client: its state
// (pusher-js's: initialized, connecting, connected, unavailable, failed, disconnected) and the
// events of the member's own channel. The client itself (pusher-js and laravel-echo,
// app/lib/realtime/client.ts) is loaded after hydration for signed-in members only and reports here.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { UserEventName, UserEvents } from './events.ts';

export const CONNECTION_STATES = [
  'initialized',
  'connecting',
  'connected',
  'unavailable',
  'failed',
  'disconnected',
] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

let state: ConnectionState = 'initialized';
const stateListeners = new Set<() => void>();

/** Called by the client on every change of its connection's state. */
export function setConnectionState(next: ConnectionState): void {
  if (next === state) return;
  state = next;
  for (const listener of stateListeners) listener();
}

const subscribeState = (listener: () => void) => {
  stateListeners.add(listener);
  return () => void stateListeners.delete(listener);
};

/**
 * The realtime connection's state, `initialized` until the client starts (and always for visitors
 * and on the server). The chat thread shows a quiet "reconnecting…" hint while it is not `connected`.
 */
export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(
    subscribeState,
    () => state,
    () => 'initialized',
  );
}

type Handler<E extends UserEventName> = (data: UserEvents[E]) => void;
const handlers = new Map<UserEventName, Set<Handler<never>>>();

/** Called by the client with each event of the member's channel. */
export function dispatchUserEvent<E extends UserEventName>(event: E, data: UserEvents[E]): void {
  for (const handler of handlers.get(event) ?? []) (handler as Handler<E>)(data);
}

/** Calls `handler` with every `event` on the signed-in member's channel while mounted. */
export function useUserEvent<E extends UserEventName>(event: E, handler: Handler<E>): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const h: Handler<E> = (data) => latest.current(data);
    let set = handlers.get(event);
    if (!set) {
      set = new Set();
      handlers.set(event, set);
    }
    set.add(h as Handler<never>);
    return () => void set.delete(h as Handler<never>);
  }, [event]);
}

/** What a page hears of a presence channel it joined (app/lib/realtime/client.ts joins it). */
export interface PresenceListener<Info> {
  /** Subscribed (again, after a reconnect): who is there. A page catches up on what it missed. */
  here: (members: Info[]) => void;
  joining: (member: Info) => void;
  leaving: (member: Info) => void;
  /** A server event of the channel (its name as published, e.g. `message.created`). */
  event: (name: string, data: unknown) => void;
  /** A client event of another member (laravel-echo's whisper; its name without `client-`). */
  whisper: (name: string, data: unknown) => void;
}

/** A joined channel: leave it, or whisper on it. */
export interface PresenceHandle {
  leave: () => void;
  whisper: (name: string, data: unknown) => void;
}

type Joiner = (channel: string, listener: PresenceListener<unknown>) => PresenceHandle;
let joiner: Joiner | null = null;
const wanted = new Map<symbol, { channel: string; listener: PresenceListener<unknown>; handle?: PresenceHandle }>();

/**
 * Called by the client once it is connected (and with null when it stops): joins the presence
 * channels the page's components want, now and later.
 */
export function setPresenceJoiner(next: Joiner | null): void {
  for (const entry of wanted.values()) {
    entry.handle?.leave();
    entry.handle = undefined;
  }
  joiner = next;
  if (joiner) for (const entry of wanted.values()) entry.handle = joiner(entry.channel, entry.listener);
}

/**
 * Joins presence channel `channel` (e.g. `presence-chats.5`) while mounted, as soon as the
 * member's realtime client runs; `whisper` sends a client event when joined (dropped otherwise).
 */
export function usePresenceChannel<Info>(
  channel: string | null,
  listener: PresenceListener<Info>,
): { whisper: (name: string, data: unknown) => void } {
  const latest = useRef(listener);
  latest.current = listener;
  const key = useRef<symbol | null>(null);
  useEffect(() => {
    if (!channel) return;
    const id = Symbol(channel);
    key.current = id;
    const relay: PresenceListener<unknown> = {
      here: (m) => latest.current.here(m as Info[]),
      joining: (m) => latest.current.joining(m as Info),
      leaving: (m) => latest.current.leaving(m as Info),
      event: (n, d) => latest.current.event(n, d),
      whisper: (n, d) => latest.current.whisper(n, d),
    };
    const entry: { channel: string; listener: PresenceListener<unknown>; handle?: PresenceHandle } = {
      channel,
      listener: relay,
    };
    wanted.set(id, entry);
    if (joiner) entry.handle = joiner(channel, relay);
    return () => {
      entry.handle?.leave();
      wanted.delete(id);
      if (key.current === id) key.current = null;
    };
  }, [channel]);
  return {
    whisper: (name, data) => {
      const entry = key.current ? wanted.get(key.current) : undefined;
      entry?.handle?.whisper(name, data);
    },
  };
}
