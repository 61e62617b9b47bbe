// A banned member's open realtime connections end with their sessions (docs/realtime.md, "Ending a
// member's connections"): every ban this process commits (server/domain/admin/users.ts) closes the
// member's connections in every process of the embedded server (server/realtime/server.ts,
// `terminateUserConnections`, through the Redis adapter when there are several). Their channel
// subscriptions cannot be signed again: POST /api/broadcasting/auth needs a session, and a ban
// deletes them all.
import { onMemberBanned } from '../domain/admin/users.ts';
import type { Logger } from '../logger.ts';
import type { Publisher } from './publish.ts';

/** Closes the connections of each member this process bans; returns the unsubscribe. */
export function relayBans(publisher: Pick<Publisher, 'terminateUserConnections'>, logger: Logger): () => void {
  return onMemberBanned((userId) => {
    // The ban is committed whatever happens here; the sessions are gone, so no new subscription is signed.
    publisher
      .terminateUserConnections(userId)
      .catch((err) => logger.warn({ err, user: userId }, 'realtime: a banned member’s connections were not closed'));
  });
}
