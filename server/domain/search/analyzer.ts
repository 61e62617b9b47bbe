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
// Maps, not objects: a word such as "constructor" must not find Object.prototype's.
const BROKEN_PLURALS: ReadonlyMap<string, string> = new Map(
  Object.entries({
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
  }),
);

/**
 * One spelling for words written several ways (normalised), and the Libyan word for a thing to the
 * word the catalogue uses. Brand names people write in Arabic letters map to the catalogue's own
 * Arabic label, which every ad under that brand carries.
 */
const SPELLINGS: ReadonlyMap<string, string> = new Map(
  Object.entries({
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
  }),
);

/** Two-word spellings of one word (normalised words joined by a space), to that word. */
const JOINED: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'لاب توب': 'لابتوب',
    'لابت وب': 'لابتوب',
    'بلاي ستيشن': 'بلايستيشن',
    'play station': 'playstation',
    'i phone': 'iphone',
  }),
);

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

/** Whether a normalised word only says how, not what (STOP_WORDS). */
export const isStopWord = (word: string): boolean => STOP_WORDS.has(word);

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
export const canonicalSpelling = (word: string): string => SPELLINGS.get(word) ?? word;

/**
 * The stem of a normalised word: what it matches on besides itself. Broken plurals and other
 * spellings go to their singular first; words of digits, or of mixed scripts, stay as they are.
 */
export function stem(word: string): string {
  const w = canonicalSpelling(word);
  const singular = BROKEN_PLURALS.get(w);
  if (singular !== undefined) return arabicStem(singular);
  if (ARABIC_LETTERS.test(w)) {
    // A word that starts with the article or a fused preposition may be a broken plural behind it.
    for (const p of ARABIC_PREFIXES) {
      const rest = w.startsWith(p) ? BROKEN_PLURALS.get(w.slice(p.length)) : undefined;
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
    const joined = i + 1 < words.length ? JOINED.get(pair) : undefined;
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

/**
 * A query's words for the text index: each with the forms that match it — the word as typed
 * (normalised), its usual spelling, its stem, and near spellings of the catalogue's words (see
 * `nearWords`) — every word must match by one of its forms; the last word's first form matches as
 * a prefix (the person may still be typing it).
 */
export type TextTerms = string[][];

/** The text index's terms of a query (normalised first); `vocabulary` adds near spellings of its words. */
export function textTerms(words: readonly string[], vocabulary?: Vocabulary): TextTerms {
  return queryWords(words).map((word) => {
    const forms = [word, canonicalSpelling(word), stem(word)];
    if (vocabulary) for (const near of vocabulary.near(word)) forms.push(near, stem(near));
    return [...new Set(forms)];
  });
}

/** Words at most this far apart (one letter added, dropped, changed or two swapped) count as the same spelling. */
const NEAR = 1;
/** Shorter words are too easily another word by one letter. */
const NEAR_FROM = 4;

/**
 * The catalogue's words (names of categories, options, cities, normalised): a word of a query that
 * is not one of them but is one letter from one of them is taken as a misspelling of it (تيوتا →
 * تويوتا, شفروليه → شيفروليه).
 */
export class Vocabulary {
  readonly #words: ReadonlySet<string>;
  /** Words by their length, to look only at those within NEAR letters of a word's. */
  readonly #byLength = new Map<number, string[]>();

  constructor(words: Iterable<string>) {
    this.#words = new Set(words);
    for (const w of this.#words) {
      if (w.length < NEAR_FROM - NEAR) continue;
      this.#byLength.set(w.length, [...(this.#byLength.get(w.length) ?? []), w]);
    }
  }

  /** The catalogue's words a misspelt `word` may mean; none when it is one of them, short, or has digits. */
  near(word: string): string[] {
    const w = canonicalSpelling(word);
    if (w.length < NEAR_FROM || this.#words.has(w) || /\d/.test(w)) return [];
    const out: string[] = [];
    for (let len = w.length - NEAR; len <= w.length + NEAR; len++) {
      for (const candidate of this.#byLength.get(len) ?? []) if (withinOneEdit(w, candidate)) out.push(candidate);
    }
    return out;
  }
}

/** Whether a and b differ by at most one letter added, dropped or changed, or two neighbours swapped. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
