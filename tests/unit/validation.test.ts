import { describe, expect, it } from 'vitest';
import ar from '~/i18n/bundle-ar.ts';
import en from '~/i18n/bundle-en.ts';
import { createI18n } from '~/i18n/instance.ts';
import { contactSchema } from '~/lib/validation/contact.ts';
import { latinDigits, phoneRule, translateError } from '~/lib/validation/rules.ts';

const errorsOf = (input: Record<string, unknown>) => {
  const r = contactSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};
const valid = {
  name: 'سالم',
  email: 'salem@example.ly',
  subject: 'general',
  message: 'السلام عليكم، عندي سؤال عن الباقات.',
};

describe('contact form rules', () => {
  it('accepts a complete message', () => {
    expect(contactSchema.safeParse(valid).success).toBe(true);
  });
  it('rejects empty and whitespace-only required fields', () => {
    expect(errorsOf({ ...valid, name: '   ' }).name).toBe('required');
    expect(errorsOf({ ...valid, name: undefined }).name).toBe('required');
    expect(errorsOf({ ...valid, subject: '' }).subject).toBe('required');
  });
  it('enforces the minimum length', () => {
    expect(errorsOf({ ...valid, message: 'قصير' }).message).toBe('min:10');
  });
  it('needs an email or a phone, and checks each', () => {
    expect(errorsOf({ ...valid, email: '' }).email).toBe('email-or-phone');
    expect(errorsOf({ ...valid, email: 'not-an-email' }).email).toBe('email');
    expect(errorsOf({ ...valid, email: '', phone: '0912345678' }).phone).toBe('must-be-a-valid-phone-number');
    expect(contactSchema.safeParse({ ...valid, email: '', phone: '+218 (91) 234 5678' }).success).toBe(true);
  });
  it('accepts Arabic-Indic digits in phone numbers and normalises them', () => {
    expect(latinDigits('+٢١٨٩١٢٣٤٥٦٧٨')).toBe('+218912345678');
    expect(latinDigits('۰۹۱')).toBe('091');
    expect(phoneRule.parse('+٢١٨ ٩١ ٢٣٤ ٥٦٧٨')).toBe('+218912345678');
  });
});

describe('error wording', () => {
  it('names the field in the same language', () => {
    const tar = createI18n('ar', { ar }).t;
    const ten = createI18n('en', { en }).t;
    expect(translateError(ten, 'required', 'name')).toBe('The name field is required');
    expect(translateError(tar, 'required', 'name')).toBe('حقل الاسم مطلوب');
    expect(translateError(ten, 'min:10', 'message')).toBe('The message field must be at least 10 characters');
    expect(translateError(tar, 'min:10', 'message')).toBe('يجب ألا يقل حقل الرسالة عن ١٠ أحرف');
    expect(translateError(ten, 'email', 'email')).toBe('The email field must be a valid email');
    expect(translateError(tar, 'must-be-a-valid-phone-number', 'phone')).toContain('رقم هاتف صالحًا');
  });
});
