// The presence channels a page joins (a chat thread: app/components/chats/use-live-thread.ts),
// apart from ./state.ts so that no page's first load carries them: the thread page and the
// realtime client (./client.ts, which joins them once connected) are their only importers.
import { useEffect, useRef } from 'react';
import type { ChatMessageView } from '../../../server/domain/chats/view.ts';

// What a chat's presence channel carries (docs/realtime.md, "Channels and events"), shared by the
// publisher (server/realtime/chats.ts) and the thread page.
/** A chat's presence channel: its two participants, who is here, typing, the thread's events. */
export const chatChannel = (chatId: number) => `presence-chats.${chatId}`;

/** A message stored in the chat: the whole message. */
export const THREAD_MESSAGE = 'message.created';
/** A message changed (an offer answered): the whole message as it is now. */
export const THREAD_MESSAGE_UPDATED = 'message.updated';
/** A participant read up to a message (read receipts). */
export const THREAD_READ = 'chat.read';
/** Client event (laravel-echo's whisper `typing`): a participant is typing, or stopped. */
export const TYPING_WHISPER = 'typing';

export interface ThreadMessageEvent {
  message: ChatMessageView;
}

export interface ThreadReadEvent {
  user_id: string;
  last_read_message_id: number;
}

export interface TypingWhisper {
  typing: boolean;
}

/** What the presence channel's `channel_data` says of each member (`user_info`; laravel-echo hands on only this). */
export interface ChatMemberInfo {
  id: string;
  name: string;
  image: string | null;
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
