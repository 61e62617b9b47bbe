// The back office's package forms (docs/product/back-office.md, "Packages"), on both sides: a
// package (create and edit) and a grant of one to a member with the payment staff recorded.
import { z } from 'zod';
import { normaliseNumber } from '../digits.ts';
import { parseId } from '../ids.ts';
import { CURRENCIES } from './ads.ts';
import { field, type Rule, requiredField, rules } from './rules.ts';

export const PACKAGE_AUDIENCES = ['individual', 'company'] as const;
export type PackageAudience = (typeof PACKAGE_AUDIENCES)[number];
export const PAYMENT_METHODS = ['offline', 'bank-transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export { CURRENCIES };

export const PACKAGE_NAME_MAX = 100;
export const PACKAGE_DESCRIPTION_MAX = 1000;
export const PACKAGE_PRICE_MAX = 1_000_000_000;
/** Ten years. */
export const PACKAGE_DURATION_MAX = 3650;
/** Active ads, featured ads or reposts one package may add. */
export const PACKAGE_COUNT_MAX = 10_000;
export const PAYMENT_REFERENCE_MAX = 100;

const text = (v: unknown) => (typeof v === 'string' ? v : String(v));

/** A whole number from `min` to `max`; Arabic-Indic digits and thousands separators accepted. */
function wholeNumber(min: number, max: number): Rule[] {
  return [
    {
      code: 'integer',
      normalise: (v) => normaliseNumber(text(v)),
      check: (v) => /^-?\d+$/.test(text(v)) && Number.isSafeInteger(Number(v)),
      output: (v) => Number(v),
    },
    { code: `min_value:${min}`, check: (v) => Number(v) >= min },
    { code: `max_value:${max}`, check: (v) => Number(v) <= max },
  ];
}

/** A checkbox: ticked or not (absent). */
const checkbox = z.unknown().transform((v) => v === 'on' || v === 'true' || v === true);

export const packageSchema = z.object({
  name_ar: requiredField(rules.max(PACKAGE_NAME_MAX)),
  name_en: requiredField(rules.max(PACKAGE_NAME_MAX)),
  description_ar: field(rules.max(PACKAGE_DESCRIPTION_MAX)),
  description_en: field(rules.max(PACKAGE_DESCRIPTION_MAX)),
  price: requiredField<number>(...wholeNumber(0, PACKAGE_PRICE_MAX)),
  currency: requiredField<(typeof CURRENCIES)[number]>(rules.oneOf(CURRENCIES)),
  duration_days: requiredField<number>(...wholeNumber(1, PACKAGE_DURATION_MAX)),
  max_active_ads: requiredField<number>(...wholeNumber(0, PACKAGE_COUNT_MAX)),
  featured_ads: requiredField<number>(...wholeNumber(0, PACKAGE_COUNT_MAX)),
  reposts: requiredField<number>(...wholeNumber(0, PACKAGE_COUNT_MAX)),
  audience: requiredField<PackageAudience>(rules.oneOf(PACKAGE_AUDIENCES)),
  active: checkbox,
});
export type PackageValues = z.output<typeof packageSchema>;

/** A package id from a form (a select's value). */
const packageId: Rule = {
  code: 'in',
  check: (v) => parseId(text(v)) !== null,
  output: (v) => parseId(text(v)),
};

export const grantSchema = z.object({
  /** The member, by email address or phone number (Libyan numbers may be typed 09…). */
  member: requiredField(rules.emailOrPhone()),
  package_id: requiredField<number>(packageId),
  method: requiredField<PaymentMethod>(rules.oneOf(PAYMENT_METHODS)),
  reference: requiredField(rules.max(PAYMENT_REFERENCE_MAX)),
  paid_amount: requiredField<number>(...wholeNumber(0, PACKAGE_PRICE_MAX)),
  paid_currency: requiredField<(typeof CURRENCIES)[number]>(rules.oneOf(CURRENCIES)),
});
export type GrantValues = z.output<typeof grantSchema>;

/** Who a grant is for: a member (packages for individuals) or a company (packages for companies). */
export const GRANT_HOLDERS = ['member', 'company'] as const;
export type GrantHolder = (typeof GRANT_HOLDERS)[number];

/** The address name of a company's page (app/lib/slug.ts's pattern, any case). */
const companySlug: Rule = {
  code: 'slug',
  normalise: (v) => text(v).trim().toLowerCase(),
  check: (v) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(text(v)),
};

/** A grant to a company, by the address name of its page, with the payment as for members. */
export const companyGrantSchema = grantSchema.omit({ member: true }).extend({
  company: requiredField(rules.max(80), companySlug),
});
export type CompanyGrantValues = z.output<typeof companyGrantSchema>;

/** The package screen's forms other than the edit itself: toggle active, delete. */
export const packageIntentSchema = z.object({ intent: z.enum(['save', 'activate', 'deactivate', 'delete']) });

/** The packages list's sorts (the first is the default). */
export const PACKAGE_SORTS = ['created', 'price', 'duration'] as const;
export type PackageSort = (typeof PACKAGE_SORTS)[number];
/** The subscriptions list's sorts and states. */
export const SUBSCRIPTION_SORTS = ['granted', 'ends'] as const;
export type SubscriptionSort = (typeof SUBSCRIPTION_SORTS)[number];
export const SUBSCRIPTION_STATES = ['current', 'upcoming', 'ended'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];
