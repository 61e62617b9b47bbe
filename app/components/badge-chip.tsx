// Badges as pages show them (docs/product/back-office.md, "Badges"): a pill of the badge's colour
// with its icon and name in white (every colour gives white 4.5:1 or more, in light and dark:
// app/lib/badges.ts), or on a card, the icon alone in a small disc named for screen readers.
// Plain elements and a CSS module: cards render many of them.
import {
  IconAward,
  IconBolt,
  IconBuildingStore,
  IconClock,
  IconCrown,
  IconDiamond,
  IconHeart,
  IconMedal,
  IconRosetteDiscountCheck,
  IconShieldCheck,
  IconStar,
  IconThumbUp,
  IconTrophy,
  IconTruck,
} from '@tabler/icons-react';
import { type BadgeChipData, type BadgeIcon, badgeBackground } from '~/lib/badges.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './badge-chip.module.css';

export const BADGE_ICON_COMPONENTS: Record<BadgeIcon, typeof IconStar> = {
  verified: IconRosetteDiscountCheck,
  shield: IconShieldCheck,
  star: IconStar,
  award: IconAward,
  crown: IconCrown,
  bolt: IconBolt,
  heart: IconHeart,
  medal: IconMedal,
  'thumb-up': IconThumbUp,
  clock: IconClock,
  store: IconBuildingStore,
  trophy: IconTrophy,
  diamond: IconDiamond,
  truck: IconTruck,
};

const iconOf = (key: string) => BADGE_ICON_COMPONENTS[key as BadgeIcon] ?? IconAward;

/** One badge: a pill with its name, or (`compact`) its icon alone, named by `aria-label`. */
export function BadgeChip({ badge, compact = false }: { badge: BadgeChipData; compact?: boolean }) {
  const { name } = useLocale();
  const Icon = iconOf(badge.icon);
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
        <Icon size={12} stroke={2.25} aria-hidden />
      </span>
    );
  }
  return (
    <span className={classes.pill} style={{ background: badgeBackground(badge.colour) }}>
      <Icon size={14} stroke={2} aria-hidden />
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
