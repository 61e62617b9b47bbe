// A chart of the dashboard (app/routes/admin/dashboard.tsx): a count per day as bars, with its
// text alternative — a one-line summary (the chart's accessible name) and the figures as a table
// in a disclosure. Only the dashboard imports this file, so @mantine/charts and recharts are in its
// route's scripts and styles alone, never on the public pages. In Arabic the days run from right to
// left and the value axis stands on the right; colours are Mantine's, so dark mode follows.
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Box, Card, Table, Text, Title } from '@mantine/core';
import { useT } from '~/i18n/use-t.ts';
import { dates, numberFormat } from '~/lib/intl.ts';
import { useLocale } from '~/lib/use-locale.ts';

export interface ChartDay {
  day: string;
  count: number;
}

export function DayChart({ id, title, days, series }: { id: string; title: string; days: ChartDay[]; series: string }) {
  const { t } = useT('admin');
  const { locale } = useLocale();
  const rtl = locale === 'ar';
  const number = numberFormat(locale);
  const { day, date } = dates(locale);
  const total = days.reduce((a, d) => a + d.count, 0);
  const peak = days.reduce<ChartDay | null>((best, d) => (best === null || d.count > best.count ? d : best), null);
  const summary =
    peak && peak.count > 0
      ? t('dashboard.chart-summary', {
          total: number.format(total),
          days: days.length,
          peak: date(`${peak.day}T12:00:00Z`),
          peakCount: number.format(peak.count),
        })
      : t('dashboard.chart-none', { days: days.length });
  const data = days.map((d) => ({ label: day(d.day), [series]: d.count }));
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb={4}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="md" id={`${id}-summary`}>
        {summary}
      </Text>
      <Box role="img" aria-labelledby={`${id} ${id}-summary`} dir="ltr">
        <BarChart
          h={220}
          data={data}
          dataKey="label"
          series={[{ name: series, label: title, color: 'brand.6' }]}
          valueFormatter={(v) => number.format(v)}
          tickLine="none"
          xAxisProps={{ reversed: rtl, interval: 'preserveStartEnd', minTickGap: 16 }}
          yAxisProps={{ orientation: rtl ? 'right' : 'left', allowDecimals: false, width: 48 }}
          tooltipAnimationDuration={0}
        />
      </Box>
      <details>
        <summary style={{ cursor: 'pointer', paddingBlock: 12 }}>{t('dashboard.as-table')}</summary>
        <Table striped mt="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dashboard.day')}</Table.Th>
              <Table.Th>{title}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {days.map((d) => (
              <Table.Tr key={d.day}>
                <Table.Td>{date(`${d.day}T12:00:00Z`)}</Table.Td>
                <Table.Td>{number.format(d.count)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </details>
    </Card>
  );
}
