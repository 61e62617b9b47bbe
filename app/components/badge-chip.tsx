// Badges as pages show them (docs/product/back-office.md, "Badges"): a pill of the badge's colour
// with its icon and name in white (every colour gives white 4.5:1 or more, in light and dark:
// app/lib/badges.ts), or on a card, the icon alone in a small disc named for screen readers.
// Plain elements, a CSS module and icons from one SVG sprite: cards render many of them.
import { BADGE_ICONS, BADGE_SPRITE, type BadgeChipData, badgeBackground } from '~/lib/badges.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './badge-chip.module.css';

const KNOWN: ReadonlySet<string> = new Set(BADGE_ICONS);

/** A symbol of the sprite (public/images/badge-icons.svg), decorative. */
export function SpriteIcon({ name, size, className }: { name: string; size: number; className?: string }) {
  return (
    <svg width={size} height={size} aria-hidden="true" focusable="false" className={className}>
      <use href={`${BADGE_SPRITE}#${name}`} />
    </svg>
  );
}

/** One badge: a pill with its name, or (`compact`) its icon alone, named by `aria-label`. */
export function BadgeChip({ badge, compact = false }: { badge: BadgeChipData; compact?: boolean }) {
  const { name } = useLocale();
  const icon = KNOWN.has(badge.icon) ? badge.icon : 'award';
  const label = name(badge);
  if (compact) {
    return (
      <span
        className={classes.dot}
        style={{ background: badgeBackground(badge.colour) }}
        role="img"
        aria-label={label}
        title={label}
      >
        <SpriteIcon name={icon} size={12} />
      </span>
    );
  }
  return (
    <span className={classes.pill} style={{ background: badgeBackground(badge.colour) }}>
      <SpriteIcon name={icon} size={14} />
      <bdi>{label}</bdi>
    </span>
  );
}

export function BadgeChips({
  badges,
  compact = false,
  label,
}: {
  badges: readonly BadgeChipData[];
  compact?: boolean;
  /** The list's accessible name; without it (cards) the badges read as part of the link. */
  label?: string;
}) {
  if (badges.length === 0) return null;
  const className = compact ? classes.dots : classes.pills;
  if (!label) {
    return (
      <span className={className}>
        {badges.map((b) => (
          <BadgeChip key={b.id} badge={b} compact={compact} />
        ))}
      </span>
    );
  }
  return (
    <ul className={`${className} ${classes.list}`} aria-label={label}>
      {badges.map((b) => (
        <li key={b.id}>
          <BadgeChip badge={b} compact={compact} />
        </li>
      ))}
    </ul>
  );
}
