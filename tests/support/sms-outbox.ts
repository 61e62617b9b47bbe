// Reads the text messages the console SMS adapter writes to DATA_DIR/sms (one JSON file each).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface SentSms {
  to: string;
  text: string;
  file: string;
}

export function readSms(dataDir: string): SentSms[] {
  const dir = path.join(dataDir, 'sms');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({
      ...(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { to: string; text: string }),
      file: f,
    }));
}

/** The newest message to `to` whose text matches, waiting up to `timeoutMs`. */
export async function waitForSms(dataDir: string, to: string, match: RegExp, after = 0, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readSms(dataDir).filter((m) => m.to === to && match.test(m.text));
    if (found.length > after) return found[found.length - 1];
    if (Date.now() > deadline) throw new Error(`no SMS to ${to} matching ${match}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Every text written once a text to `canary.to` matching `canary.text` is there: the proof that
 * something done before sent no text (see `mailsUntil` in tests/support/smtp-capture.ts). Texts are
 * written when the server hands them to the sender, so one asked for earlier is written earlier.
 */
export async function smsUntil(dataDir: string, canary: { to: string; text: RegExp }): Promise<SentSms[]> {
  await waitForSms(dataDir, canary.to, canary.text);
  return readSms(dataDir);
}

/** The 6-digit code of a message. */
export const codeOf = (sms: SentSms) => /\b(\d{6})\b/.exec(sms.text)?.[1] ?? '';
