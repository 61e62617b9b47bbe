// The catalogue editor's forms (docs/product/back-office.md, "Catalogue"), on both sides: a
// category's names, slug and icon; where it moves; the order of its siblings; and an attribute of
// any type with its bilingual options, units, flags and bounds. Refusals that need the database
// (a slug or key already taken, a move into its own subtree) come from
// server/domain/admin/catalogue.ts with codes worded in the `errors` namespace.
import { z } from 'zod';
import type { AttributeType } from '../../../server/db/schema.ts';
import { ATTRIBUTE_TYPES, hasOptions, hasRange, isAttributeType } from '../attribute-types.ts';
import { categoryIconNames } from '../category-icons.tsx';
import { parseId } from '../ids.ts';
import { SLUG_PATTERN } from '../slug.ts';
import { field, latinDigits, requiredField, rules } from './rules.ts';

export const NAME_MAX = 80;
export const SLUG_MAX = 60;
export const UNIT_MAX = 20;
export const OPTION_LABEL_MAX = 80;
/** Options of one select attribute. */
export const OPTIONS_MAX = 200;
/** The siblings one reorder may list. */
export const ORDER_MAX = 500;

/**
 * The segment of the editor's own path after a category's (`/admin/categories/…/attributes`): no
 * category may take it as its slug.
 */
export const ATTRIBUTES_SEGMENT = 'attributes';

export { ATTRIBUTE_TYPES, hasOptions, hasRange, isAttributeType };

const slugRule = { code: 'slug', check: (v: unknown) => typeof v === 'string' && SLUG_PATTERN.test(v) };
const notAttributes = { code: 'reserved-slug', check: (v: unknown) => v !== ATTRIBUTES_SEGMENT };

/** A category's own fields: what "create child" and "rename" send. */
export const categorySchema = z.object({
  slug: requiredField(rules.max(SLUG_MAX), slugRule, notAttributes),
  name_ar: requiredField(rules.max(NAME_MAX)),
  name_en: requiredField(rules.max(NAME_MAX)),
  icon: field(rules.oneOf(categoryIconNames)),
});
export type CategoryInput = z.output<typeof categorySchema>;

/** The figure the staff member confirmed ("312 ads…"): a whole number, absent before asking. */
const confirmedField = z
  .unknown()
  .transform((v) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : null))
  .optional();

/** Where a category moves: `t:<id>` (the top of a taxonomy) or `c:<id>` (under a category). */
export const moveSchema = z.object({
  target: z.unknown().transform((v, ctx) => {
    const m = typeof v === 'string' ? /^(t|c):(\d{1,10})$/.exec(v) : null;
    const id = m ? parseId(m[2]) : null;
    if (!m || id === null) {
      ctx.addIssue({ code: 'custom', message: 'required' });
      return z.NEVER;
    }
    return m[1] === 't' ? { taxonomyId: id, parentId: null } : { taxonomyId: null, parentId: id };
  }),
  confirmed: confirmedField,
});

/** Switching a category off or on, with the figure seen when switching off. */
export const activeSchema = z.object({ confirmed: confirmedField });

/** The order of a category's children (drag and drop): their ids, comma-separated, each once. */
export const orderSchema = z.object({
  order: z.unknown().transform((v, ctx) => {
    const list = typeof v === 'string' ? v.split(',').map((s) => parseId(s.trim())) : [];
    if (list.length === 0 || list.length > ORDER_MAX || list.some((id) => id === null)) {
      ctx.addIssue({ code: 'custom', message: 'invalid' });
      return z.NEVER;
    }
    const ids = list as number[];
    if (new Set(ids).size !== ids.length) {
      ctx.addIssue({ code: 'custom', message: 'invalid' });
      return z.NEVER;
    }
    return ids;
  }),
});

/** A checkbox: ticked is true, anything else false. */
const checkbox = z.unknown().transform((v) => v === 'on' || v === 'true' || v === true);

