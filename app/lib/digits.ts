// Digits as people type them on Libyan phones: Arabic-Indic (٠-٩) or Persian (۰-۹) digits, the
// Arabic decimal point and group separators. Free of the validation library: the search query
// model reads numbers with it on every page.

const ARABIC_INDIC = /[\u0660-\u0669\u06f0-\u06f9]/g;

/** Arabic-Indic (٠-٩) and Persian (۰-۹) digits → 0-9. */
export function latinDigits(value: string): string {
  return value.replace(ARABIC_INDIC, (d) => String(d.charCodeAt(0) & 0xf));
}

/** A typed number as the form reads it: Latin digits, `٫` as the decimal point, no group separators. */
export const normaliseNumber = (typed: string) =>
  latinDigits(typed)
    .replace('٫', '.')
    .replace(/[\s,٬]/g, '');
