// Arabic-aware text normalisation (docs/product/search.md), the one function applied to indexed
// text and to queries alike (server/domain/search/normalize.ts), and in the browser to the lists a
// buyer filters as they type (app/components/search/facet-list.tsx), so spellings that Libyan users
// treat as the same match each other: alef forms (أ إ آ ٱ → ا), taa marbuta (ة → ه), alef maqsura
// (ى → ي), no tatweel or harakat, Arabic-Indic and Persian digits as Latin digits, Latin
// case-folded, presentation forms unfolded.

import { latinDigits } from './digits.ts';

const HARAKAT_AND_TATWEEL = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g;
const ALEF_FORMS = /[\u0622\u0623\u0625\u0671]/g;
/** Anything that is neither a letter nor a digit separates words. */
const SEPARATORS = /[^\p{L}\p{N}]+/gu;

/** The normalised words of `text`, joined by single spaces (empty for no words). */
export function normalizeText(text: string): string {
  return (
    // The digits as every form field reads them (app/lib/validation/rules.ts).
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
