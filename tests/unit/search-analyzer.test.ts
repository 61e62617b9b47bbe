// The forms search matches a word on (server/domain/search/analyzer.ts), after the normaliser.
import { describe, expect, it } from 'vitest';
import { joinSplitWords, queryWords, stem, textTerms } from '../../server/domain/search/analyzer.ts';
import { normalizeText, searchTerms } from '../../server/domain/search/normalize.ts';

/** The stem of a word as typed (normalised first, as index and query both do). */
const stemOf = (typed: string) => stem(normalizeText(typed));

describe('search analyzer', () => {
  it('gives a singular and its plurals one stem, broken plurals included', () => {
    for (const [singular, ...plurals] of [
      ['شقة', 'شقق', 'الشقق', 'للشقق'],
      ['فيلا', 'فلل'],
      ['أرض', 'أراضي', 'الأراضي'],
      ['سيارة', 'سيارات', 'السيارات', 'والسيارات'],
      ['هاتف', 'هواتف'],
      ['محل', 'محلات'],
      ['منزل', 'منازل'],
      ['وظيفة', 'وظائف'],
      ['عطر', 'عطور'],
      ['قطة', 'قطط'],
      ['مكيف', 'مكيفات'],
      ['ثلاجة', 'ثلاجات'],
      ['لابتوب', 'لابتوبات'],
      ['شاحنة', 'شاحنات'],
      ['car', 'cars'],
      ['apartment', 'apartments'],
      ['battery', 'batteries'],
      ['watch', 'watches'],
    ] as const) {
      for (const plural of plurals) expect(stemOf(plural), `${plural} → ${singular}`).toBe(stemOf(singular));
    }
  });

  it('takes the article and fused prepositions off, keeping short words whole', () => {
    expect(stemOf('للبيع')).toBe(stemOf('بيع'));
    expect(stemOf('البيع')).toBe(stemOf('بيع'));
    expect(stemOf('للإيجار')).toBe(stemOf('إيجار'));
    expect(stemOf('بالسيارة')).toBe(stemOf('سيارة'));
    // Two letters stay: "ال" is not taken off "الم" or "الي", nor "و" off a three-letter word.
    expect(stemOf('ولد')).toBe('ولد');
    expect(stemOf('وزن')).toBe('وزن');
    expect(stemOf('الم')).toBe('الم');
  });

  it('writes the spellings of one brand or thing one way', () => {
    expect(new Set(['ايفون', 'آيفون', 'أيفون', 'إيفون'].map(stemOf)).size).toBe(1);
    expect(stemOf('مارسيدس')).toBe(stemOf('مرسيدس'));
    expect(stemOf('هونداي')).toBe(stemOf('هيونداي'));
    expect(stemOf('هوندا')).not.toBe(stemOf('هيونداي'));
    expect(stemOf('حوش')).toBe(stemOf('منزل'));
    expect(stemOf('موبايل')).toBe(stemOf('هاتف'));
    expect(stemOf('Mercedes')).toBe(stemOf('mercedes'));
  });

  it('joins the two-word spellings of one word', () => {
    expect(joinSplitWords(searchTerms('لاب توب مستعمل'))).toEqual(['لابتوب', 'مستعمل']);
    expect(joinSplitWords(searchTerms('Play Station 5'))).toEqual(['playstation', '5']);
    expect(joinSplitWords(searchTerms('لاب'))).toEqual(['لاب']);
  });

  it('leaves out the words that only say how, unless nothing else is left', () => {
    expect(queryWords(searchTerms('شقة في طرابلس'))).toEqual(['شقه', 'طرابلس']);
    expect(queryWords(searchTerms('apartment in the centre'))).toEqual(['apartment', 'centre']);
    expect(queryWords(searchTerms('في'))).toEqual(['في']);
  });

  it('reads the names of object properties as words', () => {
    for (const word of ['constructor', '__proto__', 'tostring', 'hasownproperty', 'valueof']) {
      expect(typeof stem(word), word).toBe('string');
      expect(
        textTerms([word])
          .flat()
          .every((f) => typeof f === 'string'),
        word,
      ).toBe(true);
    }
    expect(joinSplitWords(['constructor', 'x'])).toEqual(['constructor', 'x']);
  });

  it('keeps numbers, codes and mixed words as they are', () => {
    for (const word of ['2015', 'ps5', 'i7', 'x5', 'rav4']) expect(stem(word)).toBe(word);
  });
});
