import { z } from 'zod';
import { acceptedField, confirmed, field, requiredField, rules } from './rules.ts';

/** Passwords: at least 8 characters (Better Auth enforces the same bounds on its endpoints). */
const password = requiredField(rules.min(8), rules.max(128));

export const loginSchema = z.object({
  email: requiredField(rules.email()),
  password: requiredField(rules.max(128)),
  remember: field<string>(),
  redirect: field<string>(rules.max(500)),
});

export const registerSchema = z
  .object({
    name: requiredField(rules.min(2), rules.max(120)),
    email: requiredField(rules.email()),
    password,
    password_confirmation: requiredField(),
    terms: acceptedField(),
    redirect: field<string>(rules.max(500)),
  })
  .superRefine((v, ctx) => confirmed(v, 'password_confirmation', 'password')(ctx));

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;

export const forgotPasswordSchema = z.object({ email: requiredField(rules.email()) });

export const resetPasswordSchema = z
  .object({ token: requiredField(rules.max(500)), password, password_confirmation: requiredField() })
  .superRefine((v, ctx) => confirmed(v, 'password_confirmation', 'password')(ctx));

export const resendVerificationSchema = z.object({ email: requiredField(rules.email()) });
