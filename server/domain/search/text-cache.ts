// The text candidates of recent queries, kept up to date instead of read again (docs/search-index-notes.md): a
// marketplace's searches repeat (تويوتا, شقة, هيونداي…), and the newest 10 000 matches of a common
// word cost a million-ad database about a millisecond on SQLite and several on PostgreSQL, every
// time. An entry holds a query's candidate ids as the database gave them; the search engine tells
// the cache which ads each of its catch-ups re-read (every ad written since, text or not), and an
// entry asked for again first re-checks those ads' text, read by id, against its words — the
// index's own rule (`textHasTerms`). What the log no longer reaches, or would take too long to
// re-check, is read from the database again. Relevance scores are not kept: only ids.
import type { TextCandidates } from '../../db/text-search.ts';
import type { TextTerms } from './analyzer.ts';
import { textHasTerms } from './normalize.ts';

/** Where the cache reads what it does not hold. */
export interface TextSource {
  /** The candidates of a query's terms (./analyzer.ts), at most `cap`. */
  candidates(terms: TextTerms, cap: number): Promise<TextCandidates>;
  /** The indexed text of these ads (every column, normalised); ads without any are left out. */
  texts(ids: number[]): Promise<{ id: number; text: string }[]>;
}

export interface TextCacheLimits {
  /** Queries kept (least recently asked leave first). */
  entries: number;
  /** Fewer matches than this are read from the database every time (cheap, not worth the memory). */
  from: number;
  /** Changed ads the log remembers; an entry older than the log is read again. */
  log: number;
  /** Changed ads re-checked at most for one entry; more, and it is read again. */
  recheck: number;
}

export const TEXT_CACHE_LIMITS: TextCacheLimits = { entries: 128, from: 500, log: 8192, recheck: 1000 };

interface Entry extends TextCandidates {
  /** The catch-ups the entry has seen: changes logged after this one are not in it yet. */
  seq: number;
}

export class TextCache {
  readonly #source: TextSource;
  readonly #cap: number;
  readonly #limits: TextCacheLimits;
  readonly #entries = new Map<string, Entry>();
  /** Catch-ups logged so far, and the ads each re-read (oldest first, `#first` the seq of the first kept). */
  #seq = 0;
  #log: number[][] = [];
  #first = 1;
  #logged = 0;

  constructor(source: TextSource, cap: number, limits: TextCacheLimits = TEXT_CACHE_LIMITS) {
    this.#source = source;
    this.#cap = cap;
    this.#limits = limits;
  }

  /** How many queries are held. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * A catch-up of the search index re-read these ads (written since the one before): their text
   * may have changed. Every write lands in some catch-up after it is committed (the index's own
   * guarantee), which is what keeps entries true.
   */
  changed(ids: number[]) {
    this.#seq++;
    this.#log.push(ids);
    this.#logged += ids.length;
    while (this.#log.length > 1 && this.#logged > this.#limits.log) {
      this.#logged -= (this.#log.shift() as number[]).length;
      this.#first++;
    }
  }

  /** Forgets every entry (the bench, to time queries read afresh). */
  clear() {
    this.#entries.clear();
  }

  /**
   * The candidates of `words`. `caughtUp` brings the log up to every write committed before it is
   * called (the engine's catch-up); it runs first, so the answer is as fresh as the ad index's.
   * The ids are the entry's own array, shared with later answers: read only.
   */
  async candidates(words: TextTerms, caughtUp: () => Promise<unknown>): Promise<TextCandidates> {
    const key = words.map((forms) => forms.join('|')).join(' ');
    const held = this.#entries.get(key);
    if (!held) {
      // The catch-ups before the read: whatever is written after it starts is logged after them.
      const seq = this.#seq;
      const read = await this.#source.candidates(words, this.#cap);
      this.#keep(key, { ...read, seq });
      return read;
    }
    await caughtUp();
    const seq = this.#seq;
    let entry: Entry | null = held;
    if (held.seq < seq) entry = await this.#recheck(words, held, seq);
    if (!entry) {
      const read = await this.#source.candidates(words, this.#cap);
      entry = { ...read, seq };
    }
    this.#keep(key, entry);
    return { ids: entry.ids, exact: entry.exact };
  }

  #keep(key: string, entry: Entry) {
    this.#entries.delete(key);
    if (entry.ids.length < this.#limits.from) return;
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#limits.entries) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  /** The entry with the ads changed since it was made checked again; null when it must be read whole. */
  async #recheck(words: TextTerms, entry: Entry, seq: number): Promise<Entry | null> {
    // The log no longer holds every catch-up since the entry.
    if (entry.seq + 1 < this.#first) return null;
    const changed = new Set<number>();
    for (let s = entry.seq + 1; s <= seq; s++) for (const id of this.#log[s - this.#first] as number[]) changed.add(id);
    if (changed.size > this.#limits.recheck) return null;
    const texts = await this.#source.texts([...changed]);
    const matching = new Set<number>();
    for (const { id, text } of texts) if (textHasTerms(words, text)) matching.add(id);
    // Held ads that no longer match, and matches not held (the list is sorted: a bisection each).
    const lost = new Set<number>();
    const added: number[] = [];
    for (const id of changed) {
      const held = holds(entry.ids, id);
      const matches = matching.has(id);
      if (held && !matches) lost.add(id);
      else if (!held && matches) added.push(id);
    }
    // A list cut at the cap that loses a match is read again: the matches after its last are unknown.
    // So a cut list holds `cap` ids, and the newest `cap` of it and what now matches are the answer.
    if (lost.size > 0 && !entry.exact) return null;
    // Most catch-ups touch nothing the list holds (a price, a status, other ads): the same list.
    if (lost.size === 0 && added.length === 0) return { ...entry, seq };
    const kept = lost.size === 0 ? entry.ids : entry.ids.filter((id) => !lost.has(id));
    added.sort((a, b) => b - a);
    const ids = mergeDescending(kept, added);
    const exact = entry.exact && ids.length <= this.#cap;
    return { ids: ids.length > this.#cap ? ids.slice(0, this.#cap) : ids, exact, seq };
  }
}

/** Whether `ids` (distinct, highest first) holds `id`. */
function holds(ids: readonly number[], id: number): boolean {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ids[mid] as number) > id) lo = mid + 1;
    else hi = mid;
  }
  return ids[lo] === id;
}

/** Two lists of distinct ids, each highest first, as one. */
function mergeDescending(a: readonly number[], b: number[]): readonly number[] {
  if (b.length === 0) return a;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && (a[i] as number) > (b[j] as number))) out.push(a[i++] as number);
    else out.push(b[j++] as number);
  }
  return out;
}
