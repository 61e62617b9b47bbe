// The signed HTTP API with the official `pusher` server SDK, and with requests made by hand to
// check every refusal: 4xx with a JSON error, never 5xx.
import { createHash } from 'node:crypto';
import Pusher from 'pusher';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP, frames, sleep, startTestServer, subscribed, type TestServer, waitFor } from './support/server.ts';

let server: TestServer;
let base: string;
beforeAll(async () => {
  server = await startTestServer();
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.close();
});

/** A request signed by the SDK (its own clock, which a test may move). */
function signed(method: string, path: string, body?: string, params?: Record<string, string>) {
  const query = server.sdk.createSignedQueryString({ method, path, body, params });
  return fetch(`${base}${path}?${query}`, {
    method,
    body,
    headers: body ? { 'content-type': 'application/json' } : {},
  });
}

async function json(res: Response) {
  return { status: res.status, body: await res.json() };
}

describe('with the pusher SDK', () => {
  it('triggers an event, a batch, and asks for channels, one channel and its users', async () => {
    const reader = server.client({ user: { user_id: 'u1', user_info: { name: 'سارة' } } });
    await subscribed(reader, 'presence-chats.5');
    await subscribed(reader, 'private-users.5');
    await subscribed(reader, 'news');
    const got = waitFor((done) => reader.channel('news').bind('hello', done));
    const res = await server.sdk.trigger(['news'], 'hello', { a: 1 });
    expect(res.status).toBe(200);
    expect(await got).toEqual({ a: 1 });

    const batchGot = waitFor((done) => reader.channel('private-users.5').bind('b2', done));
    const batch = await server.sdk.triggerBatch([
      { channel: 'news', name: 'b1', data: '1' },
      { channel: 'private-users.5', name: 'b2', data: { n: 2 } },
    ]);
    expect(batch.status).toBe(200);
    expect(await batchGot).toEqual({ n: 2 });

    const channels = await (await server.sdk.get({ path: '/channels' })).json();
    expect(Object.keys(channels.channels).sort()).toEqual(['news', 'presence-chats.5', 'private-users.5']);
    const presence = await (
      await server.sdk.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })
    ).json();
    expect(presence).toEqual({ channels: { 'presence-chats.5': { user_count: 1 } } });
    const counted = await (
      await server.sdk.get({ path: '/channels', params: { filter_by_prefix: 'priv', info: 'subscription_count' } })
    ).json();
    expect(counted).toEqual({ channels: { 'private-users.5': { subscription_count: 1 } } });

    const one = await (
      await server.sdk.get({ path: '/channels/presence-chats.5', params: { info: 'user_count,subscription_count' } })
    ).json();
    expect(one).toEqual({ occupied: true, user_count: 1, subscription_count: 1 });
    expect(await (await server.sdk.get({ path: '/channels/empty' })).json()).toEqual({ occupied: false });
    const users = await (await server.sdk.get({ path: '/channels/presence-chats.5/users' })).json();
    expect(users).toEqual({ users: [{ id: 'u1' }] });

    const info = await (
      await server.sdk.trigger('presence-chats.5', 'x', {}, { info: 'user_count,subscription_count' })
    ).json();
    expect(info).toEqual({ channels: { 'presence-chats.5': { user_count: 1, subscription_count: 1 } } });
    reader.disconnect();
  });

  it('does not deliver an event to the socket_id it excludes', async () => {
    const a = server.client();
    const b = server.client();
    await subscribed(a, 'room');
    await subscribed(b, 'room');
    const seen = { a: 0, b: 0 };
    a.channel('room').bind('ping', () => seen.a++);
    b.channel('room').bind('ping', () => seen.b++);
    await server.sdk.trigger('room', 'ping', {}, { socket_id: a.connection.socket_id });
    await waitFor((done) => {
      const poll = () => (seen.b ? done(true) : setTimeout(poll, 10));
      poll();
    });
    await sleep(100);
    expect(seen).toEqual({ a: 0, b: 1 });
    a.disconnect();
    b.disconnect();
  });

  it('refuses a request signed with another secret (401), and another app id (404)', async () => {
    const wrong = new Pusher({
      appId: APP.id,
      key: APP.key,
      secret: 'not-the-secret',
      host: '127.0.0.1',
      port: String(server.port),
      useTLS: false,
    });
    await expect(wrong.trigger('news', 'x', {})).rejects.toMatchObject({ status: 401 });
    const otherApp = new Pusher({
      appId: 'other',
      key: APP.key,
      secret: APP.secret,
      host: '127.0.0.1',
      port: String(server.port),
      useTLS: false,
    });
    await expect(otherApp.trigger('news', 'x', {})).rejects.toMatchObject({ status: 404 });
    const otherKey = new Pusher({
      appId: APP.id,
      key: 'other',
      secret: APP.secret,
      host: '127.0.0.1',
      port: String(server.port),
      useTLS: false,
    });
    await expect(otherKey.get({ path: '/channels' })).rejects.toMatchObject({ status: 401 });
  });
});

