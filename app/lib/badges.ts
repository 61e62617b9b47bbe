// Badges' looks (docs/product/back-office.md, "Badges"): a fixed set of icons and colours chosen by
// key — no uploads. The icons are Tabler's, drawn from one SVG sprite, public/images/badge-icons.svg
// (made by scripts/badge-icons.ts from @tabler/icons; no icon code in the pages' scripts: cards
// render them by the dozen). This file holds the keys and colours, read by the server (validation)
// and the browser alike.
//
// A badge is drawn as a pill of its colour with white text and icon, so its contrast does not
// depend on the colour scheme: every colour here gives white at least 4.5:1
// (tests/unit/badges.test.ts computes it), in light and dark alike.

export const BADGE_ICONS = [
  'verified',
  'shield',
  'star',
  'award',
  'crown',
  'bolt',
  'heart',
  'medal',
  'thumb-up',
  'clock',
  'store',
  'trophy',
  'diamond',
  'truck',
] as const;
export type BadgeIcon = (typeof BADGE_ICONS)[number];

/** Each icon key's Tabler icon (outline), and the sprite's other symbols (the company marks'). */
export const SPRITE_ICONS: Record<string, { file: string; filled?: boolean }> = {
  verified: { file: 'rosette-discount-check' },
  shield: { file: 'shield-check' },
  star: { file: 'star' },
  award: { file: 'award' },
  crown: { file: 'crown' },
  bolt: { file: 'bolt' },
  heart: { file: 'heart' },
  medal: { file: 'medal' },
  'thumb-up': { file: 'thumb-up' },
  clock: { file: 'clock' },
  store: { file: 'building-store' },
  trophy: { file: 'trophy' },
  diamond: { file: 'diamond' },
  truck: { file: 'truck' },
  'verified-filled': { file: 'rosette-discount-check', filled: true },
};

/** The sprite's address; `?v=` changes with its symbols, so a cached copy never lacks one. */
export const BADGE_SPRITE = `/images/badge-icons.svg?v=${Object.keys(SPRITE_ICONS).length}`;

/** Each colour's background; the text and icon on it are white. */
export const BADGE_COLOURS = {
  blue: '#1a5bb5',
  green: '#1b7a3d',
  teal: '#0c6b66',
  red: '#b3261e',
  orange: '#a34a00',
  gold: '#7d5a00',
  violet: '#6a3fb5',
  pink: '#a3225f',
  indigo: '#3b45a8',
  grey: '#4a5058',
} as const;
export type BadgeColour = keyof typeof BADGE_COLOURS;
export const BADGE_COLOUR_KEYS = Object.keys(BADGE_COLOURS) as BadgeColour[];

export const BADGE_TARGETS = ['user', 'company'] as const;
export type BadgeTargetKind = (typeof BADGE_TARGETS)[number];

/** What a page shows of a badge. */
export interface BadgeChipData {
  id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  icon: string;
  colour: string;
}

/** The colour's background, grey for a key no longer in the list. */
export const badgeBackground = (colour: string): string =>
  (BADGE_COLOURS as Record<string, string>)[colour] ?? BADGE_COLOURS.grey;
