// Validation rules of docs/product/site.md as Zod helpers shared by browser and server. A field runs its rules
// in order and reports only the first that fails. Messages are codes ("required", "min:10"),
// turned into words in the visitor's language by `translateError` (./error-words.ts).
import { z } from 'zod';

import { latinDigits } from '../digits.ts';

export { latinDigits };

/** Empty for `required`: missing, null, false, an empty list, or only white space. */
export function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === false ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

export interface Rule {
  /** Message code: `required`, `min:8`, `email`, … */
  code: string;
  /** Rewrites the value before the check (digits, spaces). */
  normalise?: (value: unknown) => unknown;
  check: (value: unknown) => boolean;
  /** Rewrites the value after a successful check (what the server stores). */
  output?: (value: unknown) => unknown;
}

const str = (v: unknown) => (typeof v === 'string' ? v : String(v));
/** ASCII addresses only: Better Auth (and most mail servers) refuse internationalised local parts. */
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;
/** `+` then digits, with optional parentheses and spaces. */
export const PHONE_PATTERN = /^\+[0-9()]{6,24}$/;

export const rules = {
  required: (): Rule => ({ code: 'required', check: (v) => !isBlank(v) }),
  min: (n: number): Rule => ({ code: `min:${n}`, check: (v) => [...str(v)].length >= n }),
  max: (n: number): Rule => ({ code: `max:${n}`, check: (v) => [...str(v)].length <= n }),
  email: (): Rule => ({ code: 'email', check: (v) => EMAIL.test(str(v)) && str(v).length <= 254 }),
  /** Letters of any script (Arabic included), with their marks. */
  alpha: (): Rule => ({ code: 'alpha', check: (v) => /^[\p{L}\p{M}]+$/u.test(str(v)) }),
  /** Letters, digits, dashes and underscores. */
  alphaDash: (): Rule => ({ code: 'alpha_dash', check: (v) => /^[\p{L}\p{M}\p{N}_-]+$/u.test(str(v)) }),
  /** Letters and spaces. */
  alphaSpaces: (): Rule => ({ code: 'alpha_spaces', check: (v) => /^[\p{L}\p{M}\s]+$/u.test(str(v)) }),
  /** Digits only; Arabic-Indic and Persian digits are accepted and stored as 0-9. */
  numeric: (): Rule => ({
    code: 'numeric',
    normalise: (v) => latinDigits(str(v)),
    check: (v) => /^[0-9]+$/.test(str(v)),
  }),
  /** Exactly `n` digits (one-time codes); Arabic-Indic and Persian digits are accepted. */
  digits: (n: number): Rule => ({
    code: `digits:${n}`,
    normalise: (v) => latinDigits(str(v)).replace(/\s/g, ''),
    check: (v) => new RegExp(`^[0-9]{${n}}$`).test(str(v)),
  }),
  /** A calendar day `YYYY-MM-DD` that exists; Arabic-Indic and Persian digits are accepted. */
  date: (): Rule => ({
    code: 'date',
    normalise: (v) => latinDigits(str(v)),
    check: (v) => {
      const s = str(v);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
    },
  }),
  /** One of the listed values. */
  oneOf: (values: readonly string[]): Rule => ({ code: 'in', check: (v) => values.includes(str(v)) }),
  /** International number: `+`, digits, optional parentheses; stored as `+` and digits. */
  phoneNumber: (): Rule => ({
    code: 'must-be-a-valid-phone-number',
    normalise: (v) => latinDigits(str(v)).replace(/[\s-]/g, ''),
    check: (v) => PHONE_PATTERN.test(str(v)) && /^\+\d{6,15}$/.test(str(v).replace(/[()]/g, '')),
    output: (v) => str(v).replace(/[()]/g, ''),
  }),
  /**
   * What members sign in with: an email address (stored lower-case) or a phone number (stored
   * E.164). Libyan numbers may be typed the local way (091…, 00218…); they become +218….
   */
  emailOrPhone: (): Rule => ({
    code: 'email-or-phone-number',
    normalise: (v) => (str(v).includes('@') ? str(v) : localPhoneToE164(str(v))),
    check: (v) => (str(v).includes('@') ? rules.email().check(v) : rules.phoneNumber().check(v)),
    output: (v) => (str(v).includes('@') ? str(v).toLowerCase() : str(v).replace(/[()]/g, '')),
  }),
};

/** `0912345678` / `00218…` / `+218 91-234 5678` → `+218912345678`; anything else is returned cleaned. */
export function localPhoneToE164(value: string): string {
  const cleaned = latinDigits(value).replace(/[\s-]/g, '');
  if (/^0(9[1-6]\d{7})$/.test(cleaned)) return `+218${cleaned.slice(1)}`;
  if (cleaned.startsWith('00')) return `+${cleaned.slice(2)}`;
  return cleaned;
}

/** Whether a sign-in identifier (after `emailOrPhone`) is a phone number. */
export const isPhoneIdentifier = (value: string) => value.startsWith('+');

/**
 * A form field checked by `list` in order; the first failing rule is the field's only error.
 * Strings are trimmed. A blank optional field (no `required` rule) becomes undefined.
 */
export function field<T = string>(...list: Rule[]) {
  const required = list.some((r) => r.code === 'required');
  const schema = z.unknown().transform((input, ctx): T | undefined => {
    let value: unknown = typeof input === 'string' ? input.trim() : input;
    if (isBlank(value)) {
      if (!required) return undefined;
      ctx.addIssue({ code: 'custom', message: 'required' });
      return z.NEVER;
    }
    for (const rule of list) {
      if (rule.normalise) value = rule.normalise(value);
      if (!rule.check(value)) {
        ctx.addIssue({ code: 'custom', message: rule.code });
        return z.NEVER;
      }
      if (rule.output) value = rule.output(value);
    }
    return value as T;
  });
  // Optional fields may be absent altogether; required ones report `required` when absent.
  return required ? schema : schema.optional();
}

/** A field that must be filled in, then checked by `list` in order. */
export function requiredField<T = string>(...list: Rule[]) {
  return field<T>(rules.required(), ...list) as unknown as z.ZodType<T, unknown>;
}

/** A checkbox that must be ticked (terms): anything but a ticked box reports `accepted`. */
export function acceptedField() {
  return z.unknown().transform((v, ctx) => {
    if (v === 'on' || v === 'true' || v === true) return true as const;
    ctx.addIssue({ code: 'custom', message: 'accepted' });
    return z.NEVER;
  });
}

/** `confirmed`: `field` must equal `target` (e.g. password_confirmation = password). */
export function confirmed<T extends Record<string, unknown>>(
  data: T,
  field: keyof T & string,
  target: keyof T & string,
) {
  return (ctx: z.RefinementCtx) => {
    if (data[field] !== data[target]) ctx.addIssue({ code: 'custom', path: [field], message: 'confirmed' });
  };
}
