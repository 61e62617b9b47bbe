// A real SMTP server on loopback that keeps every message it receives as a file, and helpers to
// read them back (recipient, subject, decoded body, links).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

/** `refuse`: the first N messages are answered `451` (a temporary failure) and not kept. */
export async function startSmtpCapture(
  dir: string,
  opts: { refuse?: number } = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  let n = 0;
  let refuse = opts.refuse ?? 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuse > 0) {
          refuse--;
          return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        }
        writeFileSync(path.join(dir, `${Date.now()}-${n++}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface CapturedMail {
  to: string;
  subject: string;
  /** A header by name (case-insensitive), unfolded and decoded; '' when absent. */
  header: (name: string) => string;
  body: string;
  links: string[];
}

/**
 * Quoted-printable and base64 parts, decoded well enough to read text and links: a multipart
 * message (text and HTML, as nodemailer sends both) is decoded part by part, each by its own headers.
 */
function decode(raw: string): string {
  const parts = raw.split(/\r?\n\r?\n/);
  const headers = parts[0] ?? '';
  const rest = parts.slice(1).join('\n\n');
  const boundary = /content-type:\s*multipart\/[^;]+;[\s\S]*?boundary="?([^"\r\n;]+)"?/i.exec(headers)?.[1];
  if (boundary) {
    return rest
      .split(`--${boundary}`)
      .filter((part) => part.trim() !== '' && !part.startsWith('--'))
      .map((part) => decode(part.replace(/^\r?\n/, '')))
      .join('\n');
  }
  if (/content-transfer-encoding:\s*base64/i.test(headers)) {
    return Buffer.from(rest.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  const qp = rest
    .replace(/=\r?\n/g, '')
    .replace(/(=[0-9A-F]{2})+/g, (m) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'));
  return qp;
}

export function readMails(dir: string): CapturedMail[] {
  let files: string[] = [];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files.map((f) => {
    const raw = readFileSync(path.join(dir, f), 'utf8');
    // Headers may be folded over lines and RFC 2047-encoded (Arabic subjects).
    const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
    const words = (v: string) =>
      v.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
        enc.toLowerCase() === 'b'
          ? Buffer.from(text, 'base64').toString('utf8')
          : decodeURIComponent(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, '%$1')),
      );
    const header = (name: string) => words(new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '');
    const body = decode(raw);
    return {
      to: header('To').replace(/.*<|>.*/g, ''),
      subject: header('Subject'),
      header,
      body,
      links: [...new Set([...body.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0].replace(/&amp;/g, '&')))],
    };
  });
}

/** Waits up to `ms` for a mail to `to` matching `subject`. */
export async function waitForMail(dir: string, to: string, subject: RegExp, ms = 8000): Promise<CapturedMail> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = readMails(dir).find((m) => m.to === to && subject.test(m.subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits up to `ms` until `count` mails to `to` match `subject` (a mail may be sent after the answer). */
export async function waitForMails(
  dir: string,
  to: string,
  subject: RegExp,
  count: number,
  ms = 8000,
): Promise<CapturedMail[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = readMails(dir).filter((m) => m.to === to && subject.test(m.subject));
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`${found.length} of ${count} mails to ${to} matching ${subject}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Every mail captured once `canary` has arrived: the proof that no mail came of what a test did
 * before. The test first does what must send nothing, then something that does send (the canary),
 * and waits for the canary only: whatever the first action would have mailed was handed to the mail
 * transport before the canary's request was even made, so it would be here by now.
 */
export async function mailsUntil(dir: string, canary: { to: string; subject: RegExp }): Promise<CapturedMail[]> {
  await waitForMail(dir, canary.to, canary.subject);
  return readMails(dir);
}
