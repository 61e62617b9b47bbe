// Mail goes out through the job queue (docs/decisions/0010-writes-and-side-effects.md): the code that
// decides a mail is due renders it (./templates.ts, in the recipient's language) and enqueues a
// `send-mail` job with the message; the worker hands it to the mailer (./index.ts) when the job
// runs, with the queue's retries and backoff when the SMTP server refuses or is down.
//
// The payload is the rendered message, not a template name and parameters: the wording comes from
// the i18n catalogues, which only the web build bundles (Vite's import.meta.glob and `~` paths), and
// `npm run worker` runs plain Node without that build. Rendered where it is enqueued, a mail is the
// same whichever process sends it. A message is a few kilobytes, and finished jobs are pruned
// after a week (server/jobs/queue.ts).
//
// This module must stay importable by the worker: no catalogues here.
import { z } from 'zod';
import type { MailMessage } from './index.ts';

/** What a mail is, for logs and the back office's job list (not used to send it). */
export const MAIL_KINDS = [
  'verify-email',
  'change-email',
  'reset-password',
  'address-taken',
  'contact-staff',
  'notification',
  'saved-search-digest',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export const mailPayload = z.object({
  kind: z.enum(MAIL_KINDS),
  message: z.object({
    to: z.string().min(3).max(320),
    subject: z.string().min(1).max(1000),
    text: z.string(),
    html: z.string(),
    replyTo: z.string().max(320).optional(),
    headers: z
      .record(
        z
          .string()
          .regex(/^[A-Za-z][A-Za-z-]*$/)
          .max(64),
        z.string().max(2000),
      )
      .optional(),
  }),
});

export type MailPayload = z.infer<typeof mailPayload>;

/** The `send-mail` payload of a rendered message. */
export const mailJob = (kind: MailKind, message: MailMessage): MailPayload => ({
  kind,
  message: {
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    ...(message.headers ? { headers: message.headers } : {}),
  },
});
