// A ban ends a member's open realtime connections too (server/realtime/bans.ts, docs/realtime.md
// "Ending a member's connections"), on the built server: a pusher-js tab subscribed to the member's
// own channel through the real authorisation endpoint is closed with 4009 once the ban commits and
// does not come back; the endpoint then answers 401 (the ban deleted every session), so no channel
// of theirs can be joined again. Another member's tab stays open.
import PusherClient from 'pusher-js';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { member } from '../support/ads.ts';
import { type Browser, browser } from '../support/http-browser.ts';

const base = inject('baseUrl');
const TOKEN = 'ban-xsrf-token';
const clients: PusherClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});

const authorise = (b: Browser, socketId: string, channelName: string) =>
  fetch(`${base}/api/broadcasting/auth`, {
    method: 'POST',
    headers: {
      cookie: `${b.cookieHeader()}; XSRF-TOKEN=${TOKEN}`,
      'x-xsrf-token': TOKEN,
      'x-forwarded-for': b.ip,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ socket_id: socketId, channel_name: channelName }),
  });

/** pusher-js as a tab of `b`: authorised by POST /api/broadcasting/auth with the session. */
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
        const res = await authorise(b, socketId, channelName);
        if (res.ok) callback(null, await res.json());
        else callback(new Error(`auth answered ${res.status}`), null);
      },
    },
  });
  clients.push(client);
  return client;
}

const subscribed = (client: PusherClient, channel: string) =>
  new Promise<void>((resolve, reject) => {
    const ch = client.subscribe(channel);
    ch.bind('pusher:subscription_succeeded', () => resolve());
    ch.bind('pusher:subscription_error', (e: unknown) => reject(e));
  });

/** The Pusher error code the client was told before it went to `disconnected`. */
const closedWith = (client: PusherClient, ms = 5000) =>
  new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still ${client.connection.state} after ${ms} ms`)), ms);
    let code: number | null = null;
    client.connection.bind('error', (e: { error?: { data?: { code?: number } } }) => {
      code = e.error?.data?.code ?? code;
    });
    client.connection.bind('state_change', (s: { current: string }) => {
      if (s.current !== 'disconnected') return;
      clearTimeout(timer);
      resolve(code);
    });
  });

describe('a ban and the member’s realtime connections', () => {
  it('closes the banned member’s tabs with 4009, refuses new subscriptions, and leaves others alone', async () => {
    const banned = await member('ban-live');
    const bannedId = String((await banned.whoami()).user?.id);
    const other = await member('ban-live-other');
    const otherId = String((await other.whoami()).user?.id);
    const tab = connect(banned);
    const secondTab = connect(banned);
    const otherTab = connect(other);
    await subscribed(tab, `private-users.${bannedId}`);
    await subscribed(secondTab, `private-users.${bannedId}`);
    await subscribed(otherTab, `private-users.${otherId}`);
    const closed = [closedWith(tab), closedWith(secondTab)];

    const admin = browser();
    expect((await admin.post('/en/login', { login: 'admin@souq.test', password: 'password123' })).status).toBe(302);
    const ban = await admin.post(`/en/admin/users/${bannedId}`, { intent: 'ban', reason: 'Spam in every chat' });
    expect(ban.status).toBe(302);

    expect(await Promise.all(closed)).toEqual([4009, 4009]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(tab.connection.state).toBe('disconnected');
    expect(otherTab.connection.state).toBe('connected');
    // The sessions are gone: the endpoint refuses to sign any channel of theirs.
    expect((await authorise(banned, '1234.5678', `private-users.${bannedId}`)).status).toBe(401);
    const again = connect(banned);
    await expect(subscribed(again, `private-users.${bannedId}`)).rejects.toBeTruthy();
  });
});
