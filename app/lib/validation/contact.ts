import { z } from 'zod';
import { emailRule, optionalText, phoneRule, requiredText } from './rules.ts';

export const CONTACT_SUBJECTS = ['general', 'account', 'ad', 'report', 'packages', 'other'] as const;

/** The contact form, on both sides. Either an email or a phone number is needed to reply. */
export const contactSchema = z
  .object({
    name: requiredText({ min: 2, max: 120 }),
    email: optionalText(254).pipe(emailRule.optional()),
    phone: optionalText(30).pipe(phoneRule.optional()),
    subject: z.enum(CONTACT_SUBJECTS, { error: 'required' }),
    message: requiredText({ min: 10, max: 5000 }),
  })
  .superRefine((v, ctx) => {
    if (!v.email && !v.phone) ctx.addIssue({ code: 'custom', path: ['email'], message: 'email-or-phone' });
  });

export type ContactInput = z.infer<typeof contactSchema>;
