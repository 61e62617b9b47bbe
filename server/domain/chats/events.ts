// What chats tell this process once a change has committed (the transaction's after-commit hook),
// for server/realtime/chats.ts to publish: a new message, a message that changed (an offer
// answered), a participant who read up to a message. Listeners never hear of a rolled-back change.
import { EventEmitter } from 'node:events';
import type { ChatMessageView } from './view.ts';

export type ChatChange =
  | {
      kind: 'message';
      chatId: number;
      message: ChatMessageView;
      senderId: string;
      /** The other participant, when there is one (null: their account is gone). */
      recipientId: string | null;
    }
  | { kind: 'message-updated'; chatId: number; message: ChatMessageView; memberIds: string[] }
  | { kind: 'read'; chatId: number; readerId: string; lastReadId: number };

const bus = new EventEmitter();
bus.setMaxListeners(20);

/** Calls `listener` on every committed chat change of this process; returns the unsubscribe. */
export function onChatChange(listener: (change: ChatChange) => void): () => void {
  bus.on('change', listener);
  return () => bus.off('change', listener);
}

/** A hook for afterCommit: tells the listeners of `change`. */
export const told = (change: ChatChange) => () => void bus.emit('change', change);
