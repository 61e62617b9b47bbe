// Notifications, live, on the built server (server/realtime/notifications.ts, docs/realtime.md
// "Channels and events"): a pusher-js client subscribed to `private-users.{id}` through the real
// authorisation endpoint hears `notification.created` with the unread count once a moderator's
// approval commits, and `notification.read` when the member marks it read; nobody else hears them,
// and nobody may subscribe to someone else's channel.
import PusherClient from 'pusher-js';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { member, placeToyota } from '../support/ads.ts';
import { type Browser, browser } from '../support/http-browser.ts';

const base = inject('baseUrl');
const TOKEN = 'live-xsrf-token';
const clients: PusherClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});

/** pusher-js as a browser tab of `b` uses it: authorised by POST /api/broadcasting/auth with the session. */
function connect(b: Browser): PusherClient {
  const client = new PusherClient('souq-key', {
    cluster: '',
    wsHost: '127.0.0.1',
    wsPort: Number(new URL(base).port),
    forceTLS: false,
    enabledTransports: ['ws'],
    channelAuthorization: {
      endpoint: `${base}/api/broadcasting/auth`,
      transport: 'ajax',
      customHandler: async ({ socketId, channelName }, callback) => {
        const res = await fetch(`${base}/api/broadcasting/auth`, {
          method: 'POST',
          headers: {
            cookie: `${b.cookieHeader()}; XSRF-TOKEN=${TOKEN}`,
            'x-xsrf-token': TOKEN,
            'x-forwarded-for': b.ip,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ socket_id: socketId, channel_name: channelName }),
        });
        if (res.ok) callback(null, await res.json());
        else callback(new Error(`auth answered ${res.status}`), null);
      },
    },
  });
  clients.push(client);
  return client;
}

function subscribe(client: PusherClient, channel: string) {
  const ch = client.subscribe(channel);
  return {
    ch,
    ready: new Promise<void>((resolve, reject) => {
      ch.bind('pusher:subscription_succeeded', () => resolve());
      ch.bind('pusher:subscription_error', (e: unknown) => reject(e));
    }),
  };
}

function next<T>(ch: ReturnType<PusherClient['subscribe']>, event: string, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} in ${ms} ms`)), ms);
    ch.bind(event, (data: T) => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}

describe('notifications, live', () => {
  it('reach the member’s own channel when written and when read', async () => {
    const owner = await member('live-owner');
    const ownerId = String((await owner.whoami()).user?.id);
    const ad = await placeToyota(owner, 'Toyota Land Cruiser 2010 live');
    const moderator = browser();
    expect((await moderator.post('/en/login', { login: 'moderator@souq.test', password: 'password123' })).status).toBe(
      302,
    );

    const tab = subscribe(connect(owner), `private-users.${ownerId}`);
    await tab.ready;
    // Someone else on their own channel hears nothing of it.
    const other = await member('live-other', { phone: false });
    const otherTab = subscribe(connect(other), `private-users.${String((await other.whoami()).user?.id)}`);
    await otherTab.ready;
    let otherHeard = 0;
    otherTab.ch.bind_global(() => otherHeard++);

    const created = next<{ id: number; type: string; unread: number }>(tab.ch, 'notification.created');
    const approved = Date.now();
    expect((await moderator.post('/en/admin/posts', { intent: `approve:${ad.id}` })).status).toBeLessThan(400);
    const event = await created;
    expect(event).toMatchObject({ type: 'ad-approved', unread: 1 });
    expect(Date.now() - approved).toBeLessThan(3000);

    const read = next<{ unread: number }>(tab.ch, 'notification.read');
    expect((await owner.post('/en/notifications', { intent: 'read', id: String(event.id) })).status).toBe(302);
    expect(await read).toEqual({ unread: 0 });
    expect(otherHeard).toBe(0);
  });

  it('refuses a subscription to someone else’s channel', async () => {
    const owner = await member('live-target', { phone: false });
    const ownerId = String((await owner.whoami()).user?.id);
    const intruder = await member('live-intruder', { phone: false });
    await expect(subscribe(connect(intruder), `private-users.${ownerId}`).ready).rejects.toBeTruthy();
    await expect(subscribe(connect(browser()), `private-users.${ownerId}`).ready).rejects.toBeTruthy();
  });
});