describe('signatures', () => {
  const path = `/apps/${APP.id}/events`;
  const body = JSON.stringify({ name: 'e', channels: ['news'], data: '{}' });

  it('accepts a signed request', async () => {
    expect((await signed('POST', path, body)).status).toBe(200);
  });

  it.each([
    ['a timestamp older than 600 s', -700],
    ['a timestamp more than 600 s ahead', 700],
  ])('refuses %s (401)', async (_what, offsetSeconds) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + offsetSeconds * 1000);
    const query = server.sdk.createSignedQueryString({ method: 'POST', path, body });
    vi.useRealTimers();
    const res = await fetch(`${base}${path}?${query}`, { method: 'POST', body });
    expect(await json(res)).toEqual({ status: 401, body: { error: expect.stringMatching(/auth_timestamp/) } });
  });

  it('accepts a timestamp 500 s old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 500_000);
    const query = server.sdk.createSignedQueryString({ method: 'POST', path, body });
    vi.useRealTimers();
    expect((await fetch(`${base}${path}?${query}`, { method: 'POST', body })).status).toBe(200);
  });

  it('refuses a body that is not the signed one (body_md5), a changed query and a changed signature', async () => {
    const query = server.sdk.createSignedQueryString({ method: 'POST', path, body });
    const other = JSON.stringify({ name: 'e', channels: ['secret'], data: '{}' });
    expect((await fetch(`${base}${path}?${query}`, { method: 'POST', body: other })).status).toBe(401);
    // A body_md5 that matches the new body, but the signature was made over the old one.
    const md5 = createHash('md5').update(other).digest('hex');
    const swapped = query.replace(/body_md5=[0-9a-f]+/, `body_md5=${md5}`);
    expect((await fetch(`${base}${path}?${swapped}`, { method: 'POST', body: other })).status).toBe(401);
    const flipped = query.replace(/auth_signature=([0-9a-f])/, (_m, c) => `auth_signature=${c === '0' ? '1' : '0'}`);
    expect((await fetch(`${base}${path}?${flipped}`, { method: 'POST', body })).status).toBe(401);
    const extra = `${query}&socket_id=1.1`;
    expect((await fetch(`${base}${path}?${extra}`, { method: 'POST', body })).status).toBe(401);
    const repeated = `${query}&auth_key=${APP.key}`;
    expect((await fetch(`${base}${path}?${repeated}`, { method: 'POST', body })).status).toBe(400);
    expect((await fetch(`${base}${path}`, { method: 'POST', body })).status).toBe(401);
    const noVersion = query.replace('auth_version=1.0', 'auth_version=2.0');
    expect((await fetch(`${base}${path}?${noVersion}`, { method: 'POST', body })).status).toBe(401);
  });
});

