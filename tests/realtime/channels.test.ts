// Subscriptions with pusher-js against the embedded server: public, private, presence and
// private-encrypted channels, refused signatures, presence members and the limits.
import type PusherClient from 'pusher-js';
import { afterEach, describe, expect, it } from 'vitest';
import { channelAuth } from '../../server/realtime/signature.ts';
import {
  APP,
  connected,
  frames,
  sleep,
  startTestServer,
  subscribed,
  type TestServer,
  waitFor,
} from './support/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function receive<T = unknown>(client: PusherClient, channel: string, event: string, ms = 3000) {
  return waitFor<T>((done) => client.channel(channel).bind(event, done), ms, `${event} on ${channel}`);
}

describe('public and private channels', () => {
  it('delivers a server event on a public channel to its subscribers only', async () => {
    server = await startTestServer();
    const a = server.client();
    const b = server.client();
    await subscribed(a, 'news');
    await subscribed(b, 'other');
    let leaked = false;
    b.channel('other').bind('headline', () => {
      leaked = true;
    });
    const got = receive(a, 'news', 'headline');
    await server.sdk.trigger('news', 'headline', { title: 'سيارة للبيع' });
    expect(await got).toEqual({ title: 'سيارة للبيع' });
    await sleep(100);
    expect(leaked).toBe(false);
  });

  it('subscribes to a private channel with a signature made by the app secret', async () => {
    server = await startTestServer();
    const a = server.client();
    await subscribed(a, 'private-users.7');
    const got = receive(a, 'private-users.7', 'unread');
    await server.sdk.trigger('private-users.7', 'unread', { count: 3 });
    expect(await got).toEqual({ count: 3 });
  });

  it.each(['private-users.7', 'presence-chats.1', 'private-encrypted-users.7'])(
    'refuses %s signed with another secret (subscription_error, AuthError)',
    async (name) => {
      server = await startTestServer();
      const a = server.client({ wrongSecret: true, user: { user_id: '1' } });
      const error = await waitFor<{ type: string; status: number }>((done) =>
        a.subscribe(name).bind('pusher:subscription_error', done),
      );
      expect(error.type).toBe('AuthError');
      expect(error.status).toBe(401);
      expect(a.channel(name).subscribed).toBe(false);
      // And nothing is delivered to it.
      let leaked = false;
      a.channel(name).bind('secret', () => {
        leaked = true;
      });
      await server.sdk.trigger(name.replace('encrypted-', ''), 'secret', 'x');
      await sleep(100);
      expect(leaked).toBe(false);
    },
  );

  it('refuses a signature of another socket, a missing one and an invalid channel name', async () => {
    server = await startTestServer();
    const ws = server.raw();
    const f = frames(ws);
    const established = await f.next('pusher:connection_established');
    const send = (data: unknown) => ws.send(JSON.stringify({ event: 'pusher:subscribe', data }));
    send({ channel: 'private-a', auth: channelAuth(APP, '1.2', 'private-a') });
    expect((await f.next('pusher:subscription_error')).data.type).toBe('AuthError');
    send({ channel: 'private-a' });
    expect((await f.next('pusher:subscription_error')).data.type).toBe('AuthError');
    send({ channel: 'bad name!' });
    expect((await f.next('pusher:subscription_error')).data.type).toBe('InvalidChannel');
    send({ channel: 'x'.repeat(300) });
    await f.next('pusher:error');
    send({ channel: 'private-a', auth: channelAuth(APP, established.data.socket_id, 'private-a') });
    const ok = await f.next('pusher_internal:subscription_succeeded');
    expect(ok.channel).toBe('private-a');
  });

  it('stops delivering after unsubscribe', async () => {
    server = await startTestServer();
    const a = server.client();
    await subscribed(a, 'news');
    let count = 0;
    a.channel('news').bind('tick', () => count++);
    const first = receive(a, 'news', 'tick');
    await server.sdk.trigger('news', 'tick', {});
    await first;
    a.unsubscribe('news');
    await waitFor((done) => {
      const poll = async () =>
        (await server?.rt.adapter.subscriptionCount('news')) === 0 ? done(true) : setTimeout(poll, 20);
      void poll();
    });
    await server.sdk.trigger('news', 'tick', {});
    await sleep(100);
    expect(count).toBe(1);
  });
});

describe('private-encrypted channels', () => {
  it('relays the SDK-encrypted payload that pusher-js decrypts with the shared secret', async () => {
    server = await startTestServer();
    const a = server.client();
    const name = 'private-encrypted-users.9';
    await subscribed(a, name);
    const got = receive(a, name, 'message');
    // What the server sees: ciphertext only.
    const spy = server.raw();
    const f = frames(spy);
    const id = (await f.next('pusher:connection_established')).data.socket_id;
    spy.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: name, auth: channelAuth(APP, id, name) } }));
    await f.next('pusher_internal:subscription_succeeded');
    await server.sdk.trigger(name, 'message', { text: 'مرحبا' });
    expect(await got).toEqual({ text: 'مرحبا' });
    const raw = await f.next('message');
    expect(Object.keys(raw.data).sort()).toEqual(['ciphertext', 'nonce']);
    expect(JSON.stringify(raw)).not.toContain('مرحبا');
  });
});

