// The search filters on a field of the ad itself (not a category attribute, not the place in the
// catalogue): one declaration each, in FIELD_FILTERS. A declaration is the whole filter: its URL
// parameter (reader, schema and canonical form), its value in the query and in the API's answer, the
// control of the filters panel with its labels, and the test it puts on a column of the search
// index (server/domain/search/ad-index.ts). Parsing, writing, "has filters", the API's parameters
// and answer, the scan and the filters panel all read this table (server/domain/search/README.md).
// The schemas are written with the Zod the server passes in: the browser reads this table without
// loading Zod (see ./search-query.ts).
import type { ZodType, z } from 'zod';
import type { ColumnTest } from '../../server/domain/search/ad-index.ts';
import type { QueryParameter } from './search-query.ts';

export const WITHIN_DAYS = [1, 3, 7, 30] as const;
/** Who posts the ad: a company's member (server/domain/companies/) or anyone else. */
export const SELLER_TYPES = ['company', 'individual'] as const;
export type SellerType = (typeof SELLER_TYPES)[number];
export type WithinDays = (typeof WITHIN_DAYS)[number];

const DAY = 86_400_000;

/** A control of the filters panel; labels are keys of the `search` catalogue. */
export type FilterControl =
  | {
      kind: 'check';
      label: string;
      /** The parameter's value when checked. */
      value: string;
    }
  | {
      kind: 'select';
      label: string;
      /** The label of the empty choice (no filter). */
      any: string;
      /** Each choice: its parameter value and its label (`count` for the plural forms). */
      options: readonly { value: string; label: string; count?: number }[];
    };

interface FieldFilter<T, Off> {
  /** The URL parameter: what it accepts and the value it reads (a refused value is dropped). */
  parameter: QueryParameter<T>;
  /** The query's value when the parameter is absent (no filter). */
  off: Off;
  /** The value as the API's answer shows it in `meta.query` (its JSON Schema). */
  value: (zod: typeof z) => ZodType;
  /** The canonical parameter of a value other than `off`. */
  write: (value: T) => string;
  /** The test on the search index a value other than `off` puts (`now`: ms since the epoch). */
  test: (value: T, now: number) => ColumnTest;
  control: FilterControl;
}

/** One filter's declaration, its value's type checked against its parts. */
const fieldFilter = <T, Off>(filter: FieldFilter<T, Off>) => filter;

/** In the order of the canonical URL (saved searches compare it). */
export const FIELD_FILTERS = {
  photos: fieldFilter({
    parameter: {
      read: (raw) => (raw === '1' ? true : null),
      schema: (zod) => zod.literal('1').meta({ description: 'Only ads with photos' }),
    },
    off: false,
    value: (zod) => zod.boolean(),
    write: () => '1',
    test: () => ({ kind: 'flag', column: 'photos' }),
    control: { kind: 'check', label: 'fields.photos', value: '1' },
  }),
  within: fieldFilter({
    parameter: {
      read: (raw) => WITHIN_DAYS.find((d) => String(d) === raw) ?? null,
      schema: (zod) =>
        zod
          .enum(WITHIN_DAYS.map(String) as [`${WithinDays}`, ...`${WithinDays}`[]])
          .meta({ description: 'Posted (or reposted) within that many days' }),
    },
    off: null,
    value: (zod) => zod.union(WITHIN_DAYS.map((d) => zod.literal(d))).nullable(),
    write: String,
    test: (days, now) => ({ kind: 'at-least', column: 'bumped', min: now - days * DAY }),
    control: {
      kind: 'select',
      label: 'fields.within',
      any: 'any-time',
      options: WITHIN_DAYS.map((d) => ({ value: String(d), label: 'within', count: d })),
    },
  }),
  seller: fieldFilter({
    parameter: {
      read: (raw) => SELLER_TYPES.find((v) => v === raw) ?? null,
      schema: (zod) =>
        zod
          .enum(SELLER_TYPES)
          .meta({ description: "company: the ad's owner belongs to a company (dealer, agency); individual: not" }),
    },
    off: null,
    value: (zod) => zod.enum(SELLER_TYPES).nullable(),
    write: String,
    test: (type) => ({ kind: 'flag', column: 'company', clear: type === 'individual' }),
    control: {
      kind: 'select',
      label: 'fields.seller',
      any: 'any-seller',
      options: SELLER_TYPES.map((v) => ({ value: v, label: `sellers.${v}` })),
    },
  }),
};

export type FieldFilterName = keyof typeof FIELD_FILTERS;
export const FIELD_FILTER_NAMES = Object.keys(FIELD_FILTERS) as FieldFilterName[];

/** The query's value of each field filter (`off` when it does not apply). */
export type FieldFilterValues = {
  [K in FieldFilterName]: (typeof FIELD_FILTERS)[K] extends FieldFilter<infer T, infer Off> ? T | Off : never;
};

/** A field filter seen whatever its value's type (the loops over the table). */
const untyped = (name: FieldFilterName) => FIELD_FILTERS[name] as FieldFilter<unknown, unknown>;

/** Every field filter off: a query without them. */
export const FIELD_FILTERS_OFF = Object.fromEntries(
  FIELD_FILTER_NAMES.map((name) => [name, FIELD_FILTERS[name].off]),
) as FieldFilterValues;

/** Whether the query's value of a field filter narrows anything. */
export const fieldFilterOn = (values: FieldFilterValues, name: FieldFilterName) =>
  values[name] !== FIELD_FILTERS[name].off;

/** The values of the field filters in URL parameters (a refused or absent one is `off`). */
export function readFieldFilters(params: URLSearchParams): FieldFilterValues {
  const values: Partial<Record<FieldFilterName, unknown>> = {};
  for (const name of FIELD_FILTER_NAMES) {
    const filter = untyped(name);
    const raw = params.get(name);
    const value = raw === null ? null : filter.parameter.read(raw);
    values[name] = value ?? filter.off;
  }
  return values as FieldFilterValues;
}

/** Sets the canonical parameters of the field filters that are on. */
export function writeFieldFilters(values: FieldFilterValues, params: URLSearchParams) {
  for (const name of FIELD_FILTER_NAMES) {
    if (fieldFilterOn(values, name)) params.set(name, untyped(name).write(values[name]));
  }
}

/** The index tests of the field filters that are on. */
export function fieldFilterTests(values: FieldFilterValues, now: number): ColumnTest[] {
  return FIELD_FILTER_NAMES.filter((name) => fieldFilterOn(values, name)).map((name) =>
    untyped(name).test(values[name], now),
  );
}

/** A field filter's value as its control shows it: the parameter's value, or '' when off. */
export const fieldFilterParameter = (values: FieldFilterValues, name: FieldFilterName) =>
  fieldFilterOn(values, name) ? untyped(name).write(values[name]) : '';
