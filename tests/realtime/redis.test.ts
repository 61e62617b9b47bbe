// Two realtime servers sharing one app through the real Redis (TEST_REDIS_URL, which CI sets):
// events, presence members and counts cross processes; a process that stops is swept.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisAdapter } from '../../server/realtime/redis-adapter.ts';
import { channelAuth } from '../../server/realtime/signature.ts';
import { APP, frames, sleep, startTestServer, subscribed, type TestServer, until, waitFor } from './support/server.ts';

const url = process.env.TEST_REDIS_URL;
if (!url) console.log('TEST_REDIS_URL is not set: the Redis adapter tests are skipped.');

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Two servers over one Redis, in a key space of their own. */
async function pair(timing: { heartbeatMs?: number; deadAfterMs?: number } = {}) {
  const prefix = `souq-test:${randomUUID()}:`;
  const make = async () => {
    const adapter = new RedisAdapter({ url: url!, appId: APP.id, prefix, ...timing });
    const s = await startTestServer({ adapter });
    servers.push(s);
    return { s, adapter };
  };
  return [await make(), await make()] as const;
}

describe.skipIf(!url)('Redis adapter', () => {
  it('shares events, client events and socket_id exclusion between two processes', async () => {
    const [{ s: a }, { s: b }] = await pair();
    const onA = a.client();
    const onB = b.client();
    await subscribed(onA, 'private-chat.9');
    await subscribed(onB, 'private-chat.9');
    const got = waitFor((done) => onB.channel('private-chat.9').bind('message', done));
    await a.sdk.trigger('private-chat.9', 'message', { text: 'من A إلى B' });
    expect(await got).toEqual({ text: 'من A إلى B' });

    const typing = waitFor((done) => onA.channel('private-chat.9').bind('client-typing', done));
    onB.channel('private-chat.9').trigger('client-typing', { on: true });
    expect(await typing).toEqual({ on: true });

    // Published on B, excluding A's socket: A's client gets nothing, B's does.
    const seen = { a: 0, b: 0 };
    onA.channel('private-chat.9').bind('x', () => seen.a++);
    onB.channel('private-chat.9').bind('x', () => seen.b++);
    await b.sdk.trigger('private-chat.9', 'x', {}, { socket_id: onA.connection.socket_id });
    await until(() => seen.b === 1);
    await sleep(150);
    expect(seen).toEqual({ a: 0, b: 1 });
  });

  it('delivers a batch in its order, on the process that took it and on the other', async () => {
    const [{ s: a }, { s: b }] = await pair();
    const onA = a.client();
    const onB = b.client();
    await subscribed(onA, 'private-chat.3');
    await subscribed(onB, 'private-chat.3');
    const order = (client: typeof onA) =>
      waitFor<number[]>((done) => {
        const got: number[] = [];
        client.channel('private-chat.3').bind('m', (data: { n: number }) => {
          got.push(data.n);
          if (got.length === 10) done(got);
        });
      });
    const gotA = order(onA);
    const gotB = order(onB);
    const batch = Array.from({ length: 10 }, (_, n) => ({
      channel: 'private-chat.3',
      name: 'm',
      data: JSON.stringify({ n }),
    }));
    expect((await a.sdk.triggerBatch(batch)).status).toBe(200);
    const expected = Array.from({ length: 10 }, (_, n) => n);
    expect(await gotA).toEqual(expected);
    expect(await gotB).toEqual(expected);
  });

  it('shares a presence channel: members, one member_added per user across processes, counts in the HTTP API', async () => {
    const [{ s: a }, { s: b }] = await pair();
    const name = 'presence-chats.77';
    const amal = a.client({ user: { user_id: '1', user_info: { name: 'أمل' } } });
    await subscribed(amal, name);
    const added: string[] = [];
    const removed: string[] = [];
    amal.channel(name).bind('pusher:member_added', (m: { id: string }) => added.push(m.id));
    amal.channel(name).bind('pusher:member_removed', (m: { id: string }) => removed.push(m.id));

    const bilalOnB = b.client({ user: { user_id: '2', user_info: { name: 'Bilal' } } });
    const seen = (await subscribed(bilalOnB, name)) as { count: number; get(id: string): { info: unknown } };
    expect(seen.count).toBe(2);
    expect(seen.get('1').info).toEqual({ name: 'أمل' });
    // The same user again, on the other process.
    const bilalOnA = a.client({ user: { user_id: '2', user_info: { name: 'Bilal' } } });
    await subscribed(bilalOnA, name);
    await until(() => added.length > 0);
    await sleep(150);
    expect(added).toEqual(['2']);

    for (const s of [a, b]) {
      expect(await (await s.sdk.get({ path: `/channels/${name}/users` })).json()).toEqual({
        users: expect.arrayContaining([{ id: '1' }, { id: '2' }]),
      });
      expect(
        await (
          await s.sdk.get({ path: `/channels/${name}`, params: { info: 'user_count,subscription_count' } })
        ).json(),
      ).toEqual({ occupied: true, user_count: 2, subscription_count: 3 });
      expect(
        await (
          await s.sdk.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })
        ).json(),
      ).toEqual({ channels: { [name]: { user_count: 2 } } });
    }

    bilalOnB.disconnect();
    await sleep(200);
    expect(removed).toEqual([]);
    bilalOnA.disconnect();
    await until(() => removed.length > 0);
    expect(removed).toEqual(['2']);
  });

  it('enforces the member limit across processes', async () => {
    const [{ s: a }, { s: b }] = await pair();
    const name = 'presence-small';
    a.rt.limits.maxPresenceMembers = 1;
    b.rt.limits.maxPresenceMembers = 1;
    await subscribed(a.client({ user: { user_id: '1' } }), name);
    const other = b.client({ user: { user_id: '2' } });
    const error = await waitFor<{ type: string }>((done) =>
      other.subscribe(name).bind('pusher:subscription_error', done),
    );
    expect(error.type).toBe('LimitReached');
  });

  it('sweeps a process that stopped without cleaning up: its members are announced removed', async () => {
    const [{ s: a }, { s: b, adapter: bAdapter }] = await pair({ heartbeatMs: 200, deadAfterMs: 800 });
    const name = 'presence-chats.88';
    const amal = a.client({ user: { user_id: '1' } });
    await subscribed(amal, name);
    const removed: string[] = [];
    amal.channel(name).bind('pusher:member_removed', (m: { id: string }) => removed.push(m.id));

    const ws = b.raw();
    const f = frames(ws);
    const id = (await f.next('pusher:connection_established')).data.socket_id;
    const channelData = JSON.stringify({ user_id: '9' });
    ws.send(
      JSON.stringify({
        event: 'pusher:subscribe',
        data: { channel: name, channel_data: channelData, auth: channelAuth(APP, id, name, channelData) },
      }),
    );
    await f.next('pusher_internal:subscription_succeeded');
    await until(async () => (await a.rt.adapter.userCount(name)) === 2);
    expect(await a.rt.adapter.subscriptionCount(name)).toBe(2);

    // B dies: no heartbeat, no Redis, nothing cleaned.
    const internals = bAdapter as unknown as {
      timer: NodeJS.Timeout;
      pub: { disconnect(): void };
      sub: { disconnect(): void };
    };
    clearInterval(internals.timer);
    internals.pub.disconnect();
    internals.sub.disconnect();
    ws.terminate();

    await until(() => removed.length > 0, 5000);
    expect(removed).toEqual(['9']);
    expect(await a.rt.adapter.userCount(name)).toBe(1);
    expect(await a.rt.adapter.subscriptionCount(name)).toBe(1);
  });
});
