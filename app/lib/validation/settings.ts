// The marketplace settings form of /admin/settings (docs/product/back-office.md, "Settings"), on
// both sides, and the bounds the server also holds stored values to (server/domain/settings.ts).
import { z } from 'zod';
import { wholeRules } from './places.ts';
import { requiredField, rules } from './rules.ts';

export const MODERATION_MODES = ['pre', 'post'] as const;
export type ModerationMode = (typeof MODERATION_MODES)[number];

/** Inclusive bounds of each number setting. */
export const SETTING_BOUNDS = {
  freeActiveAds: [0, 1000],
  lifetimeDays: [1, 365],
  reminderDaysBefore: [0, 30],
  repostCooldownDays: [0, 90],
} as const;

const whole = (name: keyof typeof SETTING_BOUNDS) =>
  requiredField<number>(...wholeRules(SETTING_BOUNDS[name][0], SETTING_BOUNDS[name][1]));

export const settingsSchema = z
  .object({
    moderation: requiredField<ModerationMode>(rules.oneOf(MODERATION_MODES)),
    freeActiveAds: whole('freeActiveAds'),
    lifetimeDays: whole('lifetimeDays'),
    reminderDaysBefore: whole('reminderDaysBefore'),
    repostCooldownDays: whole('repostCooldownDays'),
  })
  .superRefine((v, ctx) => {
    // A reminder is sent before the ad ends: it cannot come before the ad starts.
    if (v.reminderDaysBefore >= v.lifetimeDays) {
      ctx.addIssue({ code: 'custom', path: ['reminderDaysBefore'], message: 'reminder-after-start' });
    }
  });
export type SettingsForm = z.output<typeof settingsSchema>;
