// Client events (`client-*`): only on private and presence channels the sender is subscribed to,
// never echoed to the sender, at most clientEventsPerSecond per connection (4301 beyond).
import { afterEach, describe, expect, it } from 'vitest';
import { channelAuth } from '../../server/realtime/signature.ts';
import { APP, frames, sleep, startTestServer, subscribed, type TestServer, waitFor } from './support/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw socket subscribed to `channel` (signed when it needs to be). */
async function rawSubscribed(s: TestServer, channel: string, user?: string) {
  const ws = s.raw();
  const f = frames(ws);
  const id = (await f.next('pusher:connection_established')).data.socket_id as string;
  const channelData = user ? JSON.stringify({ user_id: user }) : undefined;
  const auth =
    channel.startsWith('private-') || channel.startsWith('presence-')
      ? channelAuth(APP, id, channel, channelData)
      : undefined;
  ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth, channel_data: channelData } }));
  await f.next('pusher_internal:subscription_succeeded');
  return { ws, f, id };
}

describe('client events', () => {
  it('reach the other subscribers of a private channel but not the sender', async () => {
    server = await startTestServer();
    const a = server.client();
    const b = server.client();
    await subscribed(a, 'private-chat.1');
    const chA = a.channel('private-chat.1');
    await subscribed(b, 'private-chat.1');
    let echoed = false;
    chA.bind('client-typing', () => {
      echoed = true;
    });
    const got = waitFor((done) => b.channel('private-chat.1').bind('client-typing', done));
    expect(chA.trigger('client-typing', { typing: true })).toBe(true);
    expect(await got).toEqual({ typing: true });
    await sleep(100);
    expect(echoed).toBe(false);
  });

  it('carry the sender user_id on presence channels', async () => {
    server = await startTestServer();
    const sender = await rawSubscribed(server, 'presence-chats.3', '42');
    const other = await rawSubscribed(server, 'presence-chats.3', '43');
    sender.ws.send(JSON.stringify({ event: 'client-typing', channel: 'presence-chats.3', data: { on: 1 } }));
    const got = await other.f.next('client-typing');
    expect(got.user_id).toBe('42');
    expect(got.data).toEqual({ on: 1 });
  });

  it.each(['news', 'private-encrypted-chat.1'])('are refused on %s (public or encrypted)', async (channel) => {
    server = await startTestServer();
    const sender = await rawSubscribed(server, channel);
    const other = await rawSubscribed(server, channel);
    sender.ws.send(JSON.stringify({ event: 'client-x', channel, data: {} }));
    expect((await sender.f.next('pusher:error')).data.message).toMatch(/private and presence/);
    await sleep(100);
    expect(other.f.list.some((f) => f.event === 'client-x')).toBe(false);
  });

  it('are refused on a channel the sender is not subscribed to', async () => {
    server = await startTestServer();
    const sender = await rawSubscribed(server, 'private-a');
    const other = await rawSubscribed(server, 'private-b');
    sender.ws.send(JSON.stringify({ event: 'client-x', channel: 'private-b', data: {} }));
    await sender.f.next('pusher:error');
    await sleep(100);
    expect(other.f.list.some((f) => f.event === 'client-x')).toBe(false);
  });

  it('over the rate limit get pusher:error 4301 and are not delivered; the connection stays open', async () => {
    server = await startTestServer({ limits: { clientEventsPerSecond: 10 } });
    const sender = await rawSubscribed(server, 'private-chat.2');
    const other = await rawSubscribed(server, 'private-chat.2');
    for (let i = 0; i < 25; i++) {
      sender.ws.send(JSON.stringify({ event: 'client-n', channel: 'private-chat.2', data: { i } }));
    }
    await sleep(300);
    const errors = sender.f.list.filter((f) => f.event === 'pusher:error');
    const delivered = other.f.list.filter((f) => f.event === 'client-n');
    expect(errors.length).toBeGreaterThanOrEqual(12);
    expect(errors.every((e) => e.data.code === 4301)).toBe(true);
    expect(delivered.length).toBe(25 - errors.length);
    expect(delivered.length).toBeLessThanOrEqual(13);
    expect(sender.ws.readyState).toBe(sender.ws.OPEN);
    // The bucket refills.
    await sleep(500);
    sender.ws.send(JSON.stringify({ event: 'client-n', channel: 'private-chat.2', data: { i: 'late' } }));
    await waitFor((done) => {
      const poll = () => (other.f.list.some((f) => f.data?.i === 'late') ? done(true) : setTimeout(poll, 20));
      poll();
    });
  });

  it('over 10 KB of data are refused', async () => {
    server = await startTestServer();
    const sender = await rawSubscribed(server, 'private-chat.4');
    sender.ws.send(JSON.stringify({ event: 'client-big', channel: 'private-chat.4', data: 'x'.repeat(11 * 1024) }));
    expect((await sender.f.next('pusher:error')).data.message).toMatch(/at most 10240 bytes/);
  });
});
