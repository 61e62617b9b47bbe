// Stopping a process: every socket is told 4200 and closed, so clients reconnect (to another
// process); presence members leave; connections arriving meanwhile are told to come back later.
import { afterEach, describe, expect, it } from 'vitest';
import { closed, frames, startTestServer, subscribed, type TestServer, waitFor } from './support/server.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe('drain', () => {
  it('closes every socket with 4200; pusher-js reconnects at once; members are announced removed', async () => {
    const a = await startTestServer();
    servers.push(a);
    const raw = a.raw();
    const f = frames(raw);
    await f.next('pusher:connection_established');
    const client = a.client({ user: { user_id: '3' } });
    await subscribed(client, 'presence-room');
    const stayer = a.client({ user: { user_id: '4' } });
    await subscribed(stayer, 'presence-room');
    expect(await a.rt.adapter.userCount('presence-room')).toBe(2);

    const states: string[] = [];
    client.connection.bind('state_change', (s: { current: string }) => states.push(s.current));
    const drained = a.rt.drain();
    const error = await f.next('pusher:error');
    expect(error.data.code).toBe(4200);
    expect((await closed(raw)).code).toBe(4200);
    await drained;
    expect(a.rt.connectionCount).toBe(0);
    // 4200 is "reconnect now": pusher-js goes straight back to connecting (no back-off, no failure).
    await waitFor((done) => {
      const poll = () => (states.includes('connecting') ? done(true) : setTimeout(poll, 10));
      poll();
    });
    expect(states[0]).toBe('connecting');
    expect(states).not.toContain('failed');
    expect(await a.rt.adapter.userCount('presence-room')).toBe(0);
  });

  it('tells a connection that arrives while draining to come back after a back-off (4100)', async () => {
    const a = await startTestServer({ limits: { drainTimeoutMs: 1000 } });
    servers.push(a);
    // A socket that never answers the close keeps the drain going for drainTimeoutMs.
    const stuck = a.raw();
    await frames(stuck).next('pusher:connection_established');
    (stuck as unknown as { _socket: { pause(): void } })._socket.pause();
    const drained = a.rt.drain();
    const late = a.raw();
    expect((await frames(late).next('pusher:error')).data.code).toBe(4100);
    expect((await closed(late)).code).toBe(4100);
    await drained;
  });
});
