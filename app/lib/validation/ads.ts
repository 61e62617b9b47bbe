// The ad form (place-your-ad and edit), on both sides. Its attribute part is built from the leaf
// category's attributes, so the browser and the server check the same rules; the server then also
// refuses attributes the category does not have.
import { z } from 'zod';
import { normaliseNumber } from '../digits.ts';
import { MAX_ID, parseId } from '../ids.ts';
import { REPORT_REASONS } from '../report-reasons.ts';
import { ID_PARAMETER } from './id.ts';
import { field, type Rule, requiredField, rules } from './rules.ts';

export const PRICE_TYPES = ['fixed', 'negotiable', 'free', 'on-request', 'exchange'] as const;
export type PriceType = (typeof PRICE_TYPES)[number];
/** Price types that need an amount. */
export const PRICED: readonly PriceType[] = ['fixed', 'negotiable'];
export const CURRENCIES = ['LYD', 'USD'] as const;
export const MAX_PHOTOS = 10;
export { REPORT_REASONS } from '../report-reasons.ts';
/** What the owner's list of ads posts for one of them. */
export const ownAdMoveSchema = z.object({
  id: ID_PARAMETER,
  intent: z.enum(['mark-sold', 'delete', 'withdraw-change']),
  /** Marking sold and deleting need it: without it the page asks first (docs/product/ads.md). */
  confirmed: z.literal('1').optional(),
});
/** The owner's moves that ask "are you sure?" first. */
export const CONFIRMED_MOVES = ['mark-sold', 'delete'] as const;

/** The report form of the ad page: a reason from the list and an optional note. */
export const REPORT_NOTE_MAX = 1000;
export const reportSchema = z.object({
  reason: z.enum(REPORT_REASONS),
  note: z.string().trim().max(REPORT_NOTE_MAX).optional(),
});
export type ReportInput = z.output<typeof reportSchema>;

export const TITLE_MIN = 5;
export const TITLE_MAX = 150;
export const DESCRIPTION_MIN = 20;
export const DESCRIPTION_MAX = 5000;
/** Prices in whole units; a billion dinars is beyond any honest classified. */
export const PRICE_MAX = 1_000_000_000;
/** Libya's bounding box, for the optional map pin. */
export const LIBYA = { south: 19.5, north: 33.5, west: 9.3, east: 25.2 } as const;

/** An ad's values as the edit form opens with them (numbers as typed text, switches as booleans). */
export interface AdFormValues {
  title: string;
  description: string;
  price_type: string;
  price: string;
  currency: string;
  city: string;
  area: string;
  lat: string;
  lng: string;
  contact_phone: boolean;
  contact_whatsapp: boolean;
  attrs: Record<string, string | string[] | boolean>;
  /** The ad's photos in order, as the photo uploader shows uploaded ones. */
  photos: { id: number; thumb: string; at: number }[];
}

/** What the form needs to know about an attribute (a subset of the catalogue's Attribute). */
export interface FormAttribute {
  key: string;
  type: 'text' | 'number' | 'select' | 'multiselect' | 'boolean' | 'year' | 'date';
  required: boolean;
  options: { value: string }[];
  min: number | null;
  max: number | null;
}

const text = (v: unknown) => (typeof v === 'string' ? v : String(v));

export { normaliseNumber };

/** A decimal number (Arabic-Indic digits and the Arabic decimal separator accepted) within bounds. */
function numberRules(min: number | null, max: number | null): Rule[] {
  const list: Rule[] = [
    {
      code: 'number',
      normalise: (v) => normaliseNumber(text(v)),
      check: (v) => /^-?\d+(\.\d+)?$/.test(text(v)),
      output: (v) => Number(v),
    },
  ];
  if (min !== null) list.push({ code: `min_value:${min}`, check: (v) => Number(v) >= min });
  if (max !== null) list.push({ code: `max_value:${max}`, check: (v) => Number(v) <= max });
  return list;
}

