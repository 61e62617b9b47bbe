// The forms of the back office's members and roles screens (docs/product/back-office.md, "Members",
// "Roles and permissions"), one schema each, used by the browser and the action alike. Error codes
// are the `validation` namespace's, or `admin:<key>` words of the screen.
import { z } from 'zod';
import { parseId } from '../ids.ts';
import { localPhoneToE164, requiredField, rules } from './rules.ts';

/** `users.ban_reason` is varchar(500). */
export const BAN_REASON_MAX = 500;
/** `roles.name` is varchar(60). */
export const ROLE_NAME_MAX = 60;
/** Roles one form may carry (the matrix, a member's roles). */
const ROLES_MAX = 200;

export const USER_INTENTS = [
  'ban',
  'unban',
  'confirm-email',
  'confirm-phone',
  'access',
  'super-admin',
  'grant-badge',
  'revoke-badge',
] as const;
export type UserIntent = (typeof USER_INTENTS)[number];
export const ROLE_INTENTS = ['matrix', 'create', 'rename', 'delete'] as const;
export type RoleIntent = (typeof ROLE_INTENTS)[number];

/** One value or many, each a positive id, each once. */
const idList = z.unknown().transform((v, ctx) => {
  const raw = Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
  const list = raw.map((x) => (typeof x === 'string' ? parseId(x) : null));
  if (list.some((id) => id === null) || list.length > ROLES_MAX) {
    ctx.addIssue({ code: 'custom', message: 'invalid' });
    return z.NEVER;
  }
  return [...new Set(list as number[])];
});

/** One value or many strings, each passing `ok`, each once. */
const stringList = (ok: (s: string) => boolean, max: number) =>
  z.unknown().transform((v, ctx) => {
    const raw = Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
    if (raw.length > max || raw.some((x) => typeof x !== 'string' || !ok(x))) {
      ctx.addIssue({ code: 'custom', message: 'invalid' });
      return z.NEVER;
    }
    return [...new Set(raw as string[])];
  });

/** A permission's name as written (the action checks it is one: server/domain/permissions.ts). */
const isPermission = (s: string) => s.length <= 60 && /^[a-z]+(-[a-z]+)+$/.test(s);
/** More permissions than exist, still a bound on what a form may carry. */
const PERMISSIONS_MAX = 100;

export const banSchema = z.object({
  intent: z.literal('ban'),
  reason: requiredField(rules.min(3), rules.max(BAN_REASON_MAX)),
});
export const unbanSchema = z.object({ intent: z.literal('unban') });
export const confirmEmailSchema = z.object({ intent: z.literal('confirm-email') });
export const confirmPhoneSchema = z.object({
  intent: z.literal('confirm-phone'),
  /** Libyan numbers may be typed the local way (091…, 00218…). */
  phone: requiredField(
    { code: 'must-be-a-valid-phone-number', normalise: (v) => localPhoneToE164(String(v)), check: () => true },
    rules.phoneNumber(),
  ),
});
export const accessSchema = z.object({
  intent: z.literal('access'),
  roles: idList,
  permissions: stringList(isPermission, PERMISSIONS_MAX),
});
export const superAdminSchema = z.object({
  intent: z.literal('super-admin'),
  value: requiredField<'on' | 'off'>(rules.oneOf(['on', 'off'])),
});

/** Lower-case letters and digits in words joined by dashes, like the seeded roles (`catalog-editor`). */
const ROLE_NAME: { code: string; check: (v: unknown) => boolean } = {
  code: 'admin:roles.errors.name-format',
  check: (v) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(String(v)),
};
const roleName = requiredField(
  { code: 'lower', normalise: (v) => String(v).toLowerCase(), check: () => true },
  rules.min(2),
  rules.max(ROLE_NAME_MAX),
  ROLE_NAME,
);

export const matrixSchema = z.object({
  intent: z.literal('matrix'),
  /** The roles the form showed (a role created since is left alone). */
  roles: idList,
  /** Ticked boxes, `<roleId>:<permission>`. */
  grants: stringList((s) => {
    const [role, permission] = s.split(':');
    return parseId(role ?? '') !== null && isPermission(permission ?? '');
  }, ROLES_MAX * PERMISSIONS_MAX),
});
export const createRoleSchema = z.object({ intent: z.literal('create'), name: roleName });
export const renameRoleSchema = z.object({
  intent: z.literal('rename'),
  id: requiredField<number>({ code: 'invalid', normalise: (v) => parseId(String(v)), check: (v) => v !== null }),
  name: roleName,
});
export const deleteRoleSchema = z.object({
  intent: z.literal('delete'),
  id: requiredField<number>({ code: 'invalid', normalise: (v) => parseId(String(v)), check: (v) => v !== null }),
  /** The number of holders the confirmation stated. */
  holders: requiredField<number>(rules.numeric(), {
    code: 'invalid',
    normalise: (v) => Number(v),
    check: (v) => Number.isSafeInteger(v),
  }),
});

/** Granting or taking back one of the members' badges (`badge`: its id). */
export const memberBadgeSchema = z.object({
  badge: z.string({ error: 'required' }).transform((v, ctx) => {
    const id = parseId(v);
    if (id !== null) return id;
    ctx.addIssue({ code: 'custom', message: 'required' });
    return z.NEVER;
  }),
});
