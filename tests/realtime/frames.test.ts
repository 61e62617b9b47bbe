// Channel events are framed once and written whole to every subscriber's socket
// (server/realtime/server.ts, `deliver`): the frames must be what a WebSocket client reads, at
// every payload length the three length encodings meet, in any script.
import type { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { textFrame } from '../../server/realtime/server.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** ws's frame parser: exported by the package, left out of its type declarations. */
const { Receiver } = ws as unknown as { Receiver: new (options: { isServer: boolean }) => Writable };

/** What ws's own parser reads from `bytes` (a client's receiver: frames come unmasked). */
function read(bytes: Buffer): string[] {
  const got: string[] = [];
  const receiver = new Receiver({ isServer: false });
  receiver.on('message', (data: Buffer, isBinary: boolean) => {
    expect(isBinary).toBe(false);
    got.push(data.toString('utf8'));
  });
  receiver.on('error', (err: Error) => {
    throw err;
  });
  receiver.write(bytes);
  return got;
}

describe('textFrame', () => {
  it.each([0, 1, 125, 126, 127, 65535, 65536, 70000])('frames %i bytes as one text frame', (size) => {
    const text = 'x'.repeat(size);
    expect(read(textFrame(text))).toEqual([text]);
  });

  it('counts bytes, not characters (Arabic: two bytes a letter)', () => {
    // 63 letters are 126 bytes: the 16-bit length, though under 126 characters.
    const text = 'س'.repeat(63);
    const bytes = textFrame(text);
    expect(bytes[1]).toBe(126);
    expect(read(bytes)).toEqual([text]);
    expect(read(Buffer.concat([textFrame('أ'), textFrame(text), textFrame('b')]))).toEqual(['أ', text, 'b']);
  });
});

describe('events delivered to sockets', () => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  it('reach pusher-js whole at the lengths where the framing changes', async () => {
    server = await startTestServer();
    const client = server.client();
    const channel = client.subscribe('news');
    await new Promise<void>((resolve) => channel.bind('pusher:subscription_succeeded', () => resolve()));
    // Data lengths whose frames fall on either side of 125 bytes, and Arabic text near the 10 KB limit.
    const payloads = ['', 'a', 'ب'.repeat(20), 'x'.repeat(60), 'x'.repeat(61), 'ليبيا '.repeat(900)];
    const got: string[] = [];
    const all = new Promise<void>((resolve) =>
      channel.bind('e', (data: string) => {
        got.push(data);
        if (got.length === payloads.length) resolve();
      }),
    );
    for (const data of payloads) await server.sdk.trigger('news', 'e', data);
    await all;
    expect(got).toEqual(payloads);
  });
});
