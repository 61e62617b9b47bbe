import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Anchor, Box, Button, Checkbox, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { Form, Link } from 'react-router';
import type { z } from 'zod';
import { ConfirmAction } from '~/components/admin/confirm-action.tsx';
import { useAdminFieldError } from '~/components/admin/use-admin-field-error.ts';
import { FormError, useValidatedForm } from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { HOLDERS_SHOWN } from '~/lib/admin-lists.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import {
  createRoleSchema,
  deleteRoleSchema,
  matrixSchema,
  ROLE_INTENTS,
  ROLE_NAME_MAX,
  type RoleIntent,
  renameRoleSchema,
} from '~/lib/validation/admin-users.ts';
import { can } from '../../../server/domain/access.ts';
import {
  createRole,
  deleteRole,
  type RoleSummary,
  renameRole,
  roleHolders,
  rolesMatrix,
  saveMatrix,
} from '../../../server/domain/admin/roles.ts';
import type { Route } from './+types/permissions';

// Roles and permissions (docs/product/back-office.md, "Roles and permissions"): the roles ×
// permissions matrix as one form, creating, renaming and deleting roles (deleting one members hold
// states how many and checks the count again), and who holds each role. `view-permissions` reads
// the page; every change needs `update-permissions`.

export const middleware = guards('acl:view-permissions');

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-permissions');
  const database = db(context);
  const [matrix, holders] = await Promise.all([rolesMatrix(database), roleHolders(database)]);
  return {
    meta: { title: tFor(request)('admin:roles.title'), noindex: true },
    ...matrix,
    holders: Object.fromEntries(holders),
    canUpdate: can(user, 'update-permissions'),
  };
}

const isIntent = (v: unknown): v is RoleIntent =>
  typeof v === 'string' && (ROLE_INTENTS as readonly string[]).includes(v);
type IntentReply = SubmissionResult<string[]> & { form: RoleIntent; role?: number };
type RoleActionData = { result: IntentReply; formError?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = form.get('intent');
  if (!isIntent(intent)) throw new Response(null, { status: 400, statusText: 'Bad Request' });
  const { actor } = await requireStaff(request, context, 'update-permissions');
  const database = db(context);
  // From the locale, not request.url's path: a client-side post arrives at `….data`.
  const back = localizePath('/admin/permissions', localeOf(request));
  const role = Number(form.get('id')) || undefined;
  const handle = <Schema extends z.ZodType>(
    schema: Schema,
    work: (value: z.output<Schema>) => Promise<unknown>,
    flash: 'admin-saved' | 'admin-created' | 'admin-deleted' = 'admin-saved',
  ) =>
    formAction(
      form,
      schema,
      async (value) => {
        await work(value);
        return redirectWithFlash(back, flash);
      },
      { extra: { form: intent, role } },
    );
  switch (intent) {
    case 'matrix':
      return handle(matrixSchema, (v) => saveMatrix(database, actor, v.roles, v.grants));
    case 'create':
      return handle(createRoleSchema, (v) => createRole(database, actor, v.name), 'admin-created');
    case 'rename':
      return handle(renameRoleSchema, (v) => renameRole(database, actor, v.id, v.name));
    case 'delete':
      return handle(deleteRoleSchema, (v) => deleteRole(database, actor, v.id, v.holders), 'admin-deleted');
  }
}

export const meta: Route.MetaFunction = routeMeta;

function replyOf(data: unknown, form: RoleIntent, role?: number): RoleActionData | undefined {
  const d = data as RoleActionData | undefined;
  return d?.result?.form === form && (role === undefined || d.result.role === role) ? d : undefined;
}

