// The marketplace's settings (docs/product/back-office.md, "Settings"): moderation mode, the free
// allowance, an ad's lifetime and its expiry reminder, the repost cool-down. Stored one row per key
// in `settings` (value: JSON), edited by the super admin at /admin/settings, read by the ad rules
// (server/domain/ads/) with these defaults for what was never saved.
//
// Effective without a restart, with any number of processes: a read outside a transaction is kept
// SETTINGS_TTL_MS per database (a handful of rows, read again when older), and a save forgets this
// process's copies once committed. Another process follows within SETTINGS_TTL_MS. A read inside a
// transaction always asks the database (the rows of that transaction's moment).

import { MODERATION_MODES, type ModerationMode, SETTING_BOUNDS } from '../../app/lib/validation/settings.ts';
import type { DB } from '../db/index.ts';
import { withTransaction } from '../db/transaction.ts';
import { toJson } from '../db/values.ts';
import type { Actor } from './ads/rules.ts';
import { changedFields, recordRevision } from './audit.ts';

export { MODERATION_MODES, type ModerationMode, SETTING_BOUNDS };

export type MarketSettings = {
  /** `pre`: new ads and reviewed edits wait for staff; `post`: they go live at once. */
  moderation: ModerationMode;
  /** Ads a member may have pending or published at once without a package. */
  freeActiveAds: number;
  /** Days a published ad stays live. */
  lifetimeDays: number;
  /** Days before expiry the owner is reminded (once). */
  reminderDaysBefore: number;
  /** A published ad may be bumped once per this many days. */
  repostCooldownDays: number;
};

/** The row key of each setting. */
export const SETTING_KEYS = {
  moderation: 'moderation',
  freeActiveAds: 'free_active_ads',
  lifetimeDays: 'ad_lifetime_days',
  reminderDaysBefore: 'ad_reminder_days',
  repostCooldownDays: 'repost_cooldown_days',
} as const satisfies Record<keyof MarketSettings, string>;

/** The built-in values (docs/product/ads.md), in force until the super admin saves others. */
export const BUILT_IN_SETTINGS: Readonly<MarketSettings> = {
  moderation: 'pre',
  freeActiveAds: 5,
  lifetimeDays: 30,
  reminderDaysBefore: 3,
  repostCooldownDays: 7,
};
const BUILT_IN = BUILT_IN_SETTINGS;
let defaults: MarketSettings = { ...BUILT_IN };

/** The values of settings never saved (the `MODERATION` variable sets the mode's: server/config.ts). */
export function setSettingDefaults(change: Partial<MarketSettings>): void {
  defaults = { ...BUILT_IN, ...change };
  forgetSettings();
}

export const settingDefaults = (): MarketSettings => ({ ...defaults });

/** How long a process keeps what it read (another process's save is seen within this). */
export const SETTINGS_TTL_MS = 5_000;

let held = new WeakMap<DB, { at: number; value: Promise<MarketSettings> }>();

/** Forgets this process's copies (after a save). */
export function forgetSettings(): void {
  held = new WeakMap();
}

function valid(key: keyof MarketSettings, value: unknown): boolean {
  if (key === 'moderation') return (MODERATION_MODES as readonly unknown[]).includes(value);
  const [min, max] = SETTING_BOUNDS[key];
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

async function load(db: DB): Promise<MarketSettings> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', Object.values(SETTING_KEYS))
    .execute();
  // Each value is kept as `{"value": …}`: a bare JSON string would read back differently from
  // jsonb (parsed) and from SQLite's text.
  const stored = new Map(rows.map((r) => [r.key, toJson<{ value?: unknown }>(r.value, {})?.value]));
  const out = { ...defaults } as Record<keyof MarketSettings, unknown>;
  for (const [name, key] of Object.entries(SETTING_KEYS) as [keyof MarketSettings, string][]) {
    const value = stored.get(key);
    if (valid(name, value)) out[name] = value;
  }
  return out as unknown as MarketSettings;
}

/** The settings as stored now, without this process's copy (the settings page's form). */
export const readStoredSettings = (db: DB): Promise<MarketSettings> => load(db);

/** The settings in force: saved values, defaults for the others. */
export function readSettings(db: DB, now = Date.now()): Promise<MarketSettings> {
  if (db.isTransaction) return load(db);
  const entry = held.get(db);
  if (entry && now - entry.at <= SETTINGS_TTL_MS) return entry.value;
  const value = load(db);
  const fresh = { at: now, value };
  held.set(db, fresh);
  value.catch(() => {
    if (held.get(db) === fresh) held.delete(db);
  });
  return value;
}

/** Saves the settings (a revision of what changed, in the same transaction); returns the changed names. */
export async function saveSettings(db: DB, actor: Actor, next: MarketSettings): Promise<string[]> {
  for (const name of Object.keys(SETTING_KEYS) as (keyof MarketSettings)[]) {
    if (!valid(name, next[name])) throw new Error(`saveSettings: ${name} out of bounds`);
  }
  return withTransaction(db, async (tx, { afterCommit }) => {
    const before = await load(tx);
    const changes = changedFields<MarketSettings>(before, next);
    const names = Object.keys(changes) as (keyof MarketSettings)[];
    if (names.length === 0) return [];
    const at = new Date();
    for (const name of names) {
      const key = SETTING_KEYS[name];
      await tx
        .insertInto('settings')
        .values({ key, value: JSON.stringify({ value: next[name] }), updated_at: at })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({ value: JSON.stringify({ value: next[name] }), updated_at: at }),
        )
        .execute();
    }
    await recordRevision(tx, actor, { type: 'settings', id: 'marketplace' }, 'update', changes);
    afterCommit(forgetSettings);
    return names;
  });
}
