// Pieces of the back office's banner screens (app/routes/admin/banners.tsx and banner.tsx): a
// banner's state as a badge, and its schedule in words.
import { Badge } from '@mantine/core';
import { useDates } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import type { BannerState } from '~/lib/banners.ts';

const STATE_COLOR: Record<BannerState, string> = {
  live: 'green.9',
  scheduled: 'blue.9',
  ended: 'gray.7',
  off: 'gray.7',
};

export function StateBadge({ state }: { state: BannerState }) {
  const { t } = useT('admin');
  return (
    <Badge color={STATE_COLOR[state]} c="white" variant="filled" tt="none">
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
