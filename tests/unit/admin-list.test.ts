// The back office's list query string (app/lib/admin-list.ts): what a loader accepts from a URL,
// and the links the list writes (a change of search, sort or filter goes back to the first page).
import { describe, expect, it } from 'vitest';
import { isNarrowed, type ListSpec, listSearch, parseListQuery } from '../../app/lib/admin-list.ts';

const spec: ListSpec = {
  sorts: ['created', 'name'],
  directions: { name: 'asc' },
  filters: { role: ['moderator', 'support'] },
};
const parse = (s: string) => parseListQuery(new URLSearchParams(s), spec);

describe('admin list query', () => {
  it('reads defaults and ignores what is not allowed', () => {
    expect(parse('')).toEqual({ q: '', sort: 'created', dir: 'desc', filters: {}, after: null });
    expect(parse('sort=password&dir=up&role=root&q=%20x%20')).toEqual({
      q: 'x',
      sort: 'created',
      dir: 'desc',
      filters: {},
      after: null,
    });
    expect(parse('sort=name').dir).toBe('asc');
    expect(parse('role=support').filters).toEqual({ role: 'support' });
    expect(parse(`q=${'a'.repeat(300)}`).q).toHaveLength(100);
    expect(parse(`after=${'a'.repeat(401)}`).after).toBeNull();
  });

  it('writes links that keep the state and restart paging on a change', () => {
    const q = parse('q=ali&role=support&sort=name&after=abc');
    expect(listSearch(spec, q)).toBe('?q=ali&role=support&sort=name&after=abc');
    expect(listSearch(spec, q, { sort: 'name', dir: 'desc' })).toBe('?q=ali&role=support&sort=name&dir=desc');
    expect(listSearch(spec, q, { filters: { role: null } })).toBe('?q=ali&sort=name');
    expect(listSearch(spec, q, { q: '' })).toBe('?role=support&sort=name');
    expect(listSearch(spec, parse(''))).toBe('');
    expect(isNarrowed(parse('sort=name'))).toBe(false);
    expect(isNarrowed(q)).toBe(true);
  });
});
