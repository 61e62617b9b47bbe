// The realtime bench's WebSocket client (RFC 6455, text frames, no extensions): what each of the
// thousands of sockets in scripts/lib/bench-realtime-client.ts speaks. It reads with `net`'s
// `onread` (one read buffer for every socket, no stream per socket) and times each read as it
// comes out of the kernel, before any parsing, so one process can stand for a thousand subscribers
// without its own work per frame adding to the latency it measures: with the `ws` client the
// process spent about 13 µs on each received frame, 13 ms for a round of the 1 000-subscriber
// fan-out, more than the figure's target whatever the server did (docs/performance.md, "Realtime").
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';

const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/**
 * The read buffer of every socket: `onread` hands each read to its callback synchronously, and the
 * callback copies whatever it keeps beyond that call (an unfinished frame).
 */
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

export interface BenchSocketOptions {
  /** ws://host:port/path?query */
  url: string;
  /** The source address to connect from. */
  localAddress?: string;
}

/** A client frame (masked, RFC 6455 §5.3) with the given opcode. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(header + 4 + length);
  out[0] = 0x80 | opcode;
  if (header === 2) out[1] = 0x80 | length;
  else if (header === 4) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(length, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeBigUInt64BE(BigInt(length), 2);
  }
  const mask = randomBytes(4);
  mask.copy(out, header);
  for (let i = 0; i < length; i++) out[header + 4 + i] = (payload[i] as number) ^ (mask[i & 3] as number);
  return out;
}

export class BenchSocket {
  /** A text message, with the time its read came out of the kernel (`performance.now()`). */
  onmessage: (text: string, at: number) => void = () => {};
  /** The handshake is done: messages can be sent. */
  onopen: () => void = () => {};
  onerror: (err: Error) => void = () => {};
  /** Runs once, when the TCP connection is gone; the close code the server sent (1006: none). */
  onclose: (code: number) => void = () => {};

  readonly closed: Promise<number>;
  isClosed = false;
  private readonly socket: net.Socket;
  private readonly key = randomBytes(16).toString('base64');
  private open = false;
  private closeSent = false;
  private closeCode = 1006;
  /** Bytes of an unfinished handshake answer or frame, copied out of the shared read buffer. */
  private rest: Buffer | null = null;
  /** Parts of a fragmented message. */
  private fragments: Buffer[] = [];

  constructor(options: BenchSocketOptions) {
    const url = new URL(options.url);
    const port = Number(url.port || 80);
    this.socket = net.connect({
      host: url.hostname,
      port,
      localAddress: options.localAddress,
      noDelay: true,
      onread: { buffer: READ_BUFFER, callback: (n) => this.read(n, READ_BUFFER) },
    });
    this.socket.on('connect', () => {
      this.socket.write(
        `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\n` +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${this.key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    this.socket.on('error', (err) => this.onerror(err));
    this.closed = new Promise((resolve) => {
      this.socket.on('close', () => {
        this.isClosed = true;
        this.onclose(this.closeCode);
        resolve(this.closeCode);
      });
    });
  }

  /** Sends a text message. */
  send(text: string) {
    if (this.open && !this.closeSent) this.socket.write(clientFrame(0x1, Buffer.from(text)));
  }

  /** Starts the closing handshake; the server answers and ends the connection. */
  close(code = 1000) {
    if (this.closeSent || this.isClosed) return;
    this.closeSent = true;
    const payload = Buffer.allocUnsafe(2);
    payload.writeUInt16BE(code);
    if (this.open) this.socket.write(clientFrame(0x8, payload));
    else this.socket.destroy();
  }

  /** Drops the connection at once. */
  terminate() {
    this.socket.destroy();
  }

  private fail(why: string) {
    this.onerror(new Error(why));
    this.socket.destroy();
  }

  private read(n: number, buffer: Buffer): boolean {
    const at = performance.now();
    let data = buffer.subarray(0, n);
    if (this.rest) {
      data = Buffer.concat([this.rest, data]);
      this.rest = null;
    }
    let offset = 0;
    if (!this.open) {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) {
        if (data.length > 16 * 1024) this.fail('handshake answer too long');
        else this.rest = Buffer.from(data);
        return true;
      }
      const head = data.subarray(0, end).toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      if (status !== '101') return this.handshakeFailed(`handshake answered ${status ?? '?'}`);
      const accept = /\r\nsec-websocket-accept:\s*(\S+)/i.exec(head)?.[1];
      const expected = createHash('sha1')
        .update(this.key + ACCEPT_GUID)
        .digest('base64');
      if (accept !== expected) return this.handshakeFailed('handshake: wrong Sec-WebSocket-Accept');
      this.open = true;
      offset = end + 4;
      this.onopen();
    }
    while (data.length - offset >= 2 && !this.socket.destroyed) {
      const b0 = data[offset] as number;
      const b1 = data[offset + 1] as number;
      if (b1 & 0x80) return this.handshakeFailed('a server frame must not be masked');
      let length = b1 & 0x7f;
      let header = 2;
      if (length === 126) {
        if (data.length - offset < 4) break;
        length = data.readUInt16BE(offset + 2);
        header = 4;
      } else if (length === 127) {
        if (data.length - offset < 10) break;
        length = Number(data.readBigUInt64BE(offset + 2));
        header = 10;
      }
      if (data.length - offset < header + length) break;
      const payload = data.subarray(offset + header, offset + header + length);
      offset += header + length;
      this.frame((b0 & 0x80) !== 0, b0 & 0x0f, payload, at);
    }
    if (offset < data.length) this.rest = Buffer.from(data.subarray(offset));
    return true;
  }

  private handshakeFailed(why: string): boolean {
    this.fail(why);
    return false;
  }

  private frame(fin: boolean, opcode: number, payload: Buffer, at: number) {
    switch (opcode) {
      case 0x0:
      case 0x1: {
        if (opcode === 0x1 && this.fragments.length > 0) return this.fail('a new message inside a fragmented one');
        if (!fin || this.fragments.length > 0) {
          this.fragments.push(Buffer.from(payload));
          if (!fin) return;
          const whole = Buffer.concat(this.fragments);
          this.fragments = [];
          return this.onmessage(whole.toString('utf8'), at);
        }
        return this.onmessage(payload.toString('utf8'), at);
      }
      case 0x8:
        this.closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        if (!this.closeSent) {
          this.closeSent = true;
          this.socket.write(clientFrame(0x8, Buffer.from(payload.subarray(0, 2))));
        }
        this.socket.end();
        return;
      case 0x9:
        this.socket.write(clientFrame(0xa, Buffer.from(payload)));
        return;
      case 0xa:
        return;
      default:
        return this.fail(`unexpected opcode ${opcode}`);
    }
  }
}
