// Arabic-aware text normalisation (docs/product/search.md), the one function applied to indexed text and to
// queries alike, so spellings that Libyan users treat as the same match each other:
// alef forms (أ إ آ ٱ → ا), taa marbuta (ة → ه), alef maqsura (ى → ي), no tatweel or harakat,
// Arabic-Indic and Persian digits as Latin digits, Latin case-folded, presentation forms unfolded.

import { latinDigits } from '../../../app/lib/digits.ts';

const HARAKAT_AND_TATWEEL = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g;
const ALEF_FORMS = /[\u0622\u0623\u0625\u0671]/g;
/** Anything that is neither a letter nor a digit separates words. */
const SEPARATORS = /[^\p{L}\p{N}]+/gu;

/** The normalised words of `text`, joined by single spaces (empty for no words). */
export function normalizeText(text: string): string {
  return (
    // The digits as every form field reads them (validation/rules.ts).
    latinDigits(text)
      // Presentation forms (ﻻ, ﺃ…) and full-width Latin to their plain letters.
      .normalize('NFKC')
      .toLowerCase()
      .replace(HARAKAT_AND_TATWEEL, '')
      .replace(ALEF_FORMS, 'ا')
      .replace(/\u0629/g, 'ه')
      .replace(/\u0649/g, 'ي')
      .replace(SEPARATORS, ' ')
      .trim()
  );
}

/** The normalised words of `text` (what the index stores and a query looks for). */
export function searchTerms(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized ? normalized.split(' ') : [];
}

/**
 * Whether normalised text has a form of every word of `terms` (./analyzer.ts), the last word's
 * first form as the start of a word: the rule of the text index (FTS5 on SQLite, the tsquery on
 * PostgreSQL), for a few ads in hand.
 */
export function textHasTerms(terms: readonly (readonly string[])[], text: string): boolean {
  if (terms.length === 0) return false;
  const words = new Set(text.split(' '));
  for (let i = 0; i < terms.length - 1; i++)
    if (!(terms[i] as readonly string[]).some((f) => words.has(f))) return false;
  const [prefix, ...exact] = terms[terms.length - 1] as readonly string[];
  if (exact.some((f) => words.has(f))) return true;
  for (const w of words) if (prefix !== undefined && w.startsWith(prefix)) return true;
  return false;
}
