import type { ContactInput } from '../../app/lib/validation/contact.ts';
import { contactSchema } from '../../app/lib/validation/contact.ts';
import type { DB } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import type { Mailer } from '../mail/index.ts';
import { contactStaffMail } from '../mail/templates.ts';
import { Invalid } from './errors.ts';
import { hitRateLimit, type RateLimitRule } from './rate-limit.ts';

/** Five messages an hour from one address is plenty for a person and useless for a spammer. */
export const CONTACT_RATE_LIMIT: RateLimitRule = { name: 'contact', limit: 5, windowSeconds: 3600 };

export interface ContactMeta {
  ip: string;
  userAgent: string;
  locale: string;
}

/** Stores a contact message after validation and the rate limit; returns its id. */
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
  const row = await db
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
  return row.id;
}

/**
 * Tells staff about a stored message (CONTACT_EMAIL, or every super admin). A mail failure is
 * logged, never shown to the sender: the message itself is already stored.
 */
export async function notifyStaffOfContact(
  db: DB,
  mailer: Mailer,
  contactEmails: string[],
  id: number,
  logger: Logger,
): Promise<void> {
  try {
    const m = await db.selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const recipients = contactEmails.length
      ? contactEmails
      : (await db.selectFrom('users').select('email').where('is_super_admin', '=', true).execute()).map((u) => u.email);
    for (const to of recipients) {
      await mailer.send(
        contactStaffMail(to, {
          id,
          name: m.name,
          email: m.email,
          phone: m.phone,
          subject: m.subject,
          body: m.body,
          locale: m.locale,
        }),
      );
    }
  } catch (err) {
    logger.error({ err, contactMessageId: id }, 'could not mail staff about a contact message');
  }
}
