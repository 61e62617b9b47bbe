import type { ContactInput } from '../../app/lib/validation/contact.ts';
import { contactSchema } from '../../app/lib/validation/contact.ts';
import type { DB } from '../db/index.ts';
import { withTransaction } from '../db/transaction.ts';
import { enqueue } from '../jobs/registry.ts';
import { mailJob } from '../mail/outbox.ts';
import { contactStaffMail } from '../mail/templates.ts';
import { Invalid } from './errors.ts';
import { hitRateLimit, type RateLimitRule } from './rate-limit.ts';

/** Five messages an hour from one address is plenty for a person and useless for a spammer. */
export const CONTACT_RATE_LIMIT: RateLimitRule = { name: 'contact', limit: 5, windowSeconds: 3600 };

export interface ContactMeta {
  ip: string;
  userAgent: string;
  locale: string;
  /** Who hears about it (CONTACT_EMAIL); empty or absent: every super admin. */
  staffEmails?: string[];
}

/**
 * Stores a contact message after validation and the rate limit, and, in the same transaction, a
 * mail job per staff recipient (sent and retried by the job queue; the sender never waits for it
 * nor sees a mail failure). Returns its id.
 */
export async function submitContactMessage(db: DB, input: unknown, meta: ContactMeta): Promise<number> {
  const parsed = contactSchema.safeParse(input);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'form');
      errors[field] ??= [issue.message];
    }
    throw new Invalid(errors);
  }
  await hitRateLimit(db, CONTACT_RATE_LIMIT, meta.ip || 'unknown');
  const v: ContactInput = parsed.data;
  return withTransaction(db, async (tx) => {
    const row = await tx
      .insertInto('contact_messages')
      .values({
        name: v.name,
        email: v.email ?? null,
        phone: v.phone ?? null,
        subject: v.subject,
        body: v.message,
        status: 'new',
        locale: meta.locale,
        ip: meta.ip || null,
        user_agent: meta.userAgent || null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const recipients = meta.staffEmails?.length
      ? meta.staffEmails
      : (await tx.selectFrom('users').select('email').where('is_super_admin', '=', true).execute()).map((u) => u.email);
    for (const to of recipients) {
      const mail = contactStaffMail(to, {
        id: row.id,
        name: v.name,
        email: v.email ?? null,
        phone: v.phone ?? null,
        subject: v.subject,
        body: v.message,
        locale: meta.locale,
      });
      await enqueue(tx, 'send-mail', mailJob('contact-staff', mail));
    }
    return row.id;
  });
}
