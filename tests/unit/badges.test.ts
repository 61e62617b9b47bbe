// Badge colours (app/lib/badges.ts): a badge is white text and icon on its colour, in light and
// dark alike, so every colour must give white a contrast of at least 4.5:1 (WCAG 2 AA, normal text).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BADGE_COLOURS, BADGE_ICONS, badgeBackground, SPRITE_ICONS } from '~/lib/badges.ts';
import { badgeSprite, SPRITE_FILE } from '../../scripts/badge-icons.ts';

/** WCAG 2 relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

describe('badge colours', () => {
  it.each(Object.entries(BADGE_COLOURS))('%s gives white at least 4.5:1', (_name, hex) => {
    expect(contrast(hex, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('measures contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    // A light colour fails: the check can fail.
    expect(contrast('#ffd43b', '#ffffff')).toBeLessThan(4.5);
  });

  it('falls back to grey for a colour no longer in the set', () => {
    expect(badgeBackground('no-such-colour')).toBe(BADGE_COLOURS.grey);
  });

  it('draws every icon key from the sprite, which is what scripts/badge-icons.ts writes', () => {
    const sprite = readFileSync(SPRITE_FILE, 'utf8');
    expect(sprite).toBe(badgeSprite());
    for (const key of [...BADGE_ICONS, ...Object.keys(SPRITE_ICONS)]) {
      expect(sprite).toMatch(new RegExp(`<symbol id="${key}" viewBox="0 0 24 24"[^>]*><(path|circle|rect)`));
    }
  });
});
