import { Anchor, Badge, Box, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { type AdminColumn, AdminList } from '~/components/admin/admin-list.tsx';
import { useDates } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import { parseListQuery } from '~/lib/admin-list.ts';
import { usersListSpec } from '~/lib/admin-users.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { services, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { decodeCursor } from '../../../server/domain/admin/keyset.ts';
import { listRoles } from '../../../server/domain/admin/roles.ts';
import { listUsers, type UserRow } from '../../../server/domain/admin/users.ts';
import type { Route } from './+types/users';

// The members list (docs/product/back-office.md, "Members"): search by name, email or phone;
// filters by role, ban and confirmation; newest or by name, page by page. Each row opens the
// member's page. There is no company filter: companies are not built yet.

export const middleware = guards('acl:view-users');

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, 'view-users');
  const { database } = services(context);
  const roles = (await listRoles(database.db)).map((r) => r.name);
  const spec = usersListSpec(roles);
  const query = parseListQuery(new URL(request.url).searchParams, spec);
  const page = await listUsers(database, {
    q: query.q,
    filters: query.filters,
    sort: query.sort,
    dir: query.dir,
    after: decodeCursor(query.after),
  });
  return {
    meta: { title: tFor(request)('admin:users.title'), noindex: true },
    roles,
    query,
    rows: page.rows,
    next: page.next,
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function UsersList({ loaderData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to } = useLocale();
  const dates = useDates();
  const { roles, query, rows, next } = loaderData;
  const spec = usersListSpec(roles);
  const columns: AdminColumn<UserRow>[] = [
    {
      key: 'name',
      label: t('users.col.name'),
      sort: 'name',
      primary: true,
      render: (u) => (
        <Anchor component={Link} to={to(`/admin/users/${u.id}`)} fw={600} dir="auto" display="inline-block" py={10}>
          {u.name}
        </Anchor>
      ),
    },
    {
      key: 'contact',
      label: t('users.col.contact'),
      render: (u) => (
        <Stack gap={2}>
          {u.email ? (
            <Text size="sm" dir="ltr" style={{ overflowWrap: 'anywhere' }}>
              <bdi>{u.email}</bdi>
            </Text>
          ) : null}
          {u.phone ? (
            <Text size="sm" dir="ltr">
              <bdi>{u.phone}</bdi>
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'access',
      label: t('users.col.access'),
      render: (u) =>
        u.is_super_admin || u.roles.length ? (
          <Group gap={4}>
            {u.is_super_admin ? (
              <Badge color="grape.9" variant="filled" tt="none">
                {t('users.super-admin')}
              </Badge>
            ) : null}
            {u.roles.map((r) => (
              <Badge key={r} variant="outline" tt="none">
                <bdi>{r}</bdi>
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('users.member')}
          </Text>
        ),
    },
    {
      key: 'state',
      label: t('users.col.state'),
      render: (u) => (
        <Group gap={4}>
          {u.banned ? (
            <Badge color="red.9" variant="filled" tt="none">
              {t('users.banned')}
            </Badge>
          ) : null}
          {u.email_verified ? (
            <Badge color="teal" variant="light" tt="none">
              {t('users.email-confirmed')}
            </Badge>
          ) : null}
          {u.phone ? (
            <Badge color="teal" variant="light" tt="none">
              {t('users.phone-confirmed')}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    {
      key: 'created',
      label: t('users.col.created'),
      sort: 'created',
      render: (u) => <time dateTime={u.created_at}>{dates.date(u.created_at)}</time>,
    },
  ];
  return (
    <Stack gap="lg">
      <Box>
        <Title order={1}>{t('users.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('users.intro')}
        </Text>
      </Box>
      <AdminList
        path={to('/admin/users')}
        spec={spec}
        query={query}
        rows={rows}
        rowKey={(u) => u.id}
        rowLabel={(u) => u.name}
        columns={columns}
        next={next}
        caption={t('users.title')}
        search={t('users.search')}
        filters={[
          {
            name: 'role',
            label: t('users.filter.role'),
            any: t('users.filter.any-role'),
            options: [
              { value: 'super-admin', label: t('users.super-admin') },
              ...roles.map((r) => ({ value: r, label: r })),
            ],
          },
          {
            name: 'banned',
            label: t('users.filter.banned'),
            any: t('users.filter.any'),
            options: [
              { value: 'yes', label: t('users.filter.banned-yes') },
              { value: 'no', label: t('users.filter.banned-no') },
            ],
          },
          {
            name: 'verified',
            label: t('users.filter.verified'),
            any: t('users.filter.any'),
            options: [
              { value: 'email', label: t('users.filter.verified-email') },
              { value: 'phone', label: t('users.filter.verified-phone') },
              { value: 'none', label: t('users.filter.verified-none') },
            ],
          },
          {
            name: 'company',
            label: t('users.filter.company'),
            any: t('users.filter.any'),
            options: [
              { value: 'yes', label: t('users.filter.company-yes') },
              { value: 'no', label: t('users.filter.company-no') },
            ],
          },
        ]}
        empty={{ title: t('users.empty-title'), description: t('users.empty') }}
      />
    </Stack>
  );
}
