import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { browserRealtimeConfig } from '../../server/realtime/browser-config.ts';

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'souq-config-'));
  dirs.push(d);
  return path.join(d, 'data');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('configuration', () => {
  it('defaults to SQLite under DATA_DIR, creating the folder', () => {
    const DATA_DIR = dataDir();
    const c = loadConfig({ DATA_DIR });
    expect(c.database).toEqual({ kind: 'sqlite', file: path.join(DATA_DIR, 'souq.db') });
    expect(c.port).toBe(3000);
    expect(c.moderation).toBe('pre');
  });
  it('chooses PostgreSQL from DATABASE_URL', () => {
    const c = loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    expect(c.database.kind).toBe('postgres');
  });
  it('fails with a message naming each bad variable', () => {
    const load = () =>
      loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty', MODERATION: 'maybe', DATABASE_URL: 'mysql://x' });
    expect(load).toThrow(ConfigError);
    try {
      load();
    } catch (e) {
      const msg = (e as Error).message;
      expect(msg).toContain('PORT');
      expect(msg).toContain('MODERATION');
      expect(msg).toContain('DATABASE_URL');
    }
  });
  it('reads the staff addresses for contact messages', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), CONTACT_EMAIL: 'a@souq.ly, b@souq.ly' }).contactEmails).toEqual([
      'a@souq.ly',
      'b@souq.ly',
    ]);
    expect(() => loadConfig({ DATA_DIR: dataDir(), CONTACT_EMAIL: 'not-an-address' })).toThrow(/CONTACT_EMAIL/);
  });

  it('generates AUTH_SECRET once into DATA_DIR and reuses it', () => {
    const DATA_DIR = dataDir();
    const first = loadConfig({ DATA_DIR }).authSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(DATA_DIR, 'auth-secret'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR }).authSecret).toBe(first);
    expect(loadConfig({ DATA_DIR, AUTH_SECRET: 'x'.repeat(40) }).authSecret).toBe('x'.repeat(40));
    expect(() => loadConfig({ DATA_DIR, AUTH_SECRET: 'short' })).toThrow(/AUTH_SECRET/);
  });

  it('generates REALTIME_APP_SECRET once into DATA_DIR; the embedded driver by default', () => {
    const DATA_DIR = dataDir();
    const first = loadConfig({ DATA_DIR }).realtime;
    expect(first).toMatchObject({ driver: 'embedded', appId: 'souq', key: 'souq-key' });
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(DATA_DIR, 'realtime-secret'), 'utf8').trim()).toBe(first.secret);
    expect(first.secret).not.toBe(loadConfig({ DATA_DIR }).authSecret);
    expect(loadConfig({ DATA_DIR }).realtime.secret).toBe(first.secret);
    expect(loadConfig({ DATA_DIR, REALTIME_APP_SECRET: 's'.repeat(20) }).realtime.secret).toBe('s'.repeat(20));
    expect(() => loadConfig({ DATA_DIR, REALTIME_APP_SECRET: 'short' })).toThrow(/REALTIME_APP_SECRET/);
    expect(() => loadConfig({ DATA_DIR, REALTIME_APP_KEY: 'a/b' })).toThrow(/REALTIME_APP_KEY/);
  });

  it('needs REALTIME_HOST and REALTIME_APP_SECRET for an external server (REALTIME_DRIVER=pusher)', () => {
    const DATA_DIR = dataDir();
    expect(() => loadConfig({ DATA_DIR, REALTIME_DRIVER: 'pusher' })).toThrow(/REALTIME_HOST/);
    const c = loadConfig({
      DATA_DIR,
      REALTIME_DRIVER: 'pusher',
      REALTIME_HOST: 'soketi.internal',
      REALTIME_PORT: '6001',
      REALTIME_SCHEME: 'http',
      REALTIME_APP_SECRET: 'external-secret-123',
    }).realtime;
    expect(c).toMatchObject({ driver: 'pusher', host: 'soketi.internal', port: 6001, scheme: 'http' });
    expect(() =>
      loadConfig({
        DATA_DIR,
        REALTIME_DRIVER: 'pusher',
        REALTIME_HOST: 'https://x',
        REALTIME_APP_SECRET: 'external-secret-123',
      }),
    ).toThrow(/REALTIME_HOST/);
  });

  it('tells browsers where to connect: the page itself (embedded), else REALTIME_CLIENT_* or the API’s address', () => {
    const DATA_DIR = dataDir();
    const external = { DATA_DIR, REALTIME_DRIVER: 'pusher', REALTIME_APP_SECRET: 'external-secret-123' };
    expect(browserRealtimeConfig(loadConfig({ DATA_DIR }).realtime)).toEqual({
      driver: 'embedded',
      broadcaster: 'reverb',
      key: 'souq-key',
      host: null,
      port: null,
      scheme: null,
    });
    const soketi = loadConfig({
      ...external,
      REALTIME_HOST: 'soketi.internal',
      REALTIME_PORT: '6001',
      REALTIME_SCHEME: 'http',
    });
    expect(browserRealtimeConfig(soketi.realtime)).toEqual({
      driver: 'pusher',
      broadcaster: 'reverb',
      key: 'souq-key',
      host: 'soketi.internal',
      port: 6001,
      scheme: 'http',
    });
    // Pusher: the API at api-<cluster>, browsers at ws-<cluster>, both over TLS.
    const pusher = loadConfig({
      ...external,
      REALTIME_HOST: 'api-eu.pusher.com',
      REALTIME_CLIENT_HOST: 'ws-eu.pusher.com',
      REALTIME_BROADCASTER: 'pusher',
    });
    expect(browserRealtimeConfig(pusher.realtime)).toEqual({
      driver: 'pusher',
      broadcaster: 'pusher',
      key: 'souq-key',
      host: 'ws-eu.pusher.com',
      port: null,
      scheme: 'https',
    });
    // The secret never reaches the browser.
    expect(JSON.stringify(browserRealtimeConfig(pusher.realtime))).not.toContain('external-secret-123');
  });

  it('refuses broadcasters other than reverb and pusher, and pusher without https', () => {
    const DATA_DIR = dataDir();
    expect(() => loadConfig({ DATA_DIR, REALTIME_BROADCASTER: 'socket.io' })).toThrow(/REALTIME_BROADCASTER/);
    expect(() => loadConfig({ DATA_DIR, REALTIME_BROADCASTER: 'pusher' })).toThrow(
      /REALTIME_BROADCASTER: pusher needs https/,
    );
    expect(() => loadConfig({ DATA_DIR, REALTIME_BROADCASTER: 'pusher', APP_URL: 'http://souq.example' })).toThrow(
      /REALTIME_BROADCASTER/,
    );
    expect(
      loadConfig({ DATA_DIR, REALTIME_BROADCASTER: 'pusher', APP_URL: 'https://souq.example' }).realtime.broadcaster,
    ).toBe('pusher');
    const external = {
      DATA_DIR,
      REALTIME_DRIVER: 'pusher',
      REALTIME_APP_SECRET: 'external-secret-123',
      REALTIME_HOST: 'soketi.internal',
      REALTIME_BROADCASTER: 'pusher',
    };
    expect(() => loadConfig({ ...external, REALTIME_SCHEME: 'http' })).toThrow(/REALTIME_BROADCASTER/);
    expect(() => loadConfig({ ...external, REALTIME_CLIENT_SCHEME: 'http' })).toThrow(/REALTIME_BROADCASTER/);
    expect(
      loadConfig({ ...external, REALTIME_SCHEME: 'http', REALTIME_CLIENT_SCHEME: 'https' }).realtime.client,
    ).toEqual({
      host: 'soketi.internal',
      port: 0,
      scheme: 'https',
    });
    expect(() => loadConfig({ DATA_DIR, REALTIME_CLIENT_HOST: 'wss://x' })).toThrow(/REALTIME_CLIENT_HOST/);
  });
});
