// A chat thread, live (docs/product/chats.md, "Live"): the thread page's messages kept current
// without a reload, from the chat's presence channel (new and changed messages, read receipts,
// who is here, typing) joined through the member's realtime client (app/lib/realtime/presence.ts);
// what the page missed while disconnected fetched by cursor (`GET /api/chats/{id}/messages?after=`)
// each time the channel is (re)joined, merged by id so nothing is lost or doubled; messages sent
// through the API with an idempotency key, kept in an outbox (localStorage for texts and offers)
// while the browser is offline and sent in order when it is back, a retry never doubling one.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Locale } from '~/i18n/config.ts';
import { apiErrorText, apiSend, NetworkError } from '~/lib/api-client.ts';
import { CHAT_READ } from '~/lib/realtime/events.ts';
import {
  type ChatMemberInfo,
  chatChannel,
  THREAD_MESSAGE,
  THREAD_MESSAGE_UPDATED,
  THREAD_READ,
  type ThreadMessageEvent,
  type ThreadReadEvent,
  TYPING_WHISPER,
  type TypingWhisper,
  usePresenceChannel,
} from '~/lib/realtime/presence.ts';
import { dispatchUserEvent, useConnectionState } from '~/lib/realtime/state.ts';
import type { ChatMessage, Delivery } from './chat-parts.tsx';

export interface PendingMessage {
  key: string;
  kind: 'text' | 'offer' | 'image';
  body?: string;
  amount?: number;
  /** A photo waits in memory only (a file cannot be kept in localStorage). */
  file?: File;
  created_at: string;
  status: Delivery;
  error?: string;
}

const OUTBOX = 'souq.chat-outbox';
/** Typing stops showing this long after the last "typing" heard. */
const TYPING_SHOWN_MS = 6000;
/** A typing member says so at most this often… */
const TYPING_EVERY_MS = 3000;
/** …and that they stopped after this long without a key. */
const TYPING_IDLE_MS = 4000;

/** An idempotency key (crypto.randomUUID needs a secure context; a LAN address is not one). */
export function newClientKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function readOutbox(chatId: number): PendingMessage[] {
  try {
    const list = JSON.parse(localStorage.getItem(`${OUTBOX}.${chatId}`) ?? '[]') as PendingMessage[];
    return Array.isArray(list) ? list.map((p) => ({ ...p, status: p.status === 'failed' ? 'failed' : 'queued' })) : [];
  } catch {
    return [];
  }
}

function writeOutbox(chatId: number, list: PendingMessage[]): void {
  try {
    const kept = list.filter((p) => p.kind !== 'image');
    if (kept.length) localStorage.setItem(`${OUTBOX}.${chatId}`, JSON.stringify(kept));
    else localStorage.removeItem(`${OUTBOX}.${chatId}`);
  } catch {
    // Storage full or refused: the message stays in this page's memory.
  }
}

