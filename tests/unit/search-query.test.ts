// Reading the search query from the URL (app/lib/search-query.ts): the readers are plain functions
// (the browser runs them without Zod), each parameter dropped when malformed, never an error; and
// the schemas the API's document describes the parameters with accept what the readers accept.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_ID, parseId } from '../../app/lib/ids.ts';
import {
  ATTRIBUTE_PARAMETERS,
  EMPTY_QUERY,
  PAGE_PARAMETER,
  parsePage,
  parseSearchQuery,
  type QueryParameter,
  SEARCH_PARAMETERS,
  type SearchQuery,
  searchString,
} from '../../app/lib/search-query.ts';
import { ID_PARAMETER } from '../../app/lib/validation/id.ts';

const parse = (params: string): SearchQuery => parseSearchQuery(new URLSearchParams(params));
const page = (params: string) => parsePage(new URLSearchParams(params));

describe('search query parameters', () => {
  it('read the text with white space collapsed, cut at 100 characters, and drop it when blank', () => {
    expect(parse('q=%20%20iPhone%20%0A%0915%20%20').q).toBe('iPhone 15');
    expect(parse(`q=${'a'.repeat(99)}%20%20b`).q).toBe('a'.repeat(99));
    expect(parse(`q=${'x'.repeat(150)}`).q).toHaveLength(100);
    expect(parse('q=%20%09%20').q).toBeNull();
    expect(parse('q=').q).toBeNull();
  });

  it('keep well-formed slugs only; a category drops the taxonomy and an area needs its city', () => {
    expect(parse('taxonomy=motors&city=tripoli&area=ben-ashour')).toMatchObject({
      taxonomy: 'motors',
      city: 'tripoli',
      area: 'ben-ashour',
    });
    for (const junk of ['Motors', 'a--b', '-a', 'a-', 'a_b', 'سيارات', '', ' motors']) {
      expect(parse(`taxonomy=${encodeURIComponent(junk)}`).taxonomy, junk).toBeNull();
    }
    expect(parse('taxonomy=motors&category=toyota')).toMatchObject({ taxonomy: null, category: 'toyota' });
    expect(parse('taxonomy=motors&category=Toyota')).toMatchObject({ taxonomy: 'motors', category: null });
    expect(parse('area=dahra').area).toBeNull();
    expect(parse('city=Tripoli&area=dahra')).toMatchObject({ city: null, area: null });
  });

  it('read prices as typed: other digits, separators, decimals cut, up to a trillion', () => {
    const price = (v: string) => parse(`price_min=${encodeURIComponent(v)}`).priceMin;
    expect(price('١٢٣٤٥')).toBe(12345);
    expect(price('۱۲')).toBe(12);
    expect(price('1,500')).toBe(1500);
    expect(price('1 500')).toBe(1500);
    expect(price('1٬500٫75')).toBe(1500);
    expect(price('99.99')).toBe(99);
    expect(price('0')).toBe(0);
    expect(price('007')).toBe(7);
    expect(price('1000000000000')).toBe(1e12);
    expect(price('1000000000000.9')).toBe(1e12);
    for (const junk of ['1000000000001', '99999999999999', '-5', '1.', '.5', '1e3', '0x10', 'Infinity', 'abc', '']) {
      expect(price(junk), junk).toBeNull();
    }
  });

  it('swap a lower bound above the upper one, and keep the currency only with a price', () => {
    expect(parse('price_min=900&price_max=100')).toMatchObject({ priceMin: 100, priceMax: 900 });
    expect(parse('price_max=100&currency=USD')).toMatchObject({ priceMax: 100, currency: 'USD' });
    expect(parse('currency=usd').currency).toBe('LYD');
    expect(parse('currency=__proto__').currency).toBe('LYD');
    expect(searchString(parse('currency=USD'))).toBe('');
    expect(searchString(parse('price_min=1&currency=USD'))).toBe('?price_min=1&currency=USD');
  });

  it('order by relevance only with text, by default the best matches for text and the newest without', () => {
    expect(parse('sort=price-desc').sort).toBe('price-desc');
    expect(parse('sort=relevance').sort).toBe('newest');
    expect(parse('q=x&sort=relevance').sort).toBe('relevance');
    expect(parse('q=x').sort).toBe('relevance');
    expect(parse('q=x&sort=oldest').sort).toBe('relevance');
    expect(parse('sort=Newest').sort).toBe('newest');
    expect(searchString(parse('q=x&sort=newest'))).toBe('?q=x&sort=newest');
  });

  it('read attribute options, switches and ranges, and ignore names that are no attribute key', () => {
    expect(parse('f.color=red,blue,,Bad,red&f.color=green').attributes).toEqual({
      color: { kind: 'options', options: ['blue', 'green', 'red'] },
    });
    expect(parse('f.furnished=1&f.garage=0').attributes).toEqual({
      furnished: { kind: 'bool', value: true },
      garage: { kind: 'bool', value: false },
    });
    expect(parse('f.color=Bad,,').attributes).toEqual({});
    const many = Array.from({ length: 25 }, (_, i) => `o${String(i).padStart(2, '0')}`).join(',');
    const options = parse(`f.color=${many}`).attributes.color;
    expect(options?.kind === 'options' && options.options).toHaveLength(20);
    expect(parse('f.year.min=٢٠١٥&f.year.max=2010.5&f.temp.min=-3.123456').attributes).toEqual({
      temp: { kind: 'range', min: -3.123456, max: null },
      year: { kind: 'range', min: 2010.5, max: 2015 },
    });
    // A negative zero stays what it was typed as (a bound, not an amount).
    const zero = parse('f.temp.max=-0').attributes.temp;
    expect(zero?.kind === 'range' && Object.is(zero.max, -0)).toBe(true);
    expect(parse('f.temp.min=1.1234567&f.temp.max=12345678901234').attributes).toEqual({});
    // Options or a switch of the same key win over its range.
    expect(parse('f.rooms.min=2&f.rooms=3').attributes).toEqual({ rooms: { kind: 'options', options: ['3'] } });
    const keys = ['f.Bad', 'f.a.b', 'f.1a', 'f.', `f.a${'b'.repeat(50)}`, 'f.x.min.max', 'g.x'];
    for (const name of keys) expect(parse(`${name}=1`).attributes, name).toEqual({});
    expect(Object.keys(parse('f.b=1&f.a_1=1&f.c.min=1').attributes)).toEqual(['a_1', 'b', 'c']);
  });

  it('read nothing from parameters that say nothing', () => {
    expect(parse('')).toEqual(EMPTY_QUERY);
    expect(parse('unknown=1&photos=&within=&sort=&page=2')).toEqual(EMPTY_QUERY);
  });

  it('read a page number from 1 to 50; anything else is no page', () => {
    expect(page('')).toBe(1);
    expect(page('page=1')).toBe(1);
    expect(page('page=50')).toBe(50);
    for (const junk of ['', '0', '51', '050', '01', '-1', '1.0', '+2', '٢', '10000', 'x']) {
      expect(page(`page=${encodeURIComponent(junk)}`), junk).toBeNull();
    }
  });

  it('read row ids within the database’s integers, as the forms’ and the API’s schema does', () => {
    const samples = [
      '1',
      '42',
      String(MAX_ID),
      String(MAX_ID + 1),
      '9999999999',
      '12345678901',
      '0',
      '01',
      '-1',
      '1.0',
      ' 1',
      '',
      '١',
    ];
    for (const v of samples) {
      const schema = ID_PARAMETER.safeParse(v);
      expect(parseId(v), v).toBe(schema.success ? schema.data : null);
    }
    expect(parseId(String(MAX_ID))).toBe(MAX_ID);
    expect(parseId(undefined)).toBeNull();
    expect(parseId(7)).toBeNull();
  });

  it('are described by schemas that accept every value their readers keep', () => {
    const samples = [
      ...['', ' ', 'x', 'motors', 'Motors', 'a--b', '1', '0', '-1', '1.5', '٣٤٥', '1,000', '99999999999999'],
      ...['LYD', 'USD', 'newest', 'relevance', 'price-asc', '7', '30', '50', '51', '0050', 'red,blue', '__proto__'],
    ];
    const parameters: Record<string, QueryParameter<unknown>> = {
      ...SEARCH_PARAMETERS,
      ...ATTRIBUTE_PARAMETERS,
      page: PAGE_PARAMETER,
    };
    for (const [name, parameter] of Object.entries(parameters)) {
      const schema = parameter.schema(z);
      for (const v of samples) {
        if (parameter.read(v) !== null) expect(schema.safeParse(v).success, `${name}=${v}`).toBe(true);
      }
    }
    // Where the document gives the whole rule (a pattern or a list), it refuses what the reader refuses.
    for (const name of ['taxonomy', 'category', 'city', 'area', 'currency', 'photos', 'within', 'sort'] as const) {
      const schema = SEARCH_PARAMETERS[name].schema(z);
      for (const v of samples) {
        expect(schema.safeParse(v).success, `${name}=${v}`).toBe(SEARCH_PARAMETERS[name].read(v) !== null);
      }
    }
  });
});
