// The back office's forms of cities and areas, and of the settings (docs/product/back-office.md),
// on both sides. Field errors are codes of the `validation` namespace (`required`, `max:120`,
// `slug`, `min_value:-90`…).
import { z } from 'zod';
import { normaliseNumber } from '../digits.ts';
import { type Rule, requiredField, rules } from './rules.ts';

/** `cities.slug` and `areas.slug` are varchar(80); names varchar(120). */
export const SLUG_MAX = 80;
export const PLACE_NAME_MAX = 120;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const text = (v: unknown) => (typeof v === 'string' ? v : String(v));

/** A decimal number within [min, max] (Arabic-Indic digits and separator accepted), rounded to 6 places. */
export function decimalRules(min: number, max: number): Rule[] {
  return [
    {
      code: 'number',
      normalise: (v) => normaliseNumber(text(v)),
      check: (v) => /^-?\d+(\.\d+)?$/.test(text(v)),
      output: (v) => Math.round(Number(v) * 1e6) / 1e6,
    },
    { code: `min_value:${min}`, check: (v) => Number(v) >= min },
    { code: `max_value:${max}`, check: (v) => Number(v) <= max },
  ];
}

/** A whole number within [min, max] (Arabic-Indic digits accepted). */
export function wholeRules(min: number, max: number): Rule[] {
  return [
    {
      code: 'integer',
      normalise: (v) => normaliseNumber(text(v)),
      check: (v) => /^-?\d+$/.test(text(v)),
      output: (v) => Number(v),
    },
    { code: `min_value:${min}`, check: (v) => Number(v) >= min },
    { code: `max_value:${max}`, check: (v) => Number(v) <= max },
  ];
}

export const placeSchema = z.object({
  name_ar: requiredField(rules.max(PLACE_NAME_MAX)),
  name_en: requiredField(rules.max(PLACE_NAME_MAX)),
  slug: requiredField(
    { code: 'slug', normalise: (v) => text(v).toLowerCase(), check: (v) => SLUG.test(text(v)) },
    rules.max(SLUG_MAX),
  ),
  lat: requiredField<number>(...decimalRules(-90, 90)),
  lng: requiredField<number>(...decimalRules(-180, 180)),
});
export type PlaceForm = z.output<typeof placeSchema>;

/** A merge: the place the ads go to, and the box that confirms it. */
export const mergeSchema = z.object({
  into: requiredField<number>({
    code: 'in',
    check: (v) => /^[1-9]\d{0,9}$/.test(text(v)) && Number(v) <= 2_147_483_647,
    output: (v) => Number(v),
  }),
});

/** The intents of the cities and areas pages' forms. */
export const PLACE_INTENTS = ['create', 'update', 'up', 'down', 'delete', 'merge'] as const;
export type PlaceIntent = (typeof PLACE_INTENTS)[number];
