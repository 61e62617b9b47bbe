// POST /api/broadcasting/auth (server/http/broadcasting.ts, docs/realtime.md "Channel authorisation")
// on the built server: a member's own private channel and their chats' presence channels signed as
// the Pusher protocol wants them and verifiable with the app secret; 419 without the anti-forgery token, 401 without a session, 403 for
// any other channel, 4xx (never 5xx) for bodies that are not what the endpoint reads.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { member, placeToyota, publish } from '../support/ads.ts';
import { type Browser, browser } from '../support/http-browser.ts';

const base = inject('baseUrl');
const secret = () => readFileSync(path.join(inject('dataDir'), 'realtime-secret'), 'utf8').trim();
const TOKEN = 'test-xsrf-token-123';

/** A POST to the endpoint with the browser's cookies, the anti-forgery cookie and header (unless `xsrf: false`). */
async function auth(
  b: Browser,
  body: string | Record<string, unknown> | FormData,
  opts: { xsrf?: boolean; type?: string; locale?: string } = {},
) {
  const headers: Record<string, string> = {
    cookie: [b.cookieHeader(), opts.xsrf === false ? '' : `XSRF-TOKEN=${TOKEN}`].filter(Boolean).join('; '),
    'x-forwarded-for': b.ip,
    'x-locale': opts.locale ?? 'en',
  };
  if (opts.xsrf !== false) headers['x-xsrf-token'] = TOKEN;
  let payload: string | FormData;
  if (body instanceof FormData) payload = body;
  else if (typeof body === 'string') {
    payload = body;
    headers['content-type'] = opts.type ?? 'application/x-www-form-urlencoded';
  } else {
    payload = JSON.stringify(body);
    headers['content-type'] = opts.type ?? 'application/json';
  }
  return fetch(`${base}/api/broadcasting/auth`, { method: 'POST', headers, body: payload });
}

let alice: Browser;
let aliceId: string;
let bobId: string;
beforeAll(async () => {
  alice = await member('channel-alice', { phone: false });
  const bob = await member('channel-bob', { phone: false });
  aliceId = String((await alice.whoami()).user?.id);
  bobId = String((await bob.whoami()).user?.id);
});

