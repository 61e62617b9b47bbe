import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.ts';
import { createSmsSender, SmsError } from '../../server/sms/index.ts';

const logger = createLogger('silent');

describe('console SMS adapter', () => {
  it('writes each message to DATA_DIR/sms', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'souq-sms-'));
    try {
      const sms = createSmsSender(
        { smsProvider: 'console', smsHttpUrl: undefined, smsHttpKey: undefined, dataDir },
        logger,
      );
      await sms.send({ to: '+218912345678', text: '123456 is your Souq code.' });
      const files = readdirSync(path.join(dataDir, 'sms'));
      expect(files).toHaveLength(1);
      expect(JSON.parse(readFileSync(path.join(dataDir, 'sms', files[0]), 'utf8'))).toEqual({
        to: '+218912345678',
        text: '123456 is your Souq code.',
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('HTTP SMS gateway adapter', () => {
  // A stand-in for the operator's gateway (outside the machine in production).
  const seen: { method: string; url: string; auth?: string; body: string }[] = [];
  let status = 200;
  let base = '';
  const server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, body });
    res.writeHead(status).end(status === 200 ? 'OK' : 'quota exceeded');
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const sender = (url: string, key?: string) =>
    createSmsSender({ smsProvider: 'http', smsHttpUrl: url, smsHttpKey: key, dataDir: tmpdir() }, logger);

  it('fills a GET template with the URL-encoded number, text and key', async () => {
    seen.length = 0;
    await sender(`${base}/send?to={to}&msg={text}&api_key={key}`, 's3cret').send({
      to: '+218912345678',
      text: 'رمزك 123456',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('GET');
    const url = new URL(seen[0].url, base);
    expect(url.searchParams.get('to')).toBe('+218912345678');
    expect(url.searchParams.get('msg')).toBe('رمزك 123456');
    expect(url.searchParams.get('api_key')).toBe('s3cret');
    expect(seen[0].auth).toBe('Bearer s3cret');
  });

  it('POSTs JSON when the template has no {text}', async () => {
    seen.length = 0;
    await sender(`${base}/messages`, 'k').send({ to: '+218912345678', text: 'hello' });
    expect(seen[0].method).toBe('POST');
    expect(JSON.parse(seen[0].body)).toEqual({ to: '+218912345678', text: 'hello' });
  });

  it('fails on a non-2xx answer and on an unreachable gateway', async () => {
    status = 402;
    await expect(sender(`${base}/messages`).send({ to: '+218912345678', text: 'x' })).rejects.toThrow(SmsError);
    status = 200;
    await expect(sender('http://127.0.0.1:9/x').send({ to: '+218912345678', text: 'x' })).rejects.toThrow(
      /unreachable/,
    );
  });

  it('needs a URL', () => {
    expect(() =>
      createSmsSender({ smsProvider: 'http', smsHttpUrl: undefined, smsHttpKey: undefined, dataDir: tmpdir() }, logger),
    ).toThrow(SmsError);
  });
});
