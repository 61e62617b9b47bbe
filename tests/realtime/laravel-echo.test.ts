// laravel-echo with the `reverb` broadcaster (on pusher-js) against the embedded server: what the
// browser client will use. Private and presence channels are signed as the app's auth endpoint will.
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import { afterEach, describe, expect, it } from 'vitest';
import { APP, startTestServer, type TestServer, waitFor } from './support/server.ts';

let server: TestServer | undefined;
const echos: Echo<'reverb'>[] = [];
afterEach(async () => {
  for (const e of echos.splice(0)) e.disconnect();
  await server?.close();
  server = undefined;
});

function echo(s: TestServer, user: { user_id: string; user_info?: Record<string, unknown> }) {
  const e = new Echo<'reverb'>({
    broadcaster: 'reverb',
    key: APP.key,
    wsHost: '127.0.0.1',
    wsPort: s.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    Pusher,
    channelAuthorization: {
      endpoint: '',
      transport: 'ajax',
      customHandler: (
        params: { socketId: string; channelName: string },
        callback: (e: Error | null, a: unknown) => void,
      ) =>
        callback(
          null,
          s.sdk.authorizeChannel(
            params.socketId,
            params.channelName,
            params.channelName.startsWith('presence-') ? user : undefined,
          ),
        ),
    },
  } as never);
  echos.push(e);
  return e;
}

describe('laravel-echo (reverb broadcaster)', () => {
  it('listens on public and private channels, joins presence, whispers', async () => {
    server = await startTestServer();
    const s = server;
    const amal = echo(s, { user_id: '1', user_info: { name: 'أمل' } });
    const bilal = echo(s, { user_id: '2', user_info: { name: 'Bilal' } });

    const published = waitFor((done) => amal.channel('ads').listen('.published', done), 3000, 'published');
    const unread = waitFor((done) => amal.private('users.1').listen('.unread', done), 3000, 'unread');
    await Promise.all([
      waitFor((done) => amal.private('users.1').subscribed(() => done(true)), 3000, 'private subscription'),
      waitFor((done) => amal.channel('ads').subscribed(() => done(true)), 3000, 'public subscription'),
    ]);
    await s.sdk.trigger('ads', 'published', { id: 5 });
    await s.sdk.trigger('private-users.1', 'unread', { count: 2 });
    expect(await published).toEqual({ id: 5 });
    expect(await unread).toEqual({ count: 2 });

    const here = waitFor<{ name: string }[]>((done) => amal.join('chats.7').here(done));
    expect(await here).toEqual([{ name: 'أمل' }]);
    const joining = waitFor((done) => amal.join('chats.7').joining(done));
    const whisper = waitFor((done) => amal.join('chats.7').listenForWhisper('typing', done));
    const bilalHere = waitFor<unknown[]>((done) => bilal.join('chats.7').here(done));
    expect((await bilalHere).length).toBe(2);
    expect(await joining).toEqual({ name: 'Bilal' });
    bilal.join('chats.7').whisper('typing', { on: true });
    expect(await whisper).toEqual({ on: true });
  });
});
