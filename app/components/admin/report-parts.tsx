// Pieces of the reports screens (app/routes/admin/reports.tsx, report.tsx) and of a member's page in
// the back office: what a report is about, its status, and a member's reports (MemberReports, fed
// by listMemberReports in server/domain/admin/reports.ts).
import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { RelativeTime } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { MemberReports, ReportRow } from '../../../server/domain/admin/reports.ts';

type Reported = Pick<ReportRow, 'ad' | 'member' | 'chat_id'>;

/** A member's words isolated in a line of the page's language (first-strong isolate … pop). */
const isolate = (text: string) => `\u2068${text}\u2069`;

/** "Ad: <title>" or "Member: <name>" (from a chat), or that the subject is gone. */
export function useReportSubject() {
  const { t } = useT('admin');
  return (r: Reported) =>
    r.ad
      ? t('reports.about-ad', { title: isolate(r.ad.title) })
      : r.member
        ? t(r.chat_id !== null ? 'reports.about-member-chat' : 'reports.about-member', {
            name: isolate(r.member.name),
          })
        : t('reports.about-gone');
}

export function ReportStatusBadge({ status }: { status: ReportRow['status'] }) {
  const { t } = useT('admin');
  const color = status === 'open' ? 'yellow.4' : status === 'resolved' ? 'green.8' : 'gray.7';
  return (
    <Badge color={color} c={status === 'open' ? 'black' : 'white'} variant="filled" tt="none">
      {t(`reports.statuses.${status}`)}
    </Badge>
  );
}

export function useReasonWords() {
  const { t } = useT('admin');
  return (reason: string) => t(`report-reasons.${reason}`, { defaultValue: reason });
}

function ReportLines({ rows, now, empty }: { rows: ReportRow[]; now: string; empty: string }) {
  const { to } = useLocale();
  const subject = useReportSubject();
  const reason = useReasonWords();
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
      {rows.map((r) => (
        <Group component="li" key={r.id} gap="xs" wrap="wrap" justify="space-between">
          <Anchor component={Link} to={to(`/admin/reports/${r.id}`)} py={10}>
            {subject(r)}
          </Anchor>
          <Group gap="xs">
            <Text size="sm">{reason(r.reason)}</Text>
            <ReportStatusBadge status={r.status} />
            <Text size="xs" c="dimmed">
              <RelativeTime iso={r.created_at} now={now} />
            </Text>
          </Group>
        </Group>
      ))}
    </Stack>
  );
}

/**
 * A member's reports on their page in the back office: about them (or their ads) and by them,
 * with the open counts and a link to the queue filtered to them.
 */
export function MemberReportsCard({
  memberId,
  reports,
  now,
}: {
  memberId: string;
  reports: MemberReports;
  now: string;
}) {
  const { t } = useT('admin');
  const { to } = useLocale();
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="member-reports">
      <Title order={2} size="h4" id="member-reports" mb="sm">
        {t('reports.member.title')}
      </Title>
      <Stack gap="md">
        <div>
          <Group justify="space-between" gap="xs">
            <Text fw={600}>{t('reports.member.about', { count: reports.aboutOpen })}</Text>
            <Anchor
              component={Link}
              to={`${to('/admin/reports')}?${new URLSearchParams({ member: memberId })}`}
              py={10}
            >
              {t('reports.member.queue')}
            </Anchor>
          </Group>
          <ReportLines rows={reports.about} now={now} empty={t('reports.member.none-about')} />
        </div>
        <div>
          <Text fw={600}>{t('reports.member.by', { count: reports.byOpen })}</Text>
          <ReportLines rows={reports.by} now={now} empty={t('reports.member.none-by')} />
        </div>
      </Stack>
    </Card>
  );
}
