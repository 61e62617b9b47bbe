// Badges' looks (docs/product/back-office.md, "Badges"): a fixed set of icons and colours chosen by
// key — no uploads. The icons themselves are app/components/badge-chip.tsx; this file is only the
// keys and colours, read by the server (validation) and the browser alike.
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
