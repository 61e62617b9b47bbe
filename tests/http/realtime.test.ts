// The embedded realtime server as the built app serves it (server/http.ts, server/main.ts): the
// WebSocket at /app/{key} and the signed API at /apps/{id} on the app's own port, with the secret
// generated into DATA_DIR; SIGTERM tells every socket 4200; REALTIME_DRIVER=pusher mounts neither.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Pusher from 'pusher';
import PusherClient from 'pusher-js';
import { describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { startBuiltServer } from '../../scripts/lib/built-server.ts';

const baseUrl = inject('baseUrl');
const port = Number(new URL(baseUrl).port);

function sdk(secret: string, p = port) {
  return new Pusher({ appId: 'souq', key: 'souq-key', secret, host: '127.0.0.1', port: String(p), useTLS: false });
}

function nextFrame(ws: WebSocket, event: string): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event}`)), 5000);
    ws.on('message', (data) => {
      const f = JSON.parse(String(data));
      if (f.event !== event) return;
      clearTimeout(timer);
      resolve(f);
    });
  });
}

const closeCode = (ws: WebSocket) =>
  new Promise<number>((resolve) => {
    ws.on('close', (code) => resolve(code));
    ws.on('error', () => {});
  });

describe('embedded realtime server in the app', () => {
  it('pusher-js connects on the app port and gets what the SDK publishes, signed with the generated secret', async () => {
    const secret = readFileSync(path.join(inject('dataDir'), 'realtime-secret'), 'utf8').trim();
    const client = new PusherClient('souq-key', {
      cluster: 'local',
      wsHost: '127.0.0.1',
      wsPort: port,
      forceTLS: false,
      enabledTransports: ['ws'],
    });
    try {
      const channel = client.subscribe('ads');
      await new Promise((resolve) => channel.bind('pusher:subscription_succeeded', resolve));
      const got = new Promise((resolve) => channel.bind('published', resolve));
      const res = await sdk(secret).trigger('ads', 'published', { id: 12 });
      expect(res.status).toBe(200);
      expect(await got).toEqual({ id: 12 });
      await expect(sdk('not-the-secret-1234').trigger('ads', 'published', {})).rejects.toMatchObject({ status: 401 });
      const unsigned = await fetch(`${baseUrl}/apps/souq/events`, { method: 'POST', body: '{}' });
      expect(unsigned.status).toBe(401);
      expect(unsigned.headers.get('content-type')).toMatch(/application\/json/);
    } finally {
      client.disconnect();
    }
  });

  it('refuses WebSocket upgrades on other paths', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/en/search`);
    const failed = await new Promise<string>((resolve) => {
      ws.on('open', () => resolve('open'));
      ws.on('error', (err) => resolve(err.message));
    });
    expect(failed).not.toBe('open');
  });

  it('tells every socket 4200 (reconnect) on SIGTERM and exits cleanly', async () => {
    const server = await startBuiltServer({ SEED_DEMO: 'false' });
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/app/souq-key?protocol=7`);
    await nextFrame(ws, 'pusher:connection_established');
    const error = nextFrame(ws, 'pusher:error');
    const code = closeCode(ws);
    const exit = server.stop();
    expect((await error).data.code).toBe(4200);
    expect(await code).toBe(4200);
    expect(await exit).toBe(0);
  });

  it('with REALTIME_DRIVER=pusher serves neither the WebSocket nor the API', async () => {
    const server = await startBuiltServer({
      SEED_DEMO: 'false',
      REALTIME_DRIVER: 'pusher',
      REALTIME_HOST: '127.0.0.1',
      REALTIME_PORT: '9',
      REALTIME_SCHEME: 'http',
      REALTIME_APP_SECRET: 'external-secret-123',
    });
    try {
      const ws = new WebSocket(`${server.url.replace('http', 'ws')}/app/souq-key?protocol=7`);
      const opened = await new Promise<boolean>((resolve) => {
        ws.on('open', () => resolve(true));
        ws.on('error', () => resolve(false));
      });
      expect(opened).toBe(false);
      const res = await fetch(`${server.url}/apps/souq/channels`);
      expect(res.status).toBe(404);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
