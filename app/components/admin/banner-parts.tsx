// Pieces of the back office's banner screens (app/routes/admin/banners.tsx and banner.tsx): a
// banner's state as a badge, and its schedule in words.
import { Badge } from '@mantine/core';
import { useDates } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import type { BannerState } from '~/lib/banners.ts';

// Filled badges with a fixed text colour, each pair at least 4.5:1 in light and dark mode (as the
// moderation queue's: app/components/admin/moderation-parts.tsx).
const STATE_COLOR: Record<BannerState, [string, string]> = {
  live: ['brand.8', 'white'],
  scheduled: ['blue.8', 'white'],
  ended: ['gray.7', 'white'],
  off: ['gray.3', 'black'],
};

export function StateBadge({ state }: { state: BannerState }) {
  const { t } = useT('admin');
  return (
    <Badge
      color={STATE_COLOR[state][0]}
      c={STATE_COLOR[state][1]}
      variant="filled"
      tt="none"
      radius="sm"
      miw="max-content"
    >
      {t(`banners.states.${state}`)}
    </Badge>
  );
}

/** "From 1 June to 30 June 2026", "From 1 June", "Until …", "Always". */
export function useSchedule() {
  const { t } = useT('admin');
  const dates = useDates();
  const day = (d: string) => dates.date(`${d}T12:00:00Z`);
  return (from: string | null, until: string | null) =>
    from && until
      ? t('banners.schedule.between', { from: day(from), until: day(until) })
      : from
        ? t('banners.schedule.from', { from: day(from) })
        : until
          ? t('banners.schedule.until', { until: day(until) })
          : t('banners.schedule.always');
}
