import { z } from 'zod';
import { acceptedField, confirmed, field, requiredField, rules } from './rules.ts';

/** Passwords: at least 8 characters (Better Auth enforces the same bounds on its endpoints). */
const password = requiredField(rules.min(8), rules.max(128));

/** Email or phone number (local Libyan numbers accepted), normalised for the server. */
const login = requiredField(rules.emailOrPhone());
const phone = requiredField(rules.phoneNumber());
/** The 6-digit code sent by SMS. */
export const OTP_LENGTH = 6;
const code = requiredField(rules.digits(OTP_LENGTH));

export const loginSchema = z.object({
  login,
  password: requiredField(rules.max(128)),
  remember: field<string>(),
  redirect: field<string>(rules.max(500)),
});

export const registerSchema = z
  .object({
    name: requiredField(rules.min(2), rules.max(120)),
    login,
    password,
    password_confirmation: requiredField(),
    terms: acceptedField(),
    redirect: field<string>(rules.max(500)),
  })
  .superRefine((v, ctx) => confirmed(v, 'password_confirmation', 'password')(ctx));

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;

export const forgotPasswordSchema = z.object({ login });

export const resetPasswordSchema = z
  .object({ token: requiredField(rules.max(500)), password, password_confirmation: requiredField() })
  .superRefine((v, ctx) => confirmed(v, 'password_confirmation', 'password')(ctx));

export const resendVerificationSchema = z.object({ email: requiredField(rules.email()) });

/** Asks for a code by SMS to `phone` (adding or confirming a number). */
export const sendPhoneCodeSchema = z.object({ phone });

/** Confirms `phone` with the code it received. */
export const verifyPhoneSchema = z.object({ phone, code });

/** A new password chosen with the code sent by SMS (forgotten password by phone). */
export const resetPasswordByPhoneSchema = z
  .object({ phone, code, password, password_confirmation: requiredField() })
  .superRefine((v, ctx) => confirmed(v, 'password_confirmation', 'password')(ctx));