function Matrix({
  roles,
  permissions,
  canUpdate,
  data,
}: {
  roles: RoleSummary[];
  permissions: string[];
  canUpdate: boolean;
  data: unknown;
}) {
  const { t } = useT('admin');
  const reply = replyOf(data, 'matrix');
  const table = (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table verticalSpacing={4} withColumnBorders stickyHeader>
        <caption style={{ captionSide: 'top', textAlign: 'start' }}>
          <Text size="sm" c="dimmed">
            {t('roles.matrix-caption')}
          </Text>
        </caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('roles.permission')}</Table.Th>
            {roles.map((r) => (
              <Table.Th key={r.id} ta="center">
                <bdi>{r.name}</bdi>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {permissions.map((p) => (
            <Table.Tr key={p}>
              <Table.Th scope="row" fw={400}>
                <Text size="sm">{t(`roles.permission-names.${p}`, { defaultValue: p })}</Text>
                <Text size="xs" c="dimmed" dir="ltr" ta="start">
                  <bdi>{p}</bdi>
                </Text>
              </Table.Th>
              {roles.map((r) => (
                <Table.Td key={r.id} ta="center">
                  <label className="tap-label" style={{ margin: 0 }}>
                    <Checkbox
                      name="grants"
                      value={`${r.id}:${p}`}
                      defaultChecked={r.permissions.includes(p)}
                      disabled={!canUpdate}
                      aria-label={t('roles.grant', { role: r.name, permission: p })}
                    />
                  </label>
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="matrix-title">
      <Title order={2} size="h4" id="matrix-title" mb="sm">
        {t('roles.matrix')}
      </Title>
      {canUpdate ? (
        <Form method="post">
          <Stack gap="sm">
            <FormError code={reply?.formError} />
            {roles.map((r) => (
              <input key={r.id} type="hidden" name="roles" value={r.id} />
            ))}
            {table}
            <Group>
              <Button type="submit" name="intent" value="matrix">
                {t('roles.save-matrix')}
              </Button>
            </Group>
          </Stack>
        </Form>
      ) : (
        table
      )}
    </Paper>
  );
}

function CreateRole({ data }: { data: unknown }) {
  const { t } = useT('admin');
  const words = useAdminFieldError();
  const [form, fields] = useValidatedForm('create-role', createRoleSchema, replyOf(data, 'create')?.result);
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="create-title">
      <Title order={2} size="h4" id="create-title" mb="sm">
        {t('roles.create')}
      </Title>
      <Form method="post" {...getFormProps(form)} noValidate>
        <Group align="flex-start" gap="sm">
          <TextInput
            {...getInputProps(fields.name, { type: 'text' })}
            key={fields.name.key}
            label={t('roles.name')}
            description={t('roles.name-hint')}
            error={words(fields.name)}
            maxLength={ROLE_NAME_MAX}
            dir="ltr"
            autoComplete="off"
          />
          <Button type="submit" name="intent" value="create" mt={{ base: 0, sm: 44 }}>
            {t('roles.create-submit')}
          </Button>
        </Group>
      </Form>
    </Paper>
  );
}

function RoleCard({
  role,
  holders,
  canUpdate,
  data,
}: {
  role: RoleSummary;
  holders: { id: string; name: string }[];
  canUpdate: boolean;
  data: unknown;
}) {
  const { t } = useT('admin');
  const { to, locale } = useLocale();
  const number = numberFormat(locale);
  const words = useAdminFieldError();
  const [form, fields] = useValidatedForm(
    `rename-${role.id}`,
    renameRoleSchema,
    replyOf(data, 'rename', role.id)?.result,
    {
      name: role.name,
    },
  );
  const deleteReply = replyOf(data, 'delete', role.id);
  return (
    <Paper withBorder radius="lg" p="md" component="li">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} size="h5">
            <bdi>{role.name}</bdi>
          </Title>
          <Text size="sm" c="dimmed">
            {t('roles.holders', { count: role.holders })}
          </Text>
        </Group>
        {holders.length ? (
          <Group gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {holders.map((h) => (
              <li key={h.id}>
                <Anchor
                  component={Link}
                  to={to(`/admin/users/${h.id}`)}
                  size="sm"
                  dir="auto"
                  display="inline-block"
                  py={10}
                >
                  {h.name}
                </Anchor>
              </li>
            ))}
          </Group>
        ) : null}
        {role.holders > holders.length ? (
          <Anchor
            component={Link}
            to={`${to('/admin/users')}?${new URLSearchParams({ role: role.name })}`}
            size="sm"
            py={10}
          >
            {t('roles.all-holders', { count: role.holders, shown: number.format(HOLDERS_SHOWN) })}
          </Anchor>
        ) : null}
        {canUpdate ? (
          <>
            <Form method="post" {...getFormProps(form)} noValidate>
              <input type="hidden" name="id" value={role.id} />
              <Group align="flex-start" gap="sm">
                <TextInput
                  {...getInputProps(fields.name, { type: 'text' })}
                  key={fields.name.key}
                  label={t('roles.rename')}
                  error={words(fields.name)}
                  maxLength={ROLE_NAME_MAX}
                  dir="ltr"
                  autoComplete="off"
                />
                <Button type="submit" name="intent" value="rename" variant="default" mt={{ base: 0, sm: 25 }}>
                  {t('roles.rename-submit')}
                </Button>
              </Group>
            </Form>
            <Form method="post">
              <FormError code={deleteReply?.formError} />
              <input type="hidden" name="id" value={role.id} />
              <input type="hidden" name="holders" value={role.holders} />
              <ConfirmAction
                label={t('roles.delete')}
                statement={
                  role.holders > 0
                    ? t('roles.delete-statement-held', { name: role.name, count: role.holders })
                    : t('roles.delete-statement', { name: role.name })
                }
                intent="delete"
              />
            </Form>
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}

export default function PermissionsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { roles, permissions, holders, canUpdate } = loaderData;
  return (
    <Stack gap="lg">
      <Box>
        <Title order={1}>{t('roles.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('roles.intro')}
        </Text>
      </Box>
      <Matrix roles={roles} permissions={permissions} canUpdate={canUpdate} data={actionData} />
      {canUpdate ? <CreateRole data={actionData} /> : null}
      <Box component="section" aria-labelledby="roles-title">
        <Title order={2} size="h4" id="roles-title" mb="sm">
          {t('roles.roles')}
        </Title>
        {roles.length === 0 ? (
          <Text c="dimmed">{t('roles.empty')}</Text>
        ) : (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {roles.map((r) => (
              <RoleCard key={r.id} role={r} holders={holders[r.id] ?? []} canUpdate={canUpdate} data={actionData} />
            ))}
          </Stack>
        )}
      </Box>
    </Stack>
  );
}
