// Suggestions while a search is typed (docs/product/search.md, "Suggestions"): up to
// SUGGESTIONS_MAX for what has been typed so far, from two sources only, both in memory —
//
// - the catalogue snapshot (./catalogue.ts): categories whose names start with the last word typed
//   (with their published-ad counts from the ad index), and completions from the names of
//   categories and the labels of attribute options, in Arabic and English;
// - the frequent words of published ads' titles (TitleWords below): a word counts once per ad and
//   is offered only when at least TITLE_WORD_MIN_ADS ads use it and it has no digits.
//
// Never what other people typed. Text is read by the search's own normaliser (./normalize.ts), so
// "آيفون", "ايفون" and "أيفون" are one word, and the last word typed matches as a prefix.
import { type Locale, localizePath } from '../../../app/i18n/config.ts';
import { cleanText, queryWith, searchString } from '../../../app/lib/search-query.ts';
import type { DatabaseHandle } from '../../db/index.ts';
import type { AdIndex } from './ad-index.ts';
import { canonicalSpelling, isStopWord, stem } from './analyzer.ts';
import type { CatalogueSnapshot } from './catalogue.ts';
import { normalizeText } from './normalize.ts';
import { searchEngine } from './service.ts';

/** Suggestions in one answer. */
export const SUGGESTIONS_MAX = 8;
/** Of them, categories at most. */
const CATEGORIES_MAX = 3;
/** Title words kept: the most used. */
export const TITLE_WORDS_TOP = 5000;
/** A title word is offered only when at least this many published ads use it (never one person's word). */
export const TITLE_WORD_MIN_ADS = 3;
/** Title words are counted again after this long (ads changed meanwhile show in the next count). */
export const TITLE_WORDS_TTL_MS = 10 * 60_000;
/** Titles read per database query while counting. */
const TITLE_BATCH = 20_000;

export interface Suggestion {
  /** `category`: a category's page (with the rest of the text, if any); `query`: a search for `text`. */
  kind: 'category' | 'query';
  /** What the list shows: the category's name, or the completed text. */
  label: string;
  /** For a category: the category above it (or its taxonomy), in the answer's language. */
  context: string | null;
  /** For a category without other words: its published ads. */
  count: number | null;
  /** The text the search box takes when the suggestion is picked. */
  text: string;
  /** Where picking it leads: a canonical page path in the answer's language. */
  href: string;
}

/** A word of the catalogue's vocabulary or of titles, normalised, with its stem. */
interface Word {
  word: string;
  stem: string;
}

interface Phrase {
  words: Word[];
  /** Its normalised words, joined by spaces. */
  key: string;
  /** By word index, the normalised words before it, joined by spaces. */
  leads: string[];
  /** As shown (the catalogue's own spelling). */
  label: string;
}

interface CategoryEntry {
  id: number;
  /** Words of its own names, both languages. */
  own: Word[];
  /** Words (and stems) of its names, those above it and its taxonomy's. */
  chain: ReadonlySet<string>;
}

interface Vocabulary {
  phrases: Phrase[];
  categories: CategoryEntry[];
}

const wordsOf = (text: string): Word[] =>
  normalizeText(text)
    .split(' ')
    .filter((w) => w !== '')
    .map((word) => ({ word, stem: stem(word) }));

const vocabularies = new WeakMap<CatalogueSnapshot, Vocabulary>();

/** The catalogue's phrases and categories as suggestions read them (once per snapshot). */
function vocabularyOf(catalogue: CatalogueSnapshot): Vocabulary {
  let v = vocabularies.get(catalogue);
  if (v) return v;
  const phrases = new Map<string, Phrase>();
  const add = (label: string) => {
    const words = wordsOf(label);
    const key = words.map((w) => w.word).join(' ');
    if (key === '' || phrases.has(key)) return;
    const leads = words.map((_, i) =>
      words
        .slice(0, i)
        .map((w) => w.word)
        .join(' '),
    );
    phrases.set(key, { words, key, leads, label: label.trim() });
  };
  const categories: CategoryEntry[] = [];
  for (const c of catalogue.categoryById.values()) {
    add(c.name_ar);
    add(c.name_en);
    const chain = new Set<string>();
    const taxonomy = catalogue.taxonomyById.get(c.taxonomy_id);
    const names = taxonomy ? [taxonomy.name_ar, taxonomy.name_en] : [];
    for (let at: typeof c | undefined = c; at; ) {
      names.push(at.name_ar, at.name_en);
      at = at.parent_id === null ? undefined : catalogue.categoryById.get(at.parent_id);
    }
    for (const w of wordsOf(names.join(' '))) chain.add(w.word).add(w.stem);
    categories.push({ id: c.id, own: wordsOf(`${c.name_ar} ${c.name_en}`), chain });
  }
  for (const a of catalogue.attributeById.values()) {
    if (a.type !== 'select' && a.type !== 'multiselect') continue;
    for (const o of a.options) {
      add(o.ar);
      add(o.en);
    }
  }
  v = { phrases: [...phrases.values()], categories };
  vocabularies.set(catalogue, v);
  return v;
}

