// Arabic-aware text normalisation (docs/product/search.md): the one function applied to indexed text and to
// queries alike lives in app/lib/normalize-text.ts (the browser filters lists with it too); here,
// the words it gives and the test of a few ads against a query's words.

import { normalizeText } from '../../../app/lib/normalize-text.ts';

export { normalizeText };

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
  return hasTextTerms(terms, wordSet(text));
}

/** The words of normalised text, for `hasTextTerms` (one ad asked about many queries). */
export const wordSet = (text: string): ReadonlySet<string> => new Set(text.split(' '));

/** `textHasTerms` over the words of the text (`wordSet`). */
export function hasTextTerms(terms: readonly (readonly string[])[], words: ReadonlySet<string>): boolean {
  if (terms.length === 0) return false;
  for (let i = 0; i < terms.length - 1; i++)
    if (!(terms[i] as readonly string[]).some((f) => words.has(f))) return false;
  const [prefix, ...exact] = terms[terms.length - 1] as readonly string[];
  if (exact.some((f) => words.has(f))) return true;
  for (const w of words) if (prefix !== undefined && w.startsWith(prefix)) return true;
  return false;
}
