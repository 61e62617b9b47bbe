import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { i18nFor } from '~/i18n/resources.server.ts';
import { contactSchema } from '~/lib/validation/contact.ts';
import { translateError } from '~/lib/validation/error-words.ts';
import {
  confirmed,
  field,
  isBlank,
  latinDigits,
  localPhoneToE164,
  requiredField,
  rules,
} from '~/lib/validation/rules.ts';

// Every catalogue, as the server has them (the browser loads `validation` and `errors` with a form).
const tar = i18nFor('ar').t;
const ten = i18nFor('en').t;

/** The error code of one value through one field schema, or the value it produced. */
const run = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? { value: r.data } : { error: r.error.issues[0]?.message, count: r.error.issues.length };
};

describe('rules of docs/product/site.md, one by one', () => {
  it('required rejects empty, null, false, an empty list and white space', () => {
    for (const blank of [undefined, null, false, '', '   \t', []]) {
      expect(isBlank(blank)).toBe(true);
      expect(run(requiredField(), blank).error).toBe('required');
    }
    expect(run(requiredField(), ' أحمد ').value).toBe('أحمد');
    expect(run(requiredField(), 0).value).toBe(0);
  });
  it('min counts characters, Arabic included', () => {
    expect(run(requiredField(rules.min(3)), 'ab').error).toBe('min:3');
    expect(run(requiredField(rules.min(3)), 'علي').value).toBe('علي');
  });
  it('email', () => {
    expect(run(field(rules.email()), 'salem@example.ly').value).toBe('salem@example.ly');
    for (const bad of ['salem', 'salem@', '@x.ly', 'a b@x.ly', 'a@x'])
      expect(run(field(rules.email()), bad).error).toBe('email');
  });
  it('alpha, alpha_dash and alpha_spaces accept Arabic letters', () => {
    expect(run(field(rules.alpha()), 'سالم').value).toBe('سالم');
    expect(run(field(rules.alpha()), 'Salem1').error).toBe('alpha');
    expect(run(field(rules.alphaDash()), 'salem_ben-ali2').value).toBe('salem_ben-ali2');
    expect(run(field(rules.alphaDash()), 'salem ali').error).toBe('alpha_dash');
    expect(run(field(rules.alphaSpaces()), 'سالم بن علي').value).toBe('سالم بن علي');
    expect(run(field(rules.alphaSpaces()), 'salem-ali').error).toBe('alpha_spaces');
  });
  it('numeric accepts Arabic-Indic and Persian digits and stores 0-9', () => {
    expect(latinDigits('٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789 0123456789');
    expect(run(field(rules.numeric()), '٢٠١٥').value).toBe('2015');
    expect(run(field(rules.numeric()), '12a').error).toBe('numeric');
    expect(run(field(rules.numeric()), '-5').error).toBe('numeric');
  });
  it('confirmed compares with its target field', () => {
    const schema = z
      .object({ password: requiredField(rules.min(8)), password_confirmation: requiredField() })
      .superRefine((v, ctx) => confirmed(v, 'password_confirmation', 'password')(ctx));
    expect(schema.safeParse({ password: 'secret-123', password_confirmation: 'secret-123' }).success).toBe(true);
    const r = schema.safeParse({ password: 'secret-123', password_confirmation: 'secret-124' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['password_confirmation', 'confirmed']]);
  });
  it('phone_number: + then digits with optional parentheses', () => {
    expect(run(field(rules.phoneNumber()), '+218 (91) 234-5678').value).toBe('+218912345678');
    expect(run(field(rules.phoneNumber()), '+٢١٨٩١٢٣٤٥٦٧٨').value).toBe('+218912345678');
    for (const bad of ['0912345678', '218912345678', '+21891234567890123', '+218-abc', '+12']) {
      expect(run(field(rules.phoneNumber()), bad).error).toBe('must-be-a-valid-phone-number');
    }
  });
  it('email or phone: an email (lower-cased) or a number, Libyan local forms becoming E.164', () => {
    const login = field(rules.emailOrPhone());
    expect(run(login, 'Huda@Example.LY').value).toBe('huda@example.ly');
    expect(run(login, '0912345678').value).toBe('+218912345678');
    expect(run(login, '٠٩٢ ١٢٣ ٤٥٦٧').value).toBe('+218921234567');
    expect(run(login, '00218 91-234-5678').value).toBe('+218912345678');
    expect(run(login, '+44 (20) 7946 0958').value).toBe('+442079460958');
    for (const bad of ['huda@', 'huda', '12345', '0812345678', '+12', 'هدى@example.ly', 'huda@مثال.ly']) {
      expect(run(login, bad).error).toBe('email-or-phone-number');
    }
    expect(localPhoneToE164('091 234 5678')).toBe('+218912345678');
  });
  it('digits: exactly n digits, Arabic-Indic accepted', () => {
    expect(run(field(rules.digits(6)), '١٢٣ ٤٥٦').value).toBe('123456');
    for (const bad of ['12345', '1234567', '12345a']) expect(run(field(rules.digits(6)), bad).error).toBe('digits:6');
  });
  it('stops at the first failing rule of a field', () => {
    const r = run(requiredField(rules.min(5), rules.alpha()), '1');
    expect(r).toEqual({ error: 'min:5', count: 1 });
  });
  it('leaves a blank optional field out', () => {
    expect(run(field(rules.email()), '  ').value).toBeUndefined();
  });
});

describe('messages in both languages', () => {
  const cases: [string, string, string, string][] = [
    ['required', 'name', 'The name field is required', 'حقل الاسم مطلوب'],
    [
      'email',
      'email',
      'The email field must be a valid email',
      'يجب أن يكون حقل البريد الإلكتروني بريدًا إلكترونيًا صالحًا',
    ],
    ['min:10', 'message', 'The message field must be at least 10 characters', 'يجب ألا يقل حقل الرسالة عن 10 أحرف'],
    ['min:1', 'message', 'The message field must be at least 1 character', 'يجب ألا يقل حقل الرسالة عن حرف واحد'],
    ['min:2', 'message', 'The message field must be at least 2 characters', 'يجب ألا يقل حقل الرسالة عن حرفين'],
    ['min:11', 'message', 'The message field must be at least 11 characters', 'يجب ألا يقل حقل الرسالة عن 11 حرفًا'],
    ['alpha', 'name', 'The name field must only contain letters', 'يجب أن يحتوي حقل الاسم على حروف فقط'],
    [
      'alpha_dash',
      'name',
      'The name field must only contain letters, numbers, dashes and underscores',
      'يجب أن يحتوي حقل الاسم على حروف وأرقام وشرطات فقط',
    ],
    [
      'alpha_spaces',
      'name',
      'The name field must only contain letters and spaces',
      'يجب أن يحتوي حقل الاسم على حروف ومسافات فقط',
    ],
    [
      'numeric',
      'phone',
      'The phone number field must only contain digits',
      'يجب أن يحتوي حقل رقم الهاتف على أرقام فقط',
    ],
    ['confirmed', 'password_confirmation', 'The password confirmation does not match', 'تأكيد كلمة المرور غير مطابق'],
    ['accepted', 'terms', 'You must accept the terms of use', 'يجب الموافقة على شروط الاستخدام'],
    ['in', 'subject', 'The selected subject is invalid', 'القيمة المختارة في حقل الموضوع غير صالحة'],
    ['digits:6', 'code', 'The code field must be 6 digits', 'يجب أن يتكون حقل الرمز من 6 أرقام'],
    [
      'email-or-phone-number',
      'login',
      'The email or phone number field must be a valid email address or a phone number (+ and the country code, or 09…)',
      'يجب أن يكون حقل البريد الإلكتروني أو رقم الهاتف بريدًا إلكترونيًا صالحًا أو رقم هاتف (+ ورمز الدولة، أو \u200e09…\u200e)',
    ],
  ];
  for (const [code, fieldName, english, arabic] of cases) {
    it(`${code}`, () => {
      expect(translateError(ten, code, fieldName)).toBe(english);
      expect(translateError(tar, code, fieldName)).toBe(arabic);
    });
  }
  it('phone_number uses the message key must-be-a-valid-phone-number', () => {
    expect(translateError(ten, 'must-be-a-valid-phone-number', 'phone')).toContain('valid phone number');
    expect(translateError(tar, 'must-be-a-valid-phone-number', 'phone')).toContain('رقم هاتف صالحًا');
  });
});

describe('contact form', () => {
  const valid = {
    name: 'سالم',
    email: 'salem@example.ly',
    subject: 'general',
    message: 'السلام عليكم، عندي سؤال عن الباقات.',
  };
  const errorsOf = (input: Record<string, unknown>) => {
    const r = contactSchema.safeParse(input);
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
  };
  it('accepts a complete message', () => {
    expect(contactSchema.safeParse(valid).success).toBe(true);
  });
  it('checks each field and needs an email or a phone', () => {
    expect(errorsOf({ ...valid, name: '   ' }).name).toBe('required');
    expect(errorsOf({ ...valid, subject: 'lottery' }).subject).toBe('in');
    expect(errorsOf({ ...valid, message: 'قصير' }).message).toBe('min:10');
    expect(errorsOf({ ...valid, email: '' }).email).toBe('email-or-phone');
    expect(errorsOf({ ...valid, email: 'not-an-email' }).email).toBe('email');
    expect(contactSchema.parse({ ...valid, email: '', phone: '+218 (91) 234 5678' }).phone).toBe('+218912345678');
  });
});
