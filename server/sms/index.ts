// Outgoing SMS (docs/product/accounts-and-roles.md): one-time codes for phone sign-up, phone changes and password
// resets. `console` (the default) logs each message and writes it to DATA_DIR/sms/, so development
// and the tests need no gateway; `http` calls a gateway described by a URL template.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';

export interface SmsMessage {
  /** E.164 number, e.g. +218912345678. */
  to: string;
  text: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

export class SmsError extends Error {
  override name = 'SmsError';
}

type SmsConfig = Pick<Config, 'smsProvider' | 'smsHttpUrl' | 'smsHttpKey' | 'dataDir'>;

/** The gateway gets 10 seconds; a slower one fails the send (the member can ask again). */
const GATEWAY_TIMEOUT_MS = 10_000;

export function createSmsSender(config: SmsConfig, logger: Logger): SmsSender {
  if (config.smsProvider === 'http') {
    if (!config.smsHttpUrl) throw new SmsError('SMS_PROVIDER=http needs SMS_HTTP_URL');
    return httpSender(config.smsHttpUrl, config.smsHttpKey, logger);
  }
  const dir = path.join(config.dataDir, 'sms');
  return {
    async send(m) {
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${Date.now()}-${randomBytes(4).toString('hex')}.json`);
      writeFileSync(file, `${JSON.stringify(m)}\n`);
      logger.info({ to: m.to, text: m.text, file }, 'SMS written (SMS_PROVIDER=console)');
    },
  };
}

/**
 * A gateway described by `SMS_HTTP_URL`. `{to}`, `{text}` and `{key}` in the template are replaced
 * (URL-encoded). With `{text}` in the URL the message travels in the query string (GET, the common
 * style of Libyan and regional gateways); otherwise it is POSTed as JSON `{to, text}`. The key, when
 * set, is also sent as `Authorization: Bearer <key>`. Anything but a 2xx answer is a failure.
 */
function httpSender(template: string, key: string | undefined, logger: Logger): SmsSender {
  return {
    async send(m) {
      const fill = (name: string, value: string) => (url: string) =>
        url.replaceAll(`{${name}}`, encodeURIComponent(value));
      const url = [fill('to', m.to), fill('text', m.text), fill('key', key ?? '')].reduce((u, f) => f(u), template);
      const inQuery = template.includes('{text}');
      const headers: Record<string, string> = { accept: 'application/json, text/plain, */*' };
      if (key) headers.authorization = `Bearer ${key}`;
      if (!inQuery) headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await fetch(url, {
          method: inQuery ? 'GET' : 'POST',
          headers,
          body: inQuery ? undefined : JSON.stringify({ to: m.to, text: m.text }),
          signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
        });
      } catch (err) {
        throw new SmsError(`SMS gateway unreachable: ${(err as Error).message}`);
      }
      // The body is read (and capped) for the log only; gateways word their errors freely.
      const body = (await res.text().catch(() => '')).slice(0, 300);
      if (!res.ok) throw new SmsError(`SMS gateway answered ${res.status}: ${body}`);
      logger.info({ to: m.to, status: res.status }, 'SMS sent');
    },
  };
}
