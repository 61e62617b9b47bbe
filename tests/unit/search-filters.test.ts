// The field filters' table (app/lib/search-filters.ts) drives the URL, the query, the API's
// answer, the scan and the filters panel: each declaration must agree with itself.
import { describe, expect, it } from 'vitest';
import { FIELD_FILTER_NAMES, FIELD_FILTERS, fieldFilterTests } from '../../app/lib/search-filters.ts';
import { EMPTY_QUERY, hasFilters, parseSearchQuery, searchString } from '../../app/lib/search-query.ts';
import { SearchQuery } from '../../server/http/api-schemas.ts';

/** Each parameter value the filter's control can send. */
function controlValues(name: (typeof FIELD_FILTER_NAMES)[number]): string[] {
  const control = FIELD_FILTERS[name].control;
  return control.kind === 'check' ? [control.value] : control.options.map((o) => o.value);
}

describe('field filters', () => {
  it('are off in a query without parameters, and the API describes that query', () => {
    for (const name of FIELD_FILTER_NAMES) expect(EMPTY_QUERY[name]).toBe(FIELD_FILTERS[name].off);
    expect(hasFilters(EMPTY_QUERY)).toBe(false);
    expect(fieldFilterTests(EMPTY_QUERY, 0)).toEqual([]);
    expect(SearchQuery.safeParse(EMPTY_QUERY).success).toBe(true);
  });

  it('read every value their control sends, write it back the same, and filter the scan', () => {
    const now = Date.UTC(2026, 0, 1);
    for (const name of FIELD_FILTER_NAMES) {
      for (const value of controlValues(name)) {
        const query = parseSearchQuery(new URLSearchParams({ [name]: value }));
        expect(query[name], `${name}=${value}`).not.toBe(FIELD_FILTERS[name].off);
        expect(searchString(query)).toBe(`?${name}=${value}`);
        expect(hasFilters(query)).toBe(true);
        expect(fieldFilterTests(query, now)).toHaveLength(1);
        expect(SearchQuery.safeParse(query).success, `${name}=${value} in the API's answer`).toBe(true);
      }
    }
  });

  it('drop a value their parameter refuses', () => {
    for (const name of FIELD_FILTER_NAMES) {
      for (const junk of ['', 'yes', '__proto__', '２', '-1']) {
        const query = parseSearchQuery(new URLSearchParams({ [name]: junk }));
        expect(query[name], `${name}=${junk}`).toBe(FIELD_FILTERS[name].off);
      }
    }
  });

  it('keep the canonical order saved searches compare', () => {
    expect(searchString(parseSearchQuery(new URLSearchParams('within=7&photos=1&sort=price-asc')))).toBe(
      '?photos=1&within=7&sort=price-asc',
    );
  });

  it('bound the time a "posted within" filter looks back from now', () => {
    const now = Date.UTC(2026, 0, 10);
    const query = parseSearchQuery(new URLSearchParams('within=3'));
    expect(fieldFilterTests(query, now)).toEqual([{ kind: 'at-least', column: 'bumped', min: now - 3 * 86_400_000 }]);
  });
});
