import { z } from 'zod';
import { field, requiredField, rules } from './rules.ts';

export const CONTACT_SUBJECTS = ['general', 'account', 'ad', 'report', 'packages', 'other'] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

/** The contact form, on both sides. Either an email or a phone number is needed to reply. */
export const contactSchema = z
  .object({
    name: requiredField(rules.min(2), rules.max(120)),
    email: field(rules.email()),
    phone: field(rules.phoneNumber()),
    subject: requiredField<ContactSubject>(rules.oneOf(CONTACT_SUBJECTS)),
    message: requiredField(rules.min(10), rules.max(5000)),
  })
  .superRefine((v, ctx) => {
    if (!v.email && !v.phone) ctx.addIssue({ code: 'custom', path: ['email'], message: 'email-or-phone' });
  });

export type ContactInput = z.infer<typeof contactSchema>;