/** Messages by id, in order; `incoming` wins over what is there (an offer answered). */
function merge(list: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return list;
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export function useLiveThread(options: {
  chatId: number;
  userId: string;
  otherId: string | null;
  locale: Locale;
  initial: ChatMessage[];
  otherLastRead: number;
  /** The member may write (the thread is open). */
  open: boolean;
}) {
  const { chatId, userId, otherId, locale, initial, open } = options;
  const [messages, setMessages] = useState<ChatMessage[]>(initial);
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const [otherRead, setOtherRead] = useState(options.otherLastRead);
  const [online, setOnline] = useState(false);
  const [typing, setTyping] = useState(false);
  const [leftAt, setLeftAt] = useState<string | null>(null);
  const connection = useConnectionState();
  const lastId = useRef(0);
  lastId.current = messages.at(-1)?.id ?? 0;
  // The outbox as it is now (the state mirrors it for rendering).
  const pendingRef = useRef<PendingMessage[]>([]);

  // The loader's messages (a navigation, a revalidation after a form) join what is shown.
  useEffect(() => setMessages((prev) => merge(prev, initial)), [initial]);
  useEffect(() => setOtherRead((prev) => Math.max(prev, options.otherLastRead)), [options.otherLastRead]);

  const updatePending = useCallback(
    (change: (list: PendingMessage[]) => PendingMessage[]) => {
      const next = change(pendingRef.current);
      pendingRef.current = next;
      writeOutbox(chatId, next);
      setPending(next);
    },
    [chatId],
  );

  /** Messages that reached the page (API answer, channel, catch-up): shown once, their pending copy gone. */
  const arrived = useCallback(
    (incoming: ChatMessage[]) => {
      const own = new Set(incoming.filter((m) => m.sender_id === userId && m.client_key).map((m) => m.client_key));
      setMessages((prev) => merge(prev, incoming));
      if (own.size) updatePending((list) => list.filter((p) => !own.has(p.key)));
    },
    [userId, updatePending],
  );

  // Read receipts: what the other side wrote is read while this page is in view.
  const reading = useRef(false);
  const markRead = useCallback(async () => {
    if (reading.current || document.visibilityState !== 'visible') return;
    reading.current = true;
    try {
      const res = await apiSend<{ data: { unread_chats: number } }>('POST', `/api/chats/${chatId}/read`, {
        locale,
        body: new URLSearchParams(),
      });
      const body = res.body as { data?: { unread_chats?: number } } | null;
      // The header's counter, at once (the realtime event follows for the other tabs).
      if (res.status === 200 && typeof body?.data?.unread_chats === 'number') {
        dispatchUserEvent(CHAT_READ, { chat_id: chatId, unread: body.data.unread_chats });
      }
    } catch {
      // Offline: read at the next chance.
    } finally {
      reading.current = false;
    }
  }, [chatId, locale]);

  const catchingUp = useRef(false);
  const catchUp = useCallback(async () => {
    if (catchingUp.current) return;
    catchingUp.current = true;
    try {
      for (let round = 0; round < 20; round++) {
        const res = await fetch(`/api/chats/${chatId}/messages?after=${lastId.current}`, {
          credentials: 'same-origin',
          cache: 'no-store',
          headers: { Accept: 'application/json', 'X-Locale': locale },
        });
        if (!res.ok) return;
        const body = (await res.json()) as { data: ChatMessage[]; meta: { more: boolean; other_last_read: number } };
        arrived(body.data);
        setOtherRead((prev) => Math.max(prev, body.meta.other_last_read));
        lastId.current = Math.max(lastId.current, ...body.data.map((m) => m.id));
        if (body.data.some((m) => m.sender_id !== userId)) void markRead();
        if (!body.meta.more) return;
      }
    } catch {
      // Offline again: the next (re)join tries once more.
    } finally {
      catchingUp.current = false;
    }
  }, [chatId, locale, userId, arrived, markRead]);

  /** Sends one pending message; a network failure leaves it queued for the next chance. */
  const deliver = useCallback(
    async (item: PendingMessage) => {
      updatePending((list) =>
        list.map((p) => (p.key === item.key ? { ...p, status: 'sending', error: undefined } : p)),
      );
      let body: FormData | URLSearchParams;
      let url = `/api/chats/${chatId}/messages`;
      if (item.kind === 'image' && item.file) {
        url = `/api/chats/${chatId}/images`;
        body = new FormData();
        body.set('image', item.file);
        if (item.body) body.set('body', item.body);
        body.set('client_key', item.key);
      } else {
        body = new URLSearchParams({ client_key: item.key });
        if (item.kind === 'offer') body.set('amount', String(item.amount));
        else body.set('body', item.body ?? '');
      }
      try {
        const res = await apiSend<{ data: ChatMessage }>('POST', url, { locale, body });
        const data = (res.body as { data?: ChatMessage } | null)?.data;
        if ((res.status === 200 || res.status === 201) && data) {
          arrived([data]);
          updatePending((list) => list.filter((p) => p.key !== item.key));
          return true;
        }
        const error = apiErrorText(res.body) ?? String(res.status);
        updatePending((list) => list.map((p) => (p.key === item.key ? { ...p, status: 'failed', error } : p)));
      } catch (error) {
        if (!(error instanceof NetworkError)) throw error;
        updatePending((list) => list.map((p) => (p.key === item.key ? { ...p, status: 'queued' } : p)));
      }
      return false;
    },
    [chatId, locale, arrived, updatePending],
  );

  // The outbox goes out in order, one at a time; it stops at the first that cannot go yet.
  const flushing = useRef(false);
  const flush = useCallback(async () => {
    if (flushing.current) return;
    flushing.current = true;
    try {
      for (const item of pendingRef.current) {
        if (item.status !== 'queued') continue;
        const current = pendingRef.current.find((p) => p.key === item.key && p.status === 'queued');
        if (!current) continue;
        if (!(await deliver(current)) && pendingRef.current.find((p) => p.key === item.key)?.status === 'queued') {
          return;
        }
      }
    } finally {
      flushing.current = false;
    }
  }, [deliver]);

  // After hydration: what an earlier visit left in the outbox, sent when possible.
  useEffect(() => {
    const saved = readOutbox(chatId);
    if (saved.length) {
      pendingRef.current = saved;
      setPending(saved);
      if (navigator.onLine) void flush();
    }
    void markRead();
  }, [chatId, flush, markRead]);

  // Back online, or the realtime connection is back: send what waited, fetch what was missed.
  useEffect(() => {
    const back = () => {
      void flush();
      void catchUp();
    };
    window.addEventListener('online', back);
    const seen = () => {
      if (document.visibilityState === 'visible') void markRead();
    };
    document.addEventListener('visibilitychange', seen);
    return () => {
      window.removeEventListener('online', back);
      document.removeEventListener('visibilitychange', seen);
    };
  }, [flush, catchUp, markRead]);
  useEffect(() => {
    if (connection === 'connected') void flush();
  }, [connection, flush]);

  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const presence = usePresenceChannel<ChatMemberInfo>(chatChannel(chatId), {
    here: (members) => {
      setOnline(members.some((m) => m.id === otherId));
      // Joined, or joined again after a reconnect: what was missed meanwhile, and what waited to go.
      void catchUp();
      void flush();
    },
    joining: (member) => {
      if (member.id === otherId) setOnline(true);
    },
    leaving: (member) => {
      if (member.id !== otherId) return;
      setOnline(false);
      setTyping(false);
      setLeftAt(new Date().toISOString());
    },
    event: (name, data) => {
      if (name === THREAD_MESSAGE || name === THREAD_MESSAGE_UPDATED) {
        const { message } = data as ThreadMessageEvent;
        if (message.chat_id !== chatId) return;
        arrived([message]);
        if (name === THREAD_MESSAGE && message.sender_id !== userId) {
          setTyping(false);
          void markRead();
        }
      } else if (name === THREAD_READ) {
        const read = data as ThreadReadEvent;
        if (read.user_id !== userId) setOtherRead((prev) => Math.max(prev, read.last_read_message_id));
      }
    },
    whisper: (name, data) => {
      if (name !== TYPING_WHISPER) return;
      clearTimeout(typingTimer.current);
      const on = (data as TypingWhisper).typing === true;
      setTyping(on);
      if (on) typingTimer.current = setTimeout(() => setTyping(false), TYPING_SHOWN_MS);
    },
  });

  // This member's typing, told to the other side now and then, and when it stops.
  const lastTyping = useRef(0);
  const idle = useRef<ReturnType<typeof setTimeout>>(undefined);
  const stopTyping = useCallback(() => {
    clearTimeout(idle.current);
    if (lastTyping.current) presence.whisper(TYPING_WHISPER, { typing: false } satisfies TypingWhisper);
    lastTyping.current = 0;
  }, [presence]);
  const typed = useCallback(() => {
    const now = Date.now();
    if (now - lastTyping.current > TYPING_EVERY_MS) {
      lastTyping.current = now;
      presence.whisper(TYPING_WHISPER, { typing: true } satisfies TypingWhisper);
    }
    clearTimeout(idle.current);
    idle.current = setTimeout(stopTyping, TYPING_IDLE_MS);
  }, [presence, stopTyping]);
  useEffect(() => () => clearTimeout(typingTimer.current), []);

  /** Queues a message and sends it (at once when online). */
  const send = useCallback(
    (item: Omit<PendingMessage, 'key' | 'created_at' | 'status'>) => {
      if (!open) return;
      stopTyping();
      const entry: PendingMessage = {
        ...item,
        key: newClientKey(),
        created_at: new Date().toISOString(),
        status: 'queued',
      };
      updatePending((list) => [...list, entry]);
      if (navigator.onLine) void flush();
    },
    [open, stopTyping, updatePending, flush],
  );

  const retry = useCallback(
    (key: string) => {
      updatePending((list) => list.map((p) => (p.key === key ? { ...p, status: 'queued', error: undefined } : p)));
      void flush();
    },
    [updatePending, flush],
  );
  const discard = useCallback(
    (key: string) => updatePending((list) => list.filter((p) => p.key !== key)),
    [updatePending],
  );

  return { messages, pending, otherRead, online, typing, leftAt, connection, send, retry, discard, typed };
}
