// The back office's company and badge forms (docs/product/back-office.md, "Companies", "Badges"),
// one schema per form, shared by the browser and the action. Error codes are worded by the
// `validation` catalogue (field names under its `fields`).
import { z } from 'zod';
import { BADGE_COLOUR_KEYS, BADGE_ICONS, BADGE_TARGETS, type BadgeColour, type BadgeIcon } from '../badges.ts';
import { parseId } from '../ids.ts';
import { imageFile } from './profile.ts';
import { field, type Rule, requiredField, rules } from './rules.ts';

/** The lists' sorts and filters (app/lib/admin-list.ts), read by the pages and the domain. */
export const COMPANY_LIST = {
  sorts: ['created', 'name'] as const,
  directions: { name: 'asc' } as const,
  filters: { verified: ['yes', 'no'] } as const,
};
export type CompanySort = (typeof COMPANY_LIST.sorts)[number];

export const BADGE_LIST = {
  sorts: ['created', 'name'] as const,
  directions: { name: 'asc' } as const,
  filters: { target: ['user', 'company'] } as const,
};
export type BadgeSort = (typeof BADGE_LIST.sorts)[number];

export const COMPANY_ROLES = ['owner', 'agent'] as const;
export type CompanyRoleName = (typeof COMPANY_ROLES)[number];

/** Logos up to 5 MB; the server decides the type by the bytes (server/media/images.ts). */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const LOGO_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

/** app/lib/slug.ts's pattern (written here: its module stays out of the admin pages' shared chunks). */
const slug: Rule = { code: 'slug', check: (v) => typeof v === 'string' && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(v) };
/** An http(s) address. */
const website: Rule = {
  code: 'url',
  check: (v) => {
    try {
      const u = new URL(String(v));
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.includes('.');
    } catch {
      return false;
    }
  },
};

const checkbox = () =>
  z
    .unknown()
    .optional()
    .transform((v) => v === 'on' || v === 'true' || v === true || v === '1');

/** An id field (hidden inputs, selects): a row id or the `invalid` code. */
const idField = () =>
  z.unknown().transform((v, ctx): number => {
    const id = parseId(v);
    if (id === null) {
      ctx.addIssue({ code: 'custom', message: 'invalid' });
      return z.NEVER;
    }
    return id;
  });

export const companySchema = z.object({
  slug: requiredField(rules.max(80), { ...slug, normalise: (v) => String(v).toLowerCase() }),
  name_ar: requiredField(rules.min(2), rules.max(120)),
  name_en: requiredField(rules.min(2), rules.max(120)),
  description: field(rules.max(2000)),
  phone: field(rules.phoneNumber()),
  email: field(rules.email(), rules.max(254)),
  website: field(rules.max(300), website),
  /** A city id; blank = none. Checked against the table on the server. */
  city: field(rules.numeric(), rules.max(9)),
  verified: checkbox(),
});
export type CompanyInput = z.output<typeof companySchema>;

export const logoSchema = z.object({ image: imageFile(LOGO_MAX_BYTES) });

/** A member by the email address or phone number of their account. */
export const addMemberSchema = z.object({
  login: requiredField(rules.emailOrPhone()),
  role: requiredField<CompanyRoleName>(rules.oneOf(COMPANY_ROLES)),
});

export const memberSchema = z.object({ user_id: requiredField(rules.max(64)) });

export const memberRoleSchema = z.object({
  user_id: requiredField(rules.max(64)),
  role: requiredField<CompanyRoleName>(rules.oneOf(COMPANY_ROLES)),
});

export const badgeSchema = z.object({
  slug: requiredField(rules.max(80), { ...slug, normalise: (v) => String(v).toLowerCase() }),
  name_ar: requiredField(rules.min(2), rules.max(60)),
  name_en: requiredField(rules.min(2), rules.max(60)),
  description_ar: field(rules.max(300)),
  description_en: field(rules.max(300)),
  icon: requiredField<BadgeIcon>(rules.oneOf(BADGE_ICONS)),
  colour: requiredField<BadgeColour>(rules.oneOf(BADGE_COLOUR_KEYS)),
  target: requiredField<(typeof BADGE_TARGETS)[number]>(rules.oneOf(BADGE_TARGETS)),
});
export type BadgeInput = z.output<typeof badgeSchema>;

/** Grant a badge from its page: to a member (by email or phone) or to a company (by its address name). */
export const grantSchema = z.object({ holder: requiredField(rules.max(254)) });

export const revokeSchema = z.object({ grant: idField() });

export const COMPANY_INTENTS = [
  'save',
  'logo',
  'logo-remove',
  'add-member',
  'remove-member',
  'member-role',
  'delete',
] as const;
export const isCompanyIntent = (v: unknown): v is (typeof COMPANY_INTENTS)[number] =>
  (COMPANY_INTENTS as readonly unknown[]).includes(v);

export const BADGE_INTENTS = ['save', 'grant', 'revoke', 'delete'] as const;
export const isBadgeIntent = (v: unknown): v is (typeof BADGE_INTENTS)[number] =>
  (BADGE_INTENTS as readonly unknown[]).includes(v);
