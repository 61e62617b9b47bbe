// Dates as the site writes them: Libyan time, in the page's language, and "3 hours ago" against the
// server's clock (passed down from the loader, so the browser renders the same words).
import { dates, relativeTimeFormat } from '~/lib/intl.ts';
import { useLocale } from '~/lib/use-locale.ts';

/** The site's dates (app/lib/intl.ts) in the page's language, and "3 hours ago". */
export function useDates() {
  const { locale } = useLocale();
  const relative = relativeTimeFormat(locale);
  return {
    ...dates(locale),
    /** "3 hours ago", against the server's `now` so the page renders the same in the browser. */
    relative: (iso: string, now: string) => {
      const seconds = Math.round((new Date(iso).getTime() - new Date(now).getTime()) / 1000);
      const abs = Math.abs(seconds);
      const steps: [number, Intl.RelativeTimeFormatUnit][] = [
        [60, 'second'],
        [3600, 'minute'],
        [86_400, 'hour'],
        [30 * 86_400, 'day'],
        [365 * 86_400, 'month'],
      ];
      const sizes: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86_400, month: 30 * 86_400 };
      for (const [limit, unit] of steps) {
        if (abs < limit) return relative.format(Math.round(seconds / sizes[unit]), unit);
      }
      return relative.format(Math.round(seconds / (365 * 86_400)), 'year');
    },
  };
}

/** A relative time with the exact one as its machine-readable value and tooltip. */
export function RelativeTime({ iso, now }: { iso: string; now: string }) {
  const dates = useDates();
  return (
    <time dateTime={iso} title={dates.dateTime(iso)}>
      {dates.relative(iso, now)}
    </time>
  );
}
