import { Button, NativeSelect, Stack, Textarea } from '@mantine/core';
import { Form } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { REPORT_REASONS } from '~/lib/report-reasons.ts';

/**
 * The ad page's report form (a reason and a note), opened from its "Report" disclosure; a module of
 * its own so that the page loads it after its first load.
 */
export default function ReportForm() {
  const { t } = useT('ads');
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="report" />
      <Stack gap="xs" mt="xs">
        <NativeSelect
          name="reason"
          label={t('report.reason')}
          data={REPORT_REASONS.map((r) => ({ value: r, label: t(`report.reasons.${r}`) }))}
          required
        />
        <Textarea name="note" label={t('report.note')} maxLength={1000} autosize minRows={2} dir="auto" />
        <Button type="submit" variant="default" radius="xl">
          {t('report.submit')}
        </Button>
      </Stack>
    </Form>
  );
}