describe('POST /api/broadcasting/auth', () => {
  it('signs the member’s own channel with the app secret, from JSON or a form', async () => {
    const channel = `private-users.${aliceId}`;
    const expected = `souq-key:${createHmac('sha256', secret()).update(`1234.5678:${channel}`).digest('hex')}`;
    const json = await auth(alice, { socket_id: '1234.5678', channel_name: channel });
    expect(json.status).toBe(200);
    expect(json.headers.get('cache-control')).toBe('no-store');
    expect(await json.json()).toEqual({ auth: expected });
    const form = await auth(alice, new URLSearchParams({ socket_id: '1234.5678', channel_name: channel }).toString());
    expect(form.status).toBe(200);
    expect(await form.json()).toEqual({ auth: expected });
    // Another socket, another signature.
    const other = (await (await auth(alice, { socket_id: '99.1', channel_name: channel })).json()) as { auth: string };
    expect(other.auth).not.toBe(expected);
  });

  it('answers 419 without the anti-forgery token, before anything else', async () => {
    const res = await auth(alice, { socket_id: '1.2', channel_name: `private-users.${aliceId}` }, { xsrf: false });
    expect(res.status).toBe(419);
    expect((await res.json()).message).toBe('This page has expired. Refresh it and try again.');
    const visitor = await auth(browser(), { socket_id: '1.2', channel_name: 'private-users.x' }, { xsrf: false });
    expect(visitor.status).toBe(419);
  });

  it('answers 401 to a visitor, in the language asked for', async () => {
    const res = await auth(browser(), { socket_id: '1.2', channel_name: `private-users.${aliceId}` });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe('Log in to continue.');
    const ar = await auth(browser(), { socket_id: '1.2', channel_name: 'private-users.x' }, { locale: 'ar' });
    expect(ar.status).toBe(401);
    expect((await ar.json()).message).toBe('سجّل الدخول للمتابعة.');
  });

  it('answers 403 for every channel that is not the member’s own', async () => {
    for (const channel of [
      `private-users.${bobId}`,
      `private-users.${aliceId}x`,
      `private-users.${aliceId}.x`,
      `private-encrypted-users.${aliceId}`,
      // A chat that is not hers (there is none with this id).
      'presence-chats.999999999',
      'presence-chats.abc',
      `presence-users.${aliceId}`,
      // Public channels need no signature: nothing to sign.
      `users.${aliceId}`,
      'private-users.',
    ]) {
      const res = await auth(alice, { socket_id: '1.2', channel_name: channel });
      expect(res.status, channel).toBe(403);
      expect((await res.json()).message).toBe('You may not listen to this channel.');
    }
  });

  it('signs a chat’s presence channel for its two participants only, with who they are', async () => {
    // A chat between a buyer and the seller of a live ad (docs/product/chats.md).
    const seller = await member('presence-seller');
    const ad = await placeToyota(seller, 'Toyota Corolla 2015 presence');
    publish(ad.id);
    const buyer = await member('presence-buyer');
    const started = await buyer.post(`/en/chats/new/${ad.id}`, { intent: 'send', body: 'Hello' });
    const chatId = Number(started.headers.get('location')?.split('/').pop());
    const channel = `presence-chats.${chatId}`;
    for (const [who, b] of [
      ['buyer', buyer],
      ['seller', seller],
    ] as const) {
      const me = (await b.whoami()).user as unknown as { id: string; name: string; image: string | null };
      const res = await auth(b, { socket_id: '1234.5678', channel_name: channel });
      expect(res.status, who).toBe(200);
      const body = (await res.json()) as { auth: string; channel_data: string };
      expect(JSON.parse(body.channel_data)).toEqual({
        user_id: me.id,
        user_info: { id: me.id, name: me.name, image: me.image },
      });
      const signed = createHmac('sha256', secret()).update(`1234.5678:${channel}:${body.channel_data}`).digest('hex');
      expect(body.auth).toBe(`souq-key:${signed}`);
    }
    // Anyone else: 403; a visitor: 401.
    expect((await auth(alice, { socket_id: '1.2', channel_name: channel })).status).toBe(403);
    expect((await auth(browser(), { socket_id: '1.2', channel_name: channel })).status).toBe(401);
  });

  it('refuses malformed input with 4xx and field errors, never 5xx', async () => {
    const own = `private-users.${aliceId}`;
    const cases: [string | Record<string, unknown> | FormData, number, Record<string, string[]>?, string?][] = [
      [
        {},
        422,
        { socket_id: ['The connection id field is required'], channel_name: ['The channel field is required'] },
      ],
      ['', 422],
      [{ socket_id: 'abc', channel_name: own }, 422, { socket_id: ['The selected connection id is invalid'] }],
      [{ socket_id: '1.2.3', channel_name: own }, 422],
      [{ socket_id: '12345', channel_name: own }, 422],
      [{ socket_id: `${'9'.repeat(40)}.1`, channel_name: own }, 422],
      [{ socket_id: 12.5, channel_name: own }, 422],
      [{ socket_id: ['1.2'], channel_name: own }, 422],
      [
        { socket_id: '1.2', channel_name: 'private-users.a b' },
        422,
        { channel_name: ['The selected channel is invalid'] },
      ],
      [{ socket_id: '1.2', channel_name: '#server-to-user-1' }, 422],
      [{ socket_id: '1.2', channel_name: `private-${'a'.repeat(250)}` }, 422],
      [{ socket_id: '1.2', channel_name: { a: 1 } }, 422],
      [{ socket_id: '1.2', channel_name: null }, 422],
      [[1, 2] as unknown as Record<string, unknown>, 422],
      ['{"socket_id":', 400, undefined, 'application/json'],
      ['socket_id=1.2', 415, undefined, 'text/plain'],
      ['<xml/>', 415, undefined, 'application/xml'],
    ];
    for (const [body, status, errors, type] of cases) {
      const res = await auth(alice, body, { type });
      expect(res.status, JSON.stringify(body)).toBe(status);
      const answer = await res.json();
      expect(typeof answer.message).toBe('string');
      if (errors) expect(answer.errors).toEqual(errors);
    }
    const multipart = new FormData();
    multipart.set('socket_id', '1.2');
    multipart.set('channel_name', own);
    expect((await auth(alice, multipart)).status).toBe(415);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await (await fetch(`${base}/api/openapi.json`)).json();
    const op = doc.paths['/broadcasting/auth'].post;
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '403', '415', '419', '422']);
  });
});
