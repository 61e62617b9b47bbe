// Request bodies read under a size limit, for every route that reads one (pages, the API, uploads).
// A body is kept in memory only up to its route's limit; past it nothing more is kept. What follows
// is read and thrown away up to a drain limit, so that a browser — which reads no answer before it
// has sent its whole body — gets our translated answer; past the drain limit (or at once, when the
// declared length is past it) the client is answered while it is still sending, and cut off soon
// after (`discardRest`). A 200 MB post costs the process the route's limit at most.
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';

/** JSON and url-encoded API calls and the auth endpoints. */
export const API_BODY_LIMIT = 100 * 1024;

/**
 * How much of a too-large body is still read (and thrown away) so a browser, which reads no answer
 * before it has sent its body, sees ours instead of a reset connection. Beyond it the connection is
 * cut: nobody sends that much by mistake.
 */
function drainLimitOf(limit: number): number {
  return Math.max(4 * limit, 1024 * 1024);
}

export type BodyRead =
  | { kind: 'ok'; body: Uint8Array<ArrayBuffer> }
  /**
   * Over the limit. `drained`: read to its end (thrown away), the connection can go on; otherwise
   * answer now and `discardRest`.
   */
  | { kind: 'too-large'; drained: boolean }
  /** The client went away before the end. */
  | { kind: 'aborted' };

/** The declared body length, or null when the body is chunked (or the header is not a number). */
function declaredLength(req: IncomingMessage): number | null {
  const value = req.headers['content-length'];
  return value && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

/**
 * Reads `req`'s body while it stays within `limit` bytes; a larger one is drained (see above).
 * Resolves at the end of the body, or as soon as it is known to be past the drain limit.
 */
export function readBodyWithin(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = declaredLength(req);
  const drain = drainLimitOf(limit);
  if (declared !== null && declared > drain) return Promise.resolve({ kind: 'too-large', drained: false });
  if (declared === 0 || req.readableEnded) return Promise.resolve({ kind: 'ok', body: new Uint8Array(0) });
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let total = 0;
    const finish = (result: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > drain) {
        req.pause();
        finish({ kind: 'too-large', drained: false });
      } else if (total > limit) chunks = [];
      else chunks.push(chunk);
    };
    const onEnd = () =>
      finish(
        total > limit
          ? { kind: 'too-large', drained: true }
          : { kind: 'ok', body: Buffer.concat(chunks, total) as Uint8Array<ArrayBuffer> },
      );
    const onAbort = () => finish({ kind: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}

/** What is still read and thrown away of a body refused before its end, after the answer is written. */
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGER_MS = 1000;

/**
 * For a body refused before its end. The connection is not closed at once: a client still sending
 * would get a reset in place of the answer it has not read yet (a closed socket with unread data
 * resets, and the reset throws away what the client has received and not read). So what it sends
 * is read and thrown away while the answer is written, up to 16 MB; past that nothing more is read
 * (the client's writes wait, it can read the answer), and a second after the answer a client still
 * sending is cut. One that stops sending keeps its connection.
 */
export function discardRest(req: IncomingMessage, res: ServerResponse): void {
  let discarded = 0;
  let cut = false;
  const destroy = () => {
    if (cut || req.readableEnded) return;
    cut = true;
    req.socket.destroy();
  };
  const linger = () => {
    if (req.readableEnded) return;
    if (discarded <= LINGER_BYTES) req.resume();
    setTimeout(destroy, LINGER_MS).unref();
  };
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    // Enough: nothing more is read; the grace period's end cuts the connection.
    if (discarded > LINGER_BYTES) req.pause();
  });
  if (res.writableFinished) linger();
  else {
    res.once('finish', linger);
    res.once('close', () => (res.writableFinished ? undefined : destroy()));
  }
  req.resume();
}

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** A body of a type the route does not read: the API's error mapper answers its status, 415. */
class UnsupportedBody extends Error {
  readonly status = 415;
  constructor() {
    super('unsupported media type');
  }
}

export type MultipartRead =
  | { kind: 'form'; form: FormData }
  /** Over the limit, as `BodyRead`'s; one not read to its end is already being discarded. */
  | { kind: 'too-large'; drained: boolean }
  /** The client went away before the end: nothing to answer. */
  | { kind: 'aborted' }
  /** Not a multipart body that can be read. */
  | { kind: 'malformed' };

/**
 * An upload's multipart body, read within `limit` bytes (`readBodyWithin`) and parsed: the API's
 * photo routes (server/http/ad-images.ts, server/http/chats.ts) answer each outcome in their words.
 */
export async function readMultipartWithin(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
): Promise<MultipartRead> {
  const read = await readBodyWithin(req, limit);
  if (read.kind !== 'ok') {
    if (read.kind === 'too-large' && !read.drained) discardRest(req, res);
    return read;
  }
  try {
    const headers = { 'content-type': String(req.headers['content-type'] ?? '') };
    return { kind: 'form', form: await new Response(read.body, { headers }).formData() };
  } catch {
    return { kind: 'malformed' };
  }
}

/** The media type of a Content-Type header, lower case without its parameters ('' when absent). */
export const mediaType = (contentType: string | undefined) => (contentType ?? '').split(';')[0].trim().toLowerCase();

/**
 * Body parsing for the JSON API and the auth endpoints: JSON and url-encoded bodies up to `limit`
 * (a larger one is a 413 while it is still arriving), multipart only where `multipart` allows it
 * (the upload routes read it themselves, under their own limit), any other body a 415.
 */
export function apiBodies({ limit, multipart }: { limit: number; multipart: boolean }): RequestHandler {
  // The type was chosen here: the parsers take what they are given.
  const json = express.json({ limit, type: () => true });
  const form = express.urlencoded({ extended: false, limit, type: () => true });
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !hasBody(req)) return next();
    const type = mediaType(req.headers['content-type']);
    if (type === 'application/json' || type.endsWith('+json')) return json(req, res, next);
    if (type === 'application/x-www-form-urlencoded') return form(req, res, next);
    if (type === 'multipart/form-data' && multipart) return next();
    next(new UnsupportedBody());
  };
}
