// The server-side publisher (server/realtime/publish.ts): in-process to the embedded server, or
// over HTTP to an external Pusher-protocol server (here another embedded server stands in for
// Pusher, Soketi or Reverb), both delivering to pusher-js.
import { afterEach, describe, expect, it } from 'vitest';
import type { RealtimeConfig } from '../../server/config.ts';
import { createPublisher, embeddedPublisher, pusherPublisher, remotePublisher } from '../../server/realtime/publish.ts';
import { APP, sleep, startTestServer, subscribed, type TestServer, waitFor } from './support/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const external = (port: number): RealtimeConfig => ({
  driver: 'pusher',
  appId: APP.id,
  key: APP.key,
  secret: APP.secret,
  host: '127.0.0.1',
  port,
  scheme: 'http',
  maxConnections: 10,
  maxConnectionsPerIp: 10,
  client: { host: '127.0.0.1', port, scheme: 'http' },
  broadcaster: 'reverb',
});

describe('publisher', () => {
  it.each(['embedded', 'pusher'] as const)(
    '%s: triggers on several channels, skipping the socket it is given',
    async (driver) => {
      server = await startTestServer();
      const publisher =
        driver === 'embedded'
          ? createPublisher({ ...external(0), driver: 'embedded' }, server.rt)
          : createPublisher(external(server.port), undefined);
      expect(publisher.driver).toBe(driver);
      const a = server.client();
      const b = server.client();
      await subscribed(a, 'private-users.1');
      await subscribed(b, 'private-users.2');
      const gotA = waitFor((done) => a.channel('private-users.1').bind('notification', done));
      const gotB = waitFor((done) => b.channel('private-users.2').bind('notification', done));
      await publisher.trigger(['private-users.1', 'private-users.2'], 'notification', { text: 'رسالة جديدة' });
      expect(await gotA).toEqual({ text: 'رسالة جديدة' });
      expect(await gotB).toEqual({ text: 'رسالة جديدة' });

      let seen = 0;
      b.channel('private-users.2').bind('skip', () => seen++);
      await publisher.trigger('private-users.2', 'skip', {}, { socketId: b.connection.socket_id });
      await sleep(150);
      expect(seen).toBe(0);
    },
  );

  it('sends more than 100 channels in groups of 100', async () => {
    server = await startTestServer();
    const a = server.client();
    await subscribed(a, 'c-149');
    const got = waitFor((done) => a.channel('c-149').bind('wide', done));
    const channels = Array.from({ length: 150 }, (_, i) => `c-${i}`);
    await embeddedPublisher(server.rt).trigger(channels, 'wide', 'x');
    await pusherPublisher(external(server.port)).trigger(channels, 'wide', 'y');
    expect(await got).toBe('x');
  });

  it('rejects what the protocol refuses: an invalid channel, data over 10 KB, an external server saying no', async () => {
    server = await startTestServer();
    const local = embeddedPublisher(server.rt);
    await expect(local.trigger('bad name', 'e', {})).rejects.toThrow(/Invalid channel name/);
    await expect(local.trigger('ok', 'e', 'x'.repeat(11_000))).rejects.toThrow(/larger than/);
    const remote = pusherPublisher({ ...external(server.port), secret: 'wrong-secret-0000' });
    await expect(remote.trigger('ok', 'e', {})).rejects.toMatchObject({ status: 401 });
  });

  it('needs the running server for the embedded driver', () => {
    expect(() => createPublisher({ ...external(0), driver: 'embedded' }, undefined)).toThrow(/not running/);
  });

  it('a process without the server (npm run worker) publishes through the app at APP_URL, or the external server', async () => {
    server = await startTestServer();
    const a = server.client();
    await subscribed(a, 'private-users.9');
    const got = waitFor((done) => a.channel('private-users.9').bind('notification.created', done));
    const viaApp = remotePublisher({ ...external(0), driver: 'embedded' }, `http://127.0.0.1:${server.port}`);
    expect(viaApp?.driver).toBe('embedded');
    await viaApp?.trigger('private-users.9', 'notification.created', { unread: 1 });
    expect(await got).toEqual({ unread: 1 });
    expect(remotePublisher(external(server.port), undefined)?.driver).toBe('pusher');
    // Embedded, without APP_URL: nobody to publish to.
    expect(remotePublisher({ ...external(0), driver: 'embedded' }, undefined)).toBeUndefined();
  });
});
