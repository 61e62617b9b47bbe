// Who may subscribe to which private or presence channel (docs/realtime.md, "Channel
// authorisation"): a member's own `private-users.{id}`, nothing else yet. `presence-chats.{id}`
// will be the chat's two participants once chats are built; until then it is refused like every
// other channel.
import { userChannel } from '../../app/lib/realtime/events.ts';

/** Whether the signed-in member `userId` may subscribe to `channel` (a valid channel name). */
export function mayJoinChannel(userId: string, channel: string): boolean {
  return channel === userChannel(userId);
}
