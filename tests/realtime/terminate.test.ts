// A member's connections closed by the server (a ban: server/realtime/bans.ts, docs/realtime.md
// "Ending a member's connections"), with real pusher-js clients: every connection that proved to
// be the member — a signed subscription to their own channel `private-users.{id}` or to a presence
// channel as them — is told 4009 and closed, and pusher-js does not reconnect; other members'
// connections and anonymous ones stay. From the process that bans, through the signed HTTP API
// (`terminate_connections`, what the `pusher` SDK calls), and across processes over Redis.
import { randomUUID } from 'node:crypto';
import type PusherClient from 'pusher-js';
import { afterEach, describe, expect, it } from 'vitest';
import { userOfChannel } from '../../server/realtime/channels.ts';
import { RedisAdapter } from '../../server/realtime/redis-adapter.ts';
import { APP, connected, sleep, startTestServer, subscribed, type TestServer, waitFor } from './support/server.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function server(adapter?: RedisAdapter) {
  const s = await startTestServer({ userOfChannel, adapter });
  servers.push(s);
  return s;
}

/** Resolves with the Pusher error code the client was told before its connection closed. */
function refused(client: PusherClient) {
  return waitFor<number | null>(
    (done) => {
      let code: number | null = null;
      client.connection.bind('error', (e: { error?: { data?: { code?: number } } }) => {
        code = e.error?.data?.code ?? code;
      });
      client.connection.bind('state_change', (s: { current: string }) => {
        if (s.current === 'disconnected') done(code);
      });
    },
    5000,
    'the connection to close',
  );
}

describe('closing a member’s connections', () => {
  it('closes the member’s connections with 4009 and keeps the others; pusher-js stays disconnected', async () => {
    const s = await server();
    const own = s.client();
    const presence = s.client({ user: { user_id: 'alice', user_info: { name: 'Alice' } } });
    const bob = s.client();
    const anonymous = s.client();
    await subscribed(own, 'private-users.alice');
    await subscribed(presence, 'presence-chats.7');
    await subscribed(bob, 'private-users.bob');
    await subscribed(anonymous, 'ads');
    const ownClosed = refused(own);
    const presenceClosed = refused(presence);
    expect(await s.rt.terminateUserConnections('alice')).toBe(2);
    expect(await ownClosed).toBe(4009);
    expect(await presenceClosed).toBe(4009);
    // No reconnection: still disconnected a while later, and the server holds only the two others.
    await sleep(1500);
    expect(own.connection.state).toBe('disconnected');
    expect(presence.connection.state).toBe('disconnected');
    expect(s.rt.connectionCount).toBe(2);
    // Bob and the anonymous visitor still receive.
    const got = waitFor((done) => bob.channel('private-users.bob').bind('note', done));
    await s.sdk.trigger('private-users.bob', 'note', { n: 1 });
    expect(await got).toEqual({ n: 1 });
    expect(anonymous.connection.state).toBe('connected');
    // A member with no connection: nothing to close.
    expect(await s.rt.terminateUserConnections('nobody')).toBe(0);
  });

  it('closes them through the signed HTTP API, as the pusher SDK asks', async () => {
    const s = await server();
    const own = s.client();
    await subscribed(own, 'private-users.carol');
    const closed = refused(own);
    await s.sdk.terminateUserConnections('carol');
    expect(await closed).toBe(4009);
    // Unsigned: refused.
    const res = await fetch(`http://127.0.0.1:${s.port}/apps/${APP.id}/users/carol/terminate_connections`, {
      method: 'POST',
    });
    expect(res.status).toBe(401);
  });

  it('a connection that subscribed to another member’s channel without a signature is not theirs', async () => {
    const s = await server();
    const forged = s.client({ wrongSecret: true });
    await connected(forged);
    const failed = waitFor((done) => forged.subscribe('private-users.dave').bind('pusher:subscription_error', done));
    await failed;
    expect(await s.rt.terminateUserConnections('dave')).toBe(0);
    expect(forged.connection.state).toBe('connected');
  });

  const url = process.env.TEST_REDIS_URL;
  it.skipIf(!url)('closes them in another process, over Redis', async () => {
    const prefix = `souq-test:${randomUUID()}:`;
    const a = await server(new RedisAdapter({ url: url!, appId: APP.id, prefix }));
    const b = await server(new RedisAdapter({ url: url!, appId: APP.id, prefix }));
    const onB = b.client();
    const otherOnB = b.client();
    const onA = a.client();
    await subscribed(onB, 'private-users.erin');
    await subscribed(otherOnB, 'private-users.frank');
    await subscribed(onA, 'private-users.erin');
    const closedB = refused(onB);
    const closedA = refused(onA);
    // The ban happens in process A; the member's tab is on B (and one on A).
    expect(await a.rt.terminateUserConnections('erin')).toBe(1);
    expect(await closedB).toBe(4009);
    expect(await closedA).toBe(4009);
    await sleep(500);
    expect(onB.connection.state).toBe('disconnected');
    expect(otherOnB.connection.state).toBe('connected');
    expect(b.rt.connectionCount).toBe(1);
  });
});
