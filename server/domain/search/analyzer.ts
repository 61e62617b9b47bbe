// How a word of an ad or a query becomes the forms search matches on (docs/product/search.md,
// "What a word matches"), applied alike at index and query time. After the normaliser
// (./normalize.ts: alef forms, taa marbuta as haa, alef maqsura as yaa, digits, case):
//
// - Arabic light stemming in the manner of the light stemmers used in Arabic retrieval (Larkey et
//   al.): the article and the conjunctions and prepositions fused with it are taken off the front
//   (ال وال بال كال فال لل, and و before a long enough word), then the common suffixes off the end
//   (ها ان ات ون ين يه ه ي), each only while at least two letters remain;
// - broken plurals, which no suffix rule reaches, through a lexicon of the catalogue's words
//   (شقق → شقه, فلل → فيلا, اراضي → ارض…);
// - Latin words lose a plural ending (cars → car, batteries → battery);
// - spellings people use for the same thing are written one way first (مارسيدس → مرسيدس,
//   هونداي → هيونداي, the Libyan حوش → منزل), and two-word spellings of one word are joined
//   (لاب توب → لابتوب).

/** Broken plurals (normalised) of the catalogue's words, to their singular (normalised). */
const BROKEN_PLURALS: Readonly<Record<string, string>> = {
  شقق: 'شقه',
  فلل: 'فيلا',
  فلات: 'فيلا',
  اراضي: 'ارض',
  اراض: 'ارض',
  منازل: 'منزل',
  بيوت: 'بيت',
  محلات: 'محل',
  مزارع: 'مزرعه',
  مكاتب: 'مكتب',
  غرف: 'غرفه',
  هواتف: 'هاتف',
  اجهزه: 'جهاز',
  وظائف: 'وظيفه',
  عطور: 'عطر',
  قطط: 'قطه',
  كلاب: 'كلب',
  طيور: 'طير',
  خيول: 'خيل',
  اسماك: 'سمك',
  كتب: 'كتاب',
  قوارب: 'قارب',
  حقائب: 'حقيبه',
  احذيه: 'حذاء',
  ملابس: 'لباس',
  العاب: 'لعبه',
  ادوات: 'اداه',
  قطع: 'قطعه',
  دروس: 'درس',
  سيارات: 'سياره',
};

/**
 * One spelling for words written several ways (normalised), and the Libyan word for a thing to the
 * word the catalogue uses. Brand names people write in Arabic letters map to the catalogue's own
 * Arabic label, which every ad under that brand carries.
 */
const SPELLINGS: Readonly<Record<string, string>> = {
  مارسيدس: 'مرسيدس',
  مرسيدس: 'مرسيدس',
  هونداي: 'هيونداي',
  هيونداي: 'هيونداي',
  ايفون: 'ايفون',
  ابل: 'ابل',
  جالاكسي: 'جالكسي',
  سامسونغ: 'سامسونج',
  شيفروليت: 'شيفروليه',
  شفر: 'شيفروليه',
  حوش: 'منزل',
  موبايل: 'هاتف',
  موبايلات: 'هاتف',
  جوال: 'هاتف',
  تلفون: 'هاتف',
  تليفون: 'هاتف',
  بسكليته: 'دراجه',
  بلاستيشن: 'بلايستيشن',
  mobile: 'phone',
  cellphone: 'phone',
  notebook: 'laptop',
  merc: 'mercedes',
  benz: 'mercedes',
};

/** Two-word spellings of one word (normalised words joined by a space), to that word. */
const JOINED: Readonly<Record<string, string>> = {
  'لاب توب': 'لابتوب',
  'لابت وب': 'لابتوب',
  'بلاي ستيشن': 'بلايستيشن',
  'play station': 'playstation',
  'i phone': 'iphone',
};

/** Words a query can leave out: they say how, not what (kept when they are all it has). */
const STOP_WORDS = new Set([
  'في',
  'من',
  'على',
  'علي',
  'الى',
  'الي',
  'عن',
  'مع',
  'او',
  'و',
  'يا',
  'the',
  'a',
  'an',
  'in',
  'at',
  'of',
  'with',
  'and',
  'or',
]);

const ARABIC_PREFIXES = ['وال', 'بال', 'كال', 'فال', 'لل', 'ال'];
const ARABIC_SUFFIXES = ['ها', 'ان', 'ات', 'ون', 'ين', 'يه', 'ه', 'ي'];
const ARABIC_LETTERS = /^[\u0621-\u064a]+$/;
const LATIN_LETTERS = /^[a-z]+$/;

/** The light stem of a normalised Arabic word. */
function arabicStem(word: string): string {
  let w = word;
  for (const p of ARABIC_PREFIXES) {
    if (w.startsWith(p) && w.length - p.length >= 2) {
      w = w.slice(p.length);
      break;
    }
  }
  // و fuses with words too ("وسياره"), but starts many words of its own: only before three letters.
  if (w.startsWith('و') && w.length >= 4 && w === word) w = w.slice(1);
  for (const s of ARABIC_SUFFIXES) {
    if (w.endsWith(s) && w.length - s.length >= 2) w = w.slice(0, -s.length);
  }
  return w;
}

/** A Latin word without its plural ending (a minimal stemmer: only what plurals do). */
function latinStem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (/(?:xes|ches|shes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** A normalised word as it is spelled most often (SPELLINGS), or itself. */
export const canonicalSpelling = (word: string): string => SPELLINGS[word] ?? word;

/**
 * The stem of a normalised word: what it matches on besides itself. Broken plurals and other
 * spellings go to their singular first; words of digits, or of mixed scripts, stay as they are.
 */
export function stem(word: string): string {
  const w = canonicalSpelling(word);
  const singular = BROKEN_PLURALS[w];
  if (singular !== undefined) return arabicStem(singular);
  if (ARABIC_LETTERS.test(w)) {
    // A word that starts with the article or a fused preposition may be a broken plural behind it.
    for (const p of ARABIC_PREFIXES) {
      const rest = w.startsWith(p) ? BROKEN_PLURALS[w.slice(p.length)] : undefined;
      if (rest !== undefined) return arabicStem(rest);
    }
    return arabicStem(w);
  }
  return LATIN_LETTERS.test(w) ? latinStem(w) : w;
}

/** Normalised words with the two-word spellings of one word joined (JOINED). */
export function joinSplitWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const pair = `${words[i]} ${words[i + 1]}`;
    const joined = i + 1 < words.length ? JOINED[pair] : undefined;
    if (joined !== undefined) {
      out.push(joined);
      i++;
    } else out.push(words[i] as string);
  }
  return out;
}

/** The words of a query that say what is wanted: stop words left out unless nothing else is left. */
export function queryWords(words: readonly string[]): string[] {
  const joined = joinSplitWords(words);
  const kept = joined.filter((w) => !STOP_WORDS.has(w));
  return kept.length > 0 ? kept : joined;
}
