// Who may subscribe to which private or presence channel (docs/realtime.md, "Channel
// authorisation"): a member's own `private-users.{id}`, and `presence-chats.{id}` for that chat's
// two participants (their presence says who they are: id, name and avatar). Anything else is refused.
import { parseId } from '../../app/lib/ids.ts';
import { userChannel } from '../../app/lib/realtime/events.ts';
import type { ChatMemberInfo } from '../../app/lib/realtime/presence.ts';
import type { DB } from '../db/index.ts';
import { isChatMember } from '../domain/chats/chats.ts';

const USER_CHANNEL = /^private-users\.(.+)$/;

/** The member whose own channel this is (`private-users.{id}`), or null: whose connection a signed subscription proves. */
export function userOfChannel(channel: string): string | null {
  return USER_CHANNEL.exec(channel)?.[1] ?? null;
}

/** What a subscription is signed with: nothing more (private), or the presence's `channel_data`. */
export type ChannelGrant = { channelData?: string } | null;

const CHAT_PRESENCE = /^presence-chats\.(.+)$/;

/**
 * Whether the signed-in member may subscribe to `channel` (a valid channel name): null when not;
 * for a presence channel, the `channel_data` to sign (`user_id`, `user_info` with name and avatar).
 */
export async function channelGrant(
  db: DB,
  user: { id: string; name: string; image: string | null },
  channel: string,
): Promise<ChannelGrant> {
  if (channel === userChannel(user.id)) return {};
  const chat = parseId(CHAT_PRESENCE.exec(channel)?.[1]);
  if (chat !== null && (await isChatMember(db, user.id, chat))) {
    const info: ChatMemberInfo = { id: user.id, name: [...user.name].slice(0, 100).join(''), image: user.image };
    return { channelData: JSON.stringify({ user_id: user.id, user_info: info }) };
  }
  return null;
}