/** The frequent words of published ads' titles: normalised word → ads using it, and its usual spelling. */
export class TitleWords {
  readonly words: { word: string; stem: string; label: string; ads: number }[];
  readonly #ads: Map<string, number>;

  constructor(words: { word: string; label: string; ads: number }[]) {
    this.words = words.map((w) => ({ ...w, stem: stem(w.word) }));
    this.#ads = new Map(words.map((w) => [w.word, w.ads]));
  }

  /** Published ads whose title has this normalised word (0 when it is not a frequent one). */
  ads(word: string): number {
    return this.#ads.get(word) ?? 0;
  }
}

const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * Counts the words of published ads' titles, TITLE_BATCH ads a query, the event loop free between
 * batches: each word once per ad; kept when TITLE_WORD_MIN_ADS ads or more use it, it has a letter
 * and no digit, and is no stop word; the TITLE_WORDS_TOP most used.
 */
export async function countTitleWords(handle: DatabaseHandle): Promise<TitleWords> {
  const { db } = handle;
  const bounds = await db
    .selectFrom('ads')
    .select((eb) => [eb.fn.min('id').as('lo'), eb.fn.max('id').as('hi')])
    .where('status', '=', 'published')
    .executeTakeFirst();
  const counts = new Map<string, { ads: number; spellings: Map<string, number> }>();
  const lo = Number(bounds?.lo ?? 0);
  const hi = Number(bounds?.hi ?? -1);
  for (let from = lo; from <= hi; from += TITLE_BATCH) {
    const rows = await db
      .selectFrom('ads')
      .select('title')
      .where('status', '=', 'published')
      .where('id', '>=', from)
      .where('id', '<', from + TITLE_BATCH)
      .execute();
    for (const { title } of rows) {
      const seen = new Set<string>();
      for (const spelling of title.split(SEPARATORS)) {
        if (spelling.length < 2 || /\p{N}/u.test(spelling)) continue;
        const word = normalizeText(spelling);
        if (word.length < 2 || word.includes(' ') || seen.has(word) || isStopWord(word)) continue;
        seen.add(word);
        let entry = counts.get(word);
        if (!entry) {
          entry = { ads: 0, spellings: new Map() };
          counts.set(word, entry);
        }
        entry.ads++;
        entry.spellings.set(spelling, (entry.spellings.get(spelling) ?? 0) + 1);
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  const kept = [...counts]
    .filter(([, e]) => e.ads >= TITLE_WORD_MIN_ADS)
    .sort((a, b) => b[1].ads - a[1].ads || (a[0] < b[0] ? -1 : 1))
    .slice(0, TITLE_WORDS_TOP);
  return new TitleWords(
    kept.map(([word, e]) => {
      // Shown as most titles write it.
      let label = word;
      let most = 0;
      for (const [spelling, n] of e.spellings) {
        if (n > most) {
          label = spelling;
          most = n;
        }
      }
      return { word, label, ads: e.ads };
    }),
  );
}

interface TitleWordsState {
  at: number;
  value: TitleWords | null;
  counting: Promise<void> | null;
}
const titleWordsOf = new WeakMap<DatabaseHandle, TitleWordsState>();

/**
 * The title words of a database as counted last: counted in the background at the first call and
 * again once TITLE_WORDS_TTL_MS old (the previous count answers meanwhile; none before the first).
 */
export function titleWords(handle: DatabaseHandle): TitleWords | null {
  let state = titleWordsOf.get(handle);
  if (!state) {
    state = { at: 0, value: null, counting: null };
    titleWordsOf.set(handle, state);
  }
  const s = state;
  if (!s.counting && Date.now() - s.at > TITLE_WORDS_TTL_MS) {
    s.counting = countTitleWords(handle)
      .then(
        (value) => {
          s.value = value;
          s.at = Date.now();
        },
        () => {
          // Tried again at the next call; the last count (if any) answers meanwhile.
        },
      )
      .finally(() => {
        s.counting = null;
      });
  }
  return s.value;
}

/** Waits for a count of the title words under way (tests, the bench). */
export async function titleWordsReady(handle: DatabaseHandle): Promise<TitleWords | null> {
  titleWords(handle);
  await titleWordsOf.get(handle)?.counting;
  return titleWords(handle);
}

/** Published ads by category id, each with every category below it. */
function adsByCategory(index: AdIndex, catalogue: CatalogueSnapshot): Uint32Array {
  const own = new Uint32Array(catalogue.categorySpan);
  const rows = Math.min(index.byCategoryCity.rows, own.length);
  for (let c = 0; c < rows; c++) {
    const byCity = index.byCategoryCity.row(c);
    let n = 0;
    for (let i = 0; i < byCity.length; i++) n += byCity[i] as number;
    own[c] = n;
  }
  const total = new Uint32Array(catalogue.categorySpan);
  for (const c of catalogue.categoryById.values()) {
    let n = 0;
    for (const id of c.subtree) n += own[id] ?? 0;
    total[c.id] = n;
  }
  return total;
}

/** The forms of the last word that a word of a suggestion may start with. */
function prefixForms(last: string): string[] {
  const forms = new Set([last, canonicalSpelling(last)]);
  // "السي…" completes "سيارات" as well as "السيارات".
  if (last.startsWith('ال') && last.length > 3) forms.add(last.slice(2));
  return [...forms];
}

/** Whether a word completes the last word typed: starts with one of its forms, or is the same word (stem). */
function completes(w: Word, forms: string[], lastStem: string): boolean {
  for (const f of forms) if (w.word.startsWith(f)) return true;
  return lastStem.length >= 3 && w.stem === lastStem;
}

/**
 * Up to SUGGESTIONS_MAX suggestions for `typed` in `locale`: categories first (most ads first, at
 * most CATEGORIES_MAX), then completions of the last word from the catalogue and the title words
 * (a word that starts the phrase first, then the most used, then the shortest). Empty for text
 * without words.
 */
export function suggestFrom(
  catalogue: CatalogueSnapshot,
  index: AdIndex | null,
  titles: TitleWords | null,
  typed: string,
  locale: Locale,
): Suggestion[] {
  const tokens = typed.trim().split(/\s+/);
  const words = normalizeText(typed)
    .split(' ')
    .filter((w) => w !== '');
  const last = words.at(-1);
  if (last === undefined) return [];
  const before = words.slice(0, -1);
  // The text before the last word as typed.
  const typedBefore = tokens.slice(0, -1).join(' ');
  const forms = prefixForms(last);
  const lastStem = stem(last);
  const vocabulary = vocabularyOf(catalogue);
  const name = (r: { name_ar: string; name_en: string }) => (locale === 'ar' ? r.name_ar : r.name_en);
  const out: Suggestion[] = [];

  // Categories whose own names the last word starts.
  const counts = index ? adsByCategory(index, catalogue) : null;
  const categories = vocabulary.categories
    .filter((c) => c.own.some((w) => completes(w, forms, lastStem)) && (counts?.[c.id] ?? 0) > 0)
    .sort((a, b) => (counts?.[b.id] ?? 0) - (counts?.[a.id] ?? 0) || a.id - b.id)
    .slice(0, CATEGORIES_MAX);
  for (const entry of categories) {
    const c = catalogue.categoryById.get(entry.id);
    const taxonomy = c && catalogue.taxonomyById.get(c.taxonomy_id);
    if (!c || !taxonomy) continue;
    // The words before that the category's names do not say stay as text within it.
    const rest = before.every((w) => entry.chain.has(w) || entry.chain.has(stem(w))) ? null : typedBefore;
    const parent = c.parent_id === null ? taxonomy : catalogue.categoryById.get(c.parent_id);
    const query = queryWith({ q: rest, category: c.slug });
    out.push({
      kind: 'category',
      label: name(c),
      context: parent ? name(parent) : null,
      count: rest === null ? (counts?.[c.id] ?? 0) : null,
      text: rest === null ? name(c) : `${rest} ${name(c)}`,
      href: localizePath(`/${taxonomy.slug}/${c.slug}`, locale) + searchString(query, 1, { category: true }),
    });
  }

  // Completions: catalogue phrases and title words with a word the last word completes.
  interface Candidate {
    key: string;
    label: string;
    /** How many of the phrase's words come before the one completed. */
    lead: number;
    /** Those words are the last words typed before it ("لاند كر" → "لاند كروزر"): they are not repeated. */
    continues: boolean;
    ads: number;
    catalogue: boolean;
  }
  const candidates = new Map<string, Candidate>();
  const consider = (c: Candidate) => {
    const had = candidates.get(c.key);
    if (!had) candidates.set(c.key, c);
    else if (c.catalogue && !had.catalogue) candidates.set(c.key, { ...c, ads: Math.max(c.ads, had.ads) });
  };
  const typedBeforeKey = before.join(' ');
  for (const p of vocabulary.phrases) {
    const { words } = p;
    let at = -1;
    for (let i = 0; i < words.length; i++) {
      if (completes(words[i] as Word, forms, lastStem)) {
        at = i;
        break;
      }
    }
    if (at < 0) continue;
    const lead = at === 0 ? '' : (p.leads[at] as string);
    consider({
      key: p.key,
      label: p.label,
      lead: at,
      continues: at > 0 && (typedBeforeKey === lead || typedBeforeKey.endsWith(` ${lead}`)),
      ads: titles?.ads((words[at] as Word).word) ?? 0,
      catalogue: true,
    });
  }
  for (const w of titles?.words ?? []) {
    if (!completes(w, forms, lastStem)) continue;
    consider({ key: w.word, label: w.label, lead: 0, continues: false, ads: w.ads, catalogue: false });
  }
  // A phrase that continues the words typed first, then one whose first word is completed, then the
  // words most titles use, the shortest, the catalogue's.
  const ranked = [...candidates.values()].sort(
    (a, b) =>
      Number(b.continues) - Number(a.continues) ||
      Number(b.lead === 0) - Number(a.lead === 0) ||
      b.ads - a.ads ||
      a.label.length - b.label.length ||
      Number(b.catalogue) - Number(a.catalogue) ||
      (a.key < b.key ? -1 : 1),
  );
  const seen = new Set(out.map((s) => normalizeText(s.text)));
  for (const c of ranked) {
    if (out.length >= SUGGESTIONS_MAX) break;
    const kept = c.continues ? tokens.slice(0, -1 - c.lead) : tokens.slice(0, -1);
    const text = cleanText([...kept, c.label].join(' ')) ?? c.label;
    const key = normalizeText(text);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      kind: 'query',
      label: text,
      context: null,
      count: null,
      text,
      href: localizePath('/posts', locale) + searchString(queryWith({ q: text })),
    });
  }
  return out;
}

/** When each database's index was last asked to catch up by a suggestion. */
const caughtUp = new WeakMap<DatabaseHandle, number>();
/** The counts of suggestions may be this far behind the ads (a catch-up is asked for meanwhile). */
const CATCH_UP_EVERY_MS = 1000;

/**
 * Suggestions for `typed` from a database's catalogue snapshot, ad index and title words. The
 * index answers as it stands; at most once a second a catch-up with the ads written since is
 * started beside the answer (not waited for), so its counts follow writes on a quiet site too.
 */
export async function suggest(handle: DatabaseHandle, typed: string, locale: Locale): Promise<Suggestion[]> {
  if (normalizeText(typed) === '') return [];
  const engine = searchEngine(handle);
  const now = Date.now();
  if (now - (caughtUp.get(handle) ?? 0) > CATCH_UP_EVERY_MS) {
    caughtUp.set(handle, now);
    engine.index().catch(() => {});
  }
  const [catalogue, index] = await Promise.all([engine.catalogue(), engine.current()]);
  return suggestFrom(catalogue, index, titleWords(handle), typed, locale);
}