/** The schema of one attribute's form value. */
function attributeField(a: FormAttribute, now = new Date()) {
  const values = a.options.map((o) => o.value);
  const make = (...list: Rule[]) => (a.required ? requiredField<unknown>(...list) : field<unknown>(...list));
  switch (a.type) {
    case 'number':
      return make(...numberRules(a.min, a.max));
    case 'year':
      return make(...numberRules(a.min ?? 1950, a.max ?? now.getUTCFullYear() + 1), {
        code: 'integer',
        check: (v) => Number.isInteger(v),
      });
    case 'select':
      return make(rules.oneOf(values));
    case 'multiselect':
      // Several checkboxes of one name: one value or a list; every one must be an option.
      return z
        .union([z.string(), z.array(z.string())])
        .optional()
        .transform((v, ctx) => {
          const list = (v === undefined ? [] : Array.isArray(v) ? v : [v]).map((x) => x.trim()).filter(Boolean);
          if (a.required && list.length === 0) ctx.addIssue({ code: 'custom', message: 'required' });
          else if (list.some((x) => !values.includes(x))) ctx.addIssue({ code: 'custom', message: 'in' });
          return [...new Set(list)];
        });
    case 'boolean':
      return z
        .unknown()
        .optional()
        .transform((v) => v === 'on' || v === 'true' || v === true);
    case 'date':
      return make(rules.date());
    default:
      return make(rules.max(500));
  }
}

/**
 * The whole ad form for a leaf category. Attribute fields are named `attrs.<key>`; a field the
 * category does not have is refused (`unknown-attribute`). Buyers reach the seller by phone or
 * WhatsApp (at least one): both need the member's confirmed number, so without one
 * (`confirmedPhone: false`) the form cannot be sent; the server checks the number itself too.
 */
export function adFormSchema(attributes: FormAttribute[], options: { confirmedPhone?: boolean } = {}) {
  const confirmedPhone = options.confirmedPhone ?? true;
  const attrShape = Object.fromEntries(attributes.map((a) => [a.key, attributeField(a)]));
  const known = new Set(attributes.map((a) => a.key));
  return z
    .object({
      title: requiredField(rules.min(TITLE_MIN), rules.max(TITLE_MAX)),
      description: requiredField(rules.min(DESCRIPTION_MIN), rules.max(DESCRIPTION_MAX)),
      price_type: requiredField<PriceType>(rules.oneOf(PRICE_TYPES)),
      price: field<number>(...numberRules(0, PRICE_MAX), { code: 'integer', check: (v) => Number.isInteger(v) }),
      currency: requiredField<(typeof CURRENCIES)[number]>(rules.oneOf(CURRENCIES)),
      // Row ids: past MAX_ID no row can match (and PostgreSQL would refuse the number).
      city: requiredField<number>(...numberRules(1, MAX_ID)),
      area: field<number>(...numberRules(1, MAX_ID)),
      lat: field<number>(...numberRules(LIBYA.south, LIBYA.north)),
      lng: field<number>(...numberRules(LIBYA.west, LIBYA.east)),
      contact_phone: z
        .unknown()
        .optional()
        .transform((v) => v === 'on' || v === 'true' || v === true),
      contact_whatsapp: z
        .unknown()
        .optional()
        .transform((v) => v === 'on' || v === 'true' || v === true),
      photos: z
        .union([z.string(), z.array(z.string())])
        .optional()
        .transform((v, ctx) => {
          const list = (v === undefined ? [] : Array.isArray(v) ? v : [v]).filter(Boolean);
          if (list.length > MAX_PHOTOS) ctx.addIssue({ code: 'custom', message: `max_photos:${MAX_PHOTOS}` });
          const ids = list.map(parseId);
          if (ids.some((id) => id === null)) ctx.addIssue({ code: 'custom', message: 'invalid' });
          return [...new Set(ids.filter((id) => id !== null))];
        }),
      /** A random key per form: submitting the same form twice gives one ad. */
      submission_key: requiredField(rules.max(64)),
      attrs: z
        .record(z.string(), z.unknown())
        .optional()
        .transform((v, ctx) => {
          const raw = v ?? {};
          for (const key of Object.keys(raw)) {
            if (!known.has(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'unknown-attribute' });
          }
          const parsed = z.object(attrShape).safeParse(raw);
          if (!parsed.success) {
            for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
            return z.NEVER;
          }
          return parsed.data as Record<string, unknown>;
        }),
    })
    .superRefine((v, ctx) => {
      if (PRICED.includes(v.price_type) && v.price === undefined) {
        ctx.addIssue({ code: 'custom', path: ['price'], message: 'required' });
      }
      if (!confirmedPhone) ctx.addIssue({ code: 'custom', path: ['contact_phone'], message: 'phone-unconfirmed' });
      else if (!v.contact_phone && !v.contact_whatsapp) {
        ctx.addIssue({ code: 'custom', path: ['contact_phone'], message: 'contact-required' });
      }
    });
}

export type AdFormInput = z.output<ReturnType<typeof adFormSchema>>;