describe('bad input: 4xx with a JSON error, never 5xx', () => {
  const events = `/apps/${APP.id}/events`;
  const cases: [string, string, number][] = [
    ['not JSON', '{nope', 400],
    ['a JSON array', '[]', 400],
    ['no name', JSON.stringify({ channels: ['a'], data: '1' }), 400],
    ['data that is not a string', JSON.stringify({ name: 'e', channels: ['a'], data: { a: 1 } }), 400],
    ['no channels', JSON.stringify({ name: 'e', data: '1' }), 400],
    ['an empty channel list', JSON.stringify({ name: 'e', channels: [], data: '1' }), 400],
    ['an invalid channel name', JSON.stringify({ name: 'e', channels: ['a b'], data: '1' }), 400],
    ['a channel that is not a string', JSON.stringify({ name: 'e', channels: [7], data: '1' }), 400],
    [
      '101 channels',
      JSON.stringify({ name: 'e', channels: Array.from({ length: 101 }, (_, i) => `c${i}`), data: '1' }),
      400,
    ],
    ['data over 10 KB', JSON.stringify({ name: 'e', channels: ['a'], data: 'x'.repeat(10 * 1024 + 1) }), 413],
    ['a bad socket_id', JSON.stringify({ name: 'e', channels: ['a'], data: '1', socket_id: 'abc' }), 400],
    [
      'user_count on a public channel',
      JSON.stringify({ name: 'e', channels: ['a'], data: '1', info: 'user_count' }),
      400,
    ],
    ['an unknown info attribute', JSON.stringify({ name: 'e', channels: ['a'], data: '1', info: 'colour' }), 400],
    ['an over-long event name', JSON.stringify({ name: 'e'.repeat(201), channels: ['a'], data: '1' }), 400],
  ];
  it.each(cases)('POST /events with %s → %i', async (_what, body, status) => {
    const res = await json(await signed('POST', events, body));
    expect(res.status).toBe(status);
    expect(res.body.error).toBeTypeOf('string');
  });

  it('POST /events without a body → 400; a body over 256 KB → 413', async () => {
    expect((await signed('POST', events)).status).toBe(400);
    expect((await signed('POST', events, 'x'.repeat(300 * 1024))).status).toBe(413);
  });

  const batch = `/apps/${APP.id}/batch_events`;
  it.each([
    [
      '11 events',
      JSON.stringify({ batch: Array.from({ length: 11 }, () => ({ name: 'e', channel: 'a', data: '1' })) }),
      400,
    ],
    ['no batch', JSON.stringify({}), 400],
    ['an event without a channel', JSON.stringify({ batch: [{ name: 'e', data: '1' }] }), 400],
    ['one event over 10 KB', JSON.stringify({ batch: [{ name: 'e', channel: 'a', data: 'x'.repeat(10241) }] }), 413],
    ['null', 'null', 400],
  ])('POST /batch_events with %s → %i', async (_what, body, status) => {
    expect((await json(await signed('POST', batch, body))).status).toBe(status);
  });

  it('refuses user_count without the presence- prefix, users of a non-presence channel, unknown paths and methods', async () => {
    expect((await signed('GET', `/apps/${APP.id}/channels`, undefined, { info: 'user_count' })).status).toBe(400);
    expect((await signed('GET', `/apps/${APP.id}/channels/news/users`)).status).toBe(400);
    expect((await signed('GET', `/apps/${APP.id}/channels/news`, undefined, { info: 'user_count' })).status).toBe(400);
    expect((await signed('GET', `/apps/${APP.id}/channels/bad%20name`)).status).toBe(400);
    expect((await signed('GET', `/apps/${APP.id}/nothing`)).status).toBe(404);
    expect((await signed('GET', `/apps/${APP.id}/events`)).status).toBe(405);
    expect((await signed('POST', `/apps/${APP.id}/channels`, '{}')).status).toBe(405);
  });

  it('never answers 5xx to random bodies, paths and queries (bounded fuzz)', async () => {
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"',
      ':',
      ',',
      'name',
      'data',
      'channels',
      'batch',
      'null',
      '1',
      '\\u0000',
      'ع',
      'socket_id',
      'info',
    ];
    const paths = [
      '/events',
      '/batch_events',
      '/channels',
      '/channels/x',
      '/channels/presence-x/users',
      '/channels/%E0%A4%A',
      '/x/y/z',
    ];
    for (let i = 0; i < 150; i++) {
      const body = Array.from(
        { length: Math.floor(rand() * 30) },
        () => pieces[Math.floor(rand() * pieces.length)],
      ).join('');
      const path = `/apps/${APP.id}${paths[Math.floor(rand() * paths.length)]}`;
      const method = rand() < 0.5 ? 'POST' : 'GET';
      const res = await signed(method, path, method === 'POST' && body ? body : undefined);
      expect(res.status, `${method} ${path} ${body}`).toBeLessThan(500);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      await res.arrayBuffer();
    }
    // Unsigned noise too.
    for (const q of ['', '?auth_key=', '?auth_timestamp=abc&auth_key=x&auth_signature=y&auth_version=1.0', '?%zz=1']) {
      const res = await fetch(`${base}/apps/${APP.id}/events${q}`, { method: 'POST', body: 'x' });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('keeps serving sockets after all that', async () => {
    const ws = server.raw();
    const f = frames(ws);
    await f.next('pusher:connection_established');
    ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'after' } }));
    await f.next('pusher_internal:subscription_succeeded');
    await server.sdk.trigger('after', 'ok', 'yes');
    expect((await f.next('ok')).data).toBe('yes');
  });
});
