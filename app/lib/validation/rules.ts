// Validation rules of seed §5 as Zod helpers shared by browser and server. Messages are codes
// ("required", "min:10"), turned into words in the visitor's language by `translateError`.
import type { TFunction } from 'i18next';
import { z } from 'zod';

const ARABIC_INDIC = /[\u0660-\u0669\u06f0-\u06f9]/g;

/** Arabic-Indic (٠-٩) and Persian (۰-۹) digits → 0-9. */
export function latinDigits(value: string): string {
  return value.replace(ARABIC_INDIC, (d) => String(d.charCodeAt(0) & 0xf));
}

/** Required text: rejects missing, empty and whitespace-only values; trims. */
export const requiredText = (opts: { min?: number; max: number }) => {
  // `abort` stops at the first failing rule of the field (seed §5).
  let s = z.string({ error: 'required' }).trim().min(1, { error: 'required', abort: true });
  if (opts.min && opts.min > 1) s = s.min(opts.min, { error: `min:${opts.min}`, abort: true });
  return s.max(opts.max, `max:${opts.max}`);
};

/** Optional text: empty becomes undefined. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `max:${max}`)
    .optional()
    .transform((v) => (v ? v : undefined));

export const emailRule = z.email({ error: 'email' }).max(254, 'max:254');

/** `+` then digits with optional parentheses (seed §5); Arabic-Indic digits accepted. */
export const PHONE_PATTERN = /^\+[0-9() ]{6,24}$/;
export const phoneRule = z
  .string()
  .transform((v) => latinDigits(v).replace(/[\s-]/g, ''))
  .refine((v) => PHONE_PATTERN.test(v) && /\d{6,}/.test(v.replace(/[()]/g, '')), 'must-be-a-valid-phone-number')
  .transform((v) => v.replace(/[()]/g, ''));

/** The words for an error code, naming the field in the same language. */
export function translateError(t: TFunction, code: string, field: string): string {
  const [key, arg] = code.split(':');
  const fieldLabel = t(`validation:fields.${field}`, { defaultValue: field });
  return t(`validation:${key}`, { field: fieldLabel, count: arg ? Number(arg) : undefined, value: arg });
}
