// The browser's realtime client configuration (app/lib/realtime/config.ts, docs/realtime.md "The
// browser client"): laravel-echo's settings from what the server sends, refused at configuration
// time for a broadcaster other than reverb or pusher, pusher without https, cookie authentication
// without its anti-forgery settings, and channel names starting with `#`.
import { describe, expect, it } from 'vitest';
import {
  type BrowserRealtimeConfig,
  type CookieAuthentication,
  channelName,
  echoSettings,
  RealtimeConfigError,
} from '~/lib/realtime/config.ts';

const embedded: BrowserRealtimeConfig = {
  driver: 'embedded',
  broadcaster: 'reverb',
  key: 'souq-key',
  host: null,
  port: null,
  scheme: null,
};
const cookie: CookieAuthentication = {
  mode: 'cookie',
  endpoint: '/api/broadcasting/auth',
  csrfCookie: 'XSRF-TOKEN',
  csrfEndpoint: '/api/csrf-cookie',
  csrfHeader: 'X-XSRF-TOKEN',
};
const page = (url: string) => {
  const u = new URL(url);
  return { protocol: u.protocol, hostname: u.hostname, port: u.port };
};

describe('echoSettings', () => {
  it('connects the embedded server at the page’s own address, with the product’s timeouts', () => {
    expect(echoSettings(embedded, cookie, page('http://127.0.0.1:3500/en/notifications'))).toEqual({
      broadcaster: 'reverb',
      key: 'souq-key',
      wsHost: '127.0.0.1',
      wsPort: 3500,
      wssPort: 3500,
      forceTLS: false,
      enabledTransports: ['ws', 'wss'],
      activityTimeout: 120_000,
      pongTimeout: 30_000,
      unavailableTimeout: 10_000,
      cluster: '',
      withoutInterceptors: true,
    });
    expect(echoSettings(embedded, cookie, page('https://souq.example/'))).toMatchObject({
      wsHost: 'souq.example',
      wsPort: 443,
      wssPort: 443,
      forceTLS: true,
    });
  });

  it('connects an external server where the server says (REALTIME_DRIVER=pusher)', () => {
    const soketi: BrowserRealtimeConfig = {
      ...embedded,
      driver: 'pusher',
      host: 'rt.example',
      port: 6001,
      scheme: 'http',
    };
    expect(echoSettings(soketi, cookie, page('https://souq.example/'))).toMatchObject({
      wsHost: 'rt.example',
      wsPort: 6001,
      forceTLS: false,
    });
    const pusher: BrowserRealtimeConfig = {
      ...soketi,
      broadcaster: 'pusher',
      host: 'ws-eu.pusher.com',
      port: null,
      scheme: 'https',
    };
    expect(echoSettings(pusher, cookie, page('https://souq.example/'))).toMatchObject({
      broadcaster: 'pusher',
      wsHost: 'ws-eu.pusher.com',
      wssPort: 443,
      forceTLS: true,
    });
  });

  it('refuses any broadcaster but reverb and pusher', () => {
    for (const broadcaster of ['socket.io', 'ably', 'null', '', 'Reverb']) {
      expect(() =>
        echoSettings({ ...embedded, broadcaster: broadcaster as 'reverb' }, cookie, page('https://souq.example/')),
      ).toThrow(RealtimeConfigError);
    }
  });

  it('refuses the pusher broadcaster without https', () => {
    expect(() => echoSettings({ ...embedded, broadcaster: 'pusher' }, cookie, page('http://127.0.0.1:3500/'))).toThrow(
      /secure \(https\)/,
    );
    const external: BrowserRealtimeConfig = {
      ...embedded,
      driver: 'pusher',
      broadcaster: 'pusher',
      host: 'rt.example',
      port: 80,
      scheme: 'http',
    };
    expect(() => echoSettings(external, cookie, page('https://souq.example/'))).toThrow(/secure \(https\)/);
    expect(echoSettings({ ...embedded, broadcaster: 'pusher' }, cookie, page('https://souq.example/')).forceTLS).toBe(
      true,
    );
  });

  it('needs the key, the host of an external server, and cookie mode with its three anti-forgery settings', () => {
    const https = page('https://souq.example/');
    expect(() => echoSettings({ ...embedded, key: '' }, cookie, https)).toThrow(/key/);
    expect(() => echoSettings({ ...embedded, driver: 'pusher', host: '' }, cookie, https)).toThrow(/host/);
    for (const setting of ['endpoint', 'csrfCookie', 'csrfEndpoint', 'csrfHeader'] as const) {
      expect(() => echoSettings(embedded, { ...cookie, [setting]: '' }, https)).toThrow(new RegExp(setting));
    }
    expect(() => echoSettings(embedded, { ...cookie, mode: 'token' as 'cookie' }, https)).toThrow(/token/);
  });
});

describe('channelName', () => {
  it('refuses names the client makes that start with #', () => {
    expect(channelName('users.7')).toBe('users.7');
    expect(() => channelName('#server-to-user-7')).toThrow(RealtimeConfigError);
    expect(() => channelName('')).toThrow(RealtimeConfigError);
  });
});
