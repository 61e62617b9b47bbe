// Error codes of the validation rules (./rules.ts: "required", "min:10") in the visitor's words.
// Kept apart from the rules, which need Zod: a page that only shows the server's verdict (the ad
// page's forms) loads neither Zod nor Conform in the browser.
import type { TFunction } from '~/i18n/translator.ts';

/** The words for an error code, naming the field in the same language. */
export function translateError(t: TFunction, code: string, field: string): string {
  const [key, arg] = code.split(':');
  const fieldLabel = t(`validation:fields.${field}`, { defaultValue: field });
  const values = { field: fieldLabel, count: arg ? Number(arg) : undefined, value: arg };
  // Domain refusals (e.g. email-already-in-use) are worded in the errors namespace.
  return t(`validation:${key}`, { ...values, defaultValue: t(`errors:${key}`, values) });
}