/** A number (Arabic-Indic digits accepted), at most 15 digits either side of a point. */
const numberField = field<number>({
  code: 'number',
  normalise: (v) => latinDigits(String(v)),
  check: (v) => /^-?\d{1,15}(\.\d{1,6})?$/.test(String(v)),
  output: (v) => Number(v),
});

const optionRow = z.object({
  value: z.unknown().optional(),
  ar: z.unknown().optional(),
  en: z.unknown().optional(),
});
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export const ATTRIBUTE_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
const OPTION_VALUE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,59}$/;

export interface AttributeOptionInput {
  value: string;
  ar: string;
  en: string;
}

/**
 * An attribute: key and type (fixed once it exists; the server ignores them then), names, options
 * (rows left blank are dropped: the form offers a few empty ones to add), unit, flags and range.
 */
export const attributeSchema = z
  .object({
    key: requiredField({ code: 'attribute-key', check: (v) => ATTRIBUTE_KEY_PATTERN.test(String(v)) }),
    type: requiredField<AttributeType>(rules.oneOf(ATTRIBUTE_TYPES)),
    name_ar: requiredField(rules.max(NAME_MAX)),
    name_en: requiredField(rules.max(NAME_MAX)),
    options: z.array(optionRow).max(OPTIONS_MAX).optional(),
    unit_ar: field(rules.max(UNIT_MAX)),
    unit_en: field(rules.max(UNIT_MAX)),
    required: checkbox.optional(),
    filterable: checkbox.optional(),
    shown_on_card: checkbox.optional(),
    min: numberField,
    max: numberField,
    confirmed: confirmedField,
  })
  .superRefine((v, ctx) => {
    const rows = (v.options ?? []).map((o) => ({ value: text(o.value), ar: text(o.ar), en: text(o.en) }));
    const seen = new Set<string>();
    rows.forEach((o, i) => {
      if (!o.value && !o.ar && !o.en) return;
      if (!OPTION_VALUE_PATTERN.test(o.value)) {
        ctx.addIssue({ code: 'custom', path: ['options', i, 'value'], message: o.value ? 'option-value' : 'required' });
      } else if (seen.has(o.value)) {
        ctx.addIssue({ code: 'custom', path: ['options', i, 'value'], message: 'option-twice' });
      }
      seen.add(o.value);
      for (const side of ['ar', 'en'] as const) {
        if (!o[side]) ctx.addIssue({ code: 'custom', path: ['options', i, side], message: 'required' });
        else if ([...o[side]].length > OPTION_LABEL_MAX) {
          ctx.addIssue({ code: 'custom', path: ['options', i, side], message: `max:${OPTION_LABEL_MAX}` });
        }
      }
    });
    if (v.type && hasOptions(v.type) && seen.size === 0) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'option-needed' });
    }
    if (v.min !== undefined && v.max !== undefined && v.min > v.max) {
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'min-above-max' });
    }
  })
  .transform((v) => {
    const type = v.type as AttributeType;
    const options: AttributeOptionInput[] = hasOptions(type)
      ? (v.options ?? [])
          .map((o) => ({ value: text(o.value), ar: text(o.ar), en: text(o.en) }))
          .filter((o) => o.value || o.ar || o.en)
      : [];
    return {
      key: v.key as string,
      type,
      name_ar: v.name_ar as string,
      name_en: v.name_en as string,
      options,
      unit_ar: type === 'number' ? (v.unit_ar ?? null) : null,
      unit_en: type === 'number' ? (v.unit_en ?? null) : null,
      required: v.required ?? false,
      filterable: v.filterable ?? false,
      shown_on_card: v.shown_on_card ?? false,
      min: hasRange(type) ? (v.min ?? null) : null,
      max: hasRange(type) ? (v.max ?? null) : null,
      confirmed: v.confirmed ?? null,
    };
  });
export type AttributeInput = z.output<typeof attributeSchema>;

/** Deleting an attribute, with the figure seen. */
export const deleteAttributeSchema = z.object({ confirmed: confirmedField });
