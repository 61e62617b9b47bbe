import { Anchor, Box, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RevisionValue, useRevisionWords } from '~/components/admin/revision-parts.tsx';
import { useDates } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import { subjectAdminPath } from '~/lib/admin-insight.ts';
import { guards } from '~/lib/guards.server.ts';
import { parseId } from '~/lib/ids.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, notFound, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { findRevision } from '../../../server/domain/admin/revisions.ts';
import type { Route } from './+types/revision';

// `/admin/revisions/{id}` (docs/product/back-office.md, "Revisions"): one change, who made it, from
// where, on what, and each changed field before and after.

export const middleware = guards('acl:view-revisions');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-revisions');
  const id = parseId(params.id);
  if (id === null) throw notFound(request);
  const revision = await findRevision(db(context), id);
  if (!revision) throw notFound(request);
  const t = tFor(request);
  return {
    meta: { title: `${t('admin:revisions.detail-title', { id })} · ${t('admin:revisions.title')}`, noindex: true },
    revision,
    subjectPath: subjectAdminPath(revision.subject_type, revision.subject_id, user),
  };
}

export const meta: Route.MetaFunction = routeMeta;

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Box fw={500}>{children}</Box>
    </Box>
  );
}

export default function RevisionPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to } = useLocale();
  const words = useRevisionWords();
  const dates = useDates();
  const { revision: r, subjectPath } = loaderData;
  const subject = t('revisions.subject', { type: words.type(r.subject_type), id: r.subject_id });
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={to('/admin/revisions')} py={10}>
        <Group gap={4} component="span">
          <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
          {t('revisions.back')}
        </Group>
      </Anchor>
      <Title order={1}>
        {t('revisions.change', { action: words.action(r.action), type: words.type(r.subject_type) })}
      </Title>
      <Card withBorder radius="lg" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Fact label={t('revisions.col.subject')}>
            {subjectPath ? (
              <Anchor component={Link} to={to(subjectPath)}>
                {subject}
              </Anchor>
            ) : (
              subject
            )}
          </Fact>
          <Fact label={t('revisions.col.when')}>{dates.dateTime(r.created_at)}</Fact>
          <Fact label={t('revisions.col.actor')}>
            {r.actor ? (
              <>
                <Text inherit>
                  <bdi>{r.actor.name}</bdi>
                </Text>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  <bdi dir="ltr">{r.actor.email}</bdi>
                </Text>
              </>
            ) : (
              t('revisions.system')
            )}
          </Fact>
          <Fact label={t('revisions.ip')}>
            <Text inherit>
              <bdi dir="ltr">{r.ip ?? '—'}</bdi>
            </Text>
          </Fact>
          <Fact label={t('revisions.user-agent')}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} inherit>
              <bdi dir="ltr">{r.user_agent ?? '—'}</bdi>
            </Text>
          </Fact>
        </SimpleGrid>
      </Card>
      <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="diff-title">
        <Title order={2} size="h4" id="diff-title" mb="md">
          {t('revisions.diff')}
        </Title>
        {r.changes.length === 0 ? (
          <Text c="dimmed">{t('revisions.no-fields')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={0} type="native">
            <Table verticalSpacing="sm" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('revisions.field')}</Table.Th>
                  <Table.Th>{t('revisions.before')}</Table.Th>
                  <Table.Th>{t('revisions.after')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.changes.map((c) => (
                  <Table.Tr key={c.field}>
                    <Table.Th scope="row" fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {c.field}
                    </Table.Th>
                    <Table.Td bg="var(--mantine-color-red-light)">
                      <RevisionValue value={c.before} />
                    </Table.Td>
                    <Table.Td bg="var(--mantine-color-green-light)">
                      <RevisionValue value={c.after} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