describe('presence channels', () => {
  it('gives the members in subscription_succeeded and announces one member_added per user, whatever their sockets', async () => {
    server = await startTestServer();
    const name = 'presence-chats.1';
    const amal = server.client({ user: { user_id: '1', user_info: { name: 'أمل' } } });
    const members = (await subscribed(amal, name)) as { count: number; me: { id: string } };
    expect(members.count).toBe(1);
    expect(members.me.id).toBe('1');

    const added: { id: string; info: unknown }[] = [];
    const removed: string[] = [];
    amal.channel(name).bind('pusher:member_added', (m: { id: string; info: unknown }) => added.push(m));
    amal.channel(name).bind('pusher:member_removed', (m: { id: string }) => removed.push(m.id));

    const bilal1 = server.client({ user: { user_id: '2', user_info: { name: 'Bilal' } } });
    const bilal2 = server.client({ user: { user_id: '2', user_info: { name: 'Bilal' } } });
    const seen1 = (await subscribed(bilal1, name)) as { count: number; get(id: string): unknown };
    expect(seen1.count).toBe(2);
    expect(seen1.get('1')).toEqual({ id: '1', info: { name: 'أمل' } });
    const seen2 = (await subscribed(bilal2, name)) as { count: number };
    expect(seen2.count).toBe(2);
    await sleep(150);
    expect(added).toEqual([{ id: '2', info: { name: 'Bilal' } }]);

    // One of Bilal's two sockets leaves: he is still there.
    bilal1.disconnect();
    await sleep(200);
    expect(removed).toEqual([]);
    bilal2.disconnect();
    await waitFor((done) => {
      const poll = () => (removed.length ? done(true) : setTimeout(poll, 20));
      poll();
    });
    expect(removed).toEqual(['2']);
    expect((amal.channel(name) as unknown as { members: { count: number } }).members.count).toBe(1);
  });

  it('lists a member without user_info', async () => {
    server = await startTestServer();
    const a = server.client({ user: { user_id: '5' } });
    await subscribed(a, 'presence-room');
    const b = server.client({ user: { user_id: '6' } });
    const seen = (await subscribed(b, 'presence-room')) as {
      count: number;
      each(cb: (m: { id: string }) => void): void;
    };
    const ids: string[] = [];
    seen.each((m) => ids.push(m.id));
    expect(ids.sort()).toEqual(['5', '6']);
  });

  it('refuses a new user over the member limit, but not another socket of a member', async () => {
    server = await startTestServer({ limits: { maxPresenceMembers: 2 } });
    const name = 'presence-full';
    await subscribed(server.client({ user: { user_id: '1' } }), name);
    await subscribed(server.client({ user: { user_id: '2' } }), name);
    const third = server.client({ user: { user_id: '3' } });
    const error = await waitFor<{ type: string }>((done) =>
      third.subscribe(name).bind('pusher:subscription_error', done),
    );
    expect(error.type).toBe('LimitReached');
    await subscribed(server.client({ user: { user_id: '2' } }), name);
  });

  it('refuses channel_data without user_id, an over-long user_id and an over-large user_info', async () => {
    server = await startTestServer();
    const ws = server.raw();
    const f = frames(ws);
    const id = (await f.next('pusher:connection_established')).data.socket_id;
    const name = 'presence-x';
    for (const data of [
      { user_info: {} },
      { user_id: 'u'.repeat(200) },
      { user_id: '1', user_info: { bio: 'x'.repeat(2000) } },
      'not an object',
    ]) {
      const channelData = JSON.stringify(data);
      ws.send(
        JSON.stringify({
          event: 'pusher:subscribe',
          data: { channel: name, channel_data: channelData, auth: channelAuth(APP, id, name, channelData) },
        }),
      );
      expect((await f.next('pusher:subscription_error')).data.type).toBe('InvalidChannelData');
    }
    // channel_data that does not match the signature
    const signed = JSON.stringify({ user_id: '1' });
    ws.send(
      JSON.stringify({
        event: 'pusher:subscribe',
        data: {
          channel: name,
          channel_data: JSON.stringify({ user_id: '2' }),
          auth: channelAuth(APP, id, name, signed),
        },
      }),
    );
    expect((await f.next('pusher:subscription_error')).data.type).toBe('AuthError');
  });

  it('refuses subscriptions over the per-connection channel limit', async () => {
    server = await startTestServer({ limits: { maxChannelsPerConnection: 2 } });
    const a = server.client();
    await subscribed(a, 'one');
    await subscribed(a, 'two');
    const error = await waitFor<{ type: string }>((done) =>
      a.subscribe('three').bind('pusher:subscription_error', done),
    );
    expect(error.type).toBe('LimitReached');
    await connected(a);
  });
});
