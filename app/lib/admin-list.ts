// The query string of every back-office list (docs/product/back-office.md, "Lists"): the search
// text `q`, the sort `sort` and `dir`, the list's own filters, and the keyset cursor `after`. Read
// on the server (a loader parses it, whatever a link says) and written by the list's links and
// forms, so a list's state lives in its URL and works without JavaScript.

export type SortDirection = 'asc' | 'desc';

export interface ListSpec<Sort extends string = string> {
  /** The columns a list may be sorted by; the first is the default. */
  sorts: readonly Sort[];
  /** The default direction of each sort (desc when absent). */
  directions?: Partial<Record<Sort, SortDirection>>;
  /**
   * Each filter's allowed values, or the pattern a free-text filter's value must match (a value
   * outside them is ignored).
   */
  filters?: Readonly<Record<string, readonly string[] | RegExp>>;
}

export interface ListQuery<Sort extends string = string> {
  q: string;
  sort: Sort;
  dir: SortDirection;
  filters: Record<string, string>;
  after: string | null;
}

/** The longest search text a list takes; longer is cut. */
export const SEARCH_MAX = 100;

export function parseListQuery<Sort extends string>(params: URLSearchParams, spec: ListSpec<Sort>): ListQuery<Sort> {
  const q = (params.get('q') ?? '').trim().slice(0, SEARCH_MAX);
  const requested = params.get('sort');
  const sort = (spec.sorts as readonly string[]).includes(requested ?? '')
    ? (requested as Sort)
    : (spec.sorts[0] as Sort);
  const dirParam = params.get('dir');
  const dir: SortDirection = dirParam === 'asc' || dirParam === 'desc' ? dirParam : (spec.directions?.[sort] ?? 'desc');
  const filters: Record<string, string> = {};
  for (const [name, allowed] of Object.entries(spec.filters ?? {})) {
    const value = params.get(name);
    const trimmed = value?.trim().slice(0, SEARCH_MAX);
    if (trimmed && (allowed instanceof RegExp ? allowed.test(trimmed) : allowed.includes(trimmed))) {
      filters[name] = trimmed;
    }
  }
  const after = params.get('after');
  return { q, sort, dir, filters, after: after && after.length <= 400 ? after : null };
}

/**
 * The query string (with its `?`, or '' when empty) of `query` changed by `change`; a change of
 * search, sort or filter starts again at the first page.
 */
export function listSearch(
  spec: ListSpec,
  query: ListQuery,
  change: Partial<Omit<ListQuery, 'filters'>> & { filters?: Record<string, string | null> } = {},
): string {
  const next = { ...query, ...change, filters: { ...query.filters } };
  for (const [name, value] of Object.entries(change.filters ?? {})) {
    if (value) next.filters[name] = value;
    else delete next.filters[name];
  }
  const moved = change.q !== undefined || change.sort !== undefined || change.dir !== undefined || change.filters;
  const params = new URLSearchParams();
  if (next.q) params.set('q', next.q);
  for (const [name, value] of Object.entries(next.filters)) params.set(name, value);
  if (next.sort !== spec.sorts[0]) params.set('sort', next.sort);
  if (next.dir !== (spec.directions?.[next.sort] ?? 'desc')) params.set('dir', next.dir);
  if (!moved && next.after) params.set('after', next.after);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Whether any search or filter narrows the list (the empty state then offers to clear them). */
export const isNarrowed = (query: ListQuery): boolean => query.q !== '' || Object.keys(query.filters).length > 0;
