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
