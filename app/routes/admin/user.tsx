import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import {
  Alert,
  Anchor,
  Avatar,
  Badge,
  Box,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconBan, IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import type { z } from 'zod';
import { AdminSection, IntentSubmit } from '~/components/admin/admin-section.tsx';
import { ConfirmAction } from '~/components/admin/confirm-action.tsx';
import { HeldPackages } from '~/components/admin/held-packages.tsx';
import { useAdminFieldError } from '~/components/admin/use-admin-field-error.ts';
import { BadgeChips } from '~/components/badge-chip.tsx';
import { FormError, useValidatedForm } from '~/components/form-parts.tsx';
import { useDates } from '~/components/relative-time.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import type { BadgeChipData } from '~/lib/badges.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, notFound, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import {
  accessSchema,
  BAN_REASON_MAX,
  banSchema,
  confirmEmailSchema,
  confirmPhoneSchema,
  memberBadgeSchema,
  superAdminSchema,
  USER_INTENTS,
  type UserIntent,
  unbanSchema,
} from '~/lib/validation/admin-users.ts';
import type { AdStatus } from '../../../server/db/schema.ts';
import { can } from '../../../server/domain/access.ts';
import { listRoles } from '../../../server/domain/admin/roles.ts';
import {
  banUser,
  confirmEmail,
  confirmPhone,
  type MemberDetail,
  memberDetail,
  setSuperAdmin,
  setUserAccess,
  unbanUser,
} from '../../../server/domain/admin/users.ts';
import { badgesOfUsers, grantBadge, memberBadgeChoices, revokeBadge } from '../../../server/domain/badges.ts';
import { type MemberPackage, memberPackages } from '../../../server/domain/packages/allowance.ts';
import { PERMISSIONS, type Permission } from '../../../server/domain/permissions.ts';
import type { Route } from './+types/user';

// One member (docs/product/back-office.md, "Members"): profile, ads by status, reports about them
// and their ads, chats, roles and permissions, and what staff may do — each change its own form
// with an `intent`, checked on the server against its own permission. Staff holding `view-users`
// read the page; `update-users` confirms an email or phone number, `ban-users` bans and unbans,
// `update-permissions` changes roles and direct permissions, and only a super admin sets the
// super-admin flag.

export const middleware = guards('acl:view-users');

const memberId = (request: Request, value: string | undefined) => {
  if (!value || !/^[\w-]{1,64}$/.test(value)) throw notFound(request);
  return value;
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-users');
  const id = memberId(request, params.id);
  const database = db(context);
  const [member, roles, packages, badges, badgeChoices] = await Promise.all([
    memberDetail(database, id),
    listRoles(database),
    can(user, 'view-packages') ? memberPackages(database, id) : null,
    can(user, 'view-badges') ? badgesOfUsers(database, [id]).then((m) => m.get(id) ?? []) : null,
    can(user, 'update-badges') ? memberBadgeChoices(database) : [],
  ]);
  return {
    meta: { title: `${member.name} · ${tFor(request)('admin:users.title')}`, noindex: true },
    member,
    roles,
    packages,
    badges,
    badgeChoices,
    permissions: [...PERMISSIONS],
    rights: {
      update: can(user, 'update-users'),
      ban: can(user, 'ban-users'),
      access: can(user, 'update-permissions'),
      superAdmin: user.is_super_admin,
      self: user.id === id,
      grantPackage: can(user, 'update-packages'),
    },
  };
}

/** The permission each change needs; `super-admin` is the super admin's alone. */
const NEEDS: Record<UserIntent, Permission | 'super-admin'> = {
  ban: 'ban-users',
  unban: 'ban-users',
  'confirm-email': 'update-users',
  'confirm-phone': 'update-users',
  access: 'update-permissions',
  'super-admin': 'super-admin',
  'grant-badge': 'update-badges',
  'revoke-badge': 'update-badges',
};
const isIntent = (v: unknown): v is UserIntent =>
  typeof v === 'string' && (USER_INTENTS as readonly string[]).includes(v);

type IntentReply = SubmissionResult<string[]> & { form: UserIntent };
type UserActionData = { result: IntentReply; formError?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = memberId(request, params.id);
  const form = await request.formData();
  const intent = form.get('intent');
  if (!isIntent(intent)) throw new Response(null, { status: 400, statusText: 'Bad Request' });
  const need = NEEDS[intent];
  const { user, actor } = await requireStaff(request, context, need === 'super-admin' ? 'view-users' : need);
  if (need === 'super-admin' && !user.is_super_admin)
    throw new Response(null, { status: 403, statusText: 'Forbidden' });
  const database = db(context);
  // From the locale, not request.url's path: a client-side post arrives at `….data`.
  const back = localizePath(`/admin/users/${id}`, localeOf(request));
  const done = () => redirectWithFlash(back, 'admin-saved');
  const handle = <Schema extends z.ZodType>(schema: Schema, work: (value: z.output<Schema>) => Promise<unknown>) =>
    formAction(
      form,
      schema,
      async (value) => {
        await work(value);
        return done();
      },
      { extra: { form: intent } },
    );
  switch (intent) {
    case 'ban':
      return handle(banSchema, (v) => banUser(database, { ...actor, superAdmin: user.is_super_admin }, id, v.reason));
    case 'unban':
      return handle(unbanSchema, () => unbanUser(database, actor, id));
    case 'confirm-email':
      return handle(confirmEmailSchema, () => confirmEmail(database, actor, id));
    case 'confirm-phone':
      return handle(confirmPhoneSchema, (v) => confirmPhone(database, actor, id, v.phone));
    case 'access':
      return handle(accessSchema, (v) =>
        setUserAccess(database, actor, id, { roles: v.roles, permissions: v.permissions }),
      );
    case 'super-admin':
      return handle(superAdminSchema, (v) => setSuperAdmin(database, actor, id, v.value === 'on'));
    case 'grant-badge':
      return handle(memberBadgeSchema, (v) => grantBadge(database, actor, { badgeId: v.badge, userId: id }));
    case 'revoke-badge':
      return handle(memberBadgeSchema, (v) => revokeBadge(database, actor, { badgeId: v.badge, userId: id }));
  }
}

export const meta: Route.MetaFunction = routeMeta;

/** The action's reply when it was this form's. */
function replyOf(data: unknown, form: UserIntent): UserActionData | undefined {
  const d = data as UserActionData | undefined;
  return d?.result?.form === form ? d : undefined;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Box>
  );
}

function Profile({ member }: { member: MemberDetail }) {
  const { t } = useT('admin');
  const { name, to, locale } = useLocale();
  const number = numberFormat(locale);
  const dates = useDates();
  return (
    <AdminSection title={t('users.profile')} id="profile">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Fact label={t('users.email')}>
          {member.email ? (
            <Group gap={6}>
              <bdi dir="ltr" style={{ overflowWrap: 'anywhere' }}>
                {member.email}
              </bdi>
              <Badge color={member.email_verified ? 'teal.9' : 'gray.7'} variant="filled" tt="none">
                {member.email_verified ? t('users.confirmed') : t('users.unconfirmed')}
              </Badge>
            </Group>
          ) : (
            t('users.no-email')
          )}
        </Fact>
        <Fact label={t('users.phone')}>
          {member.phone ? (
            <Group gap={6}>
              <bdi dir="ltr">{member.phone}</bdi>
              <Badge color={member.phone_verified ? 'teal.9' : 'gray.7'} variant="filled" tt="none">
                {member.phone_verified ? t('users.confirmed') : t('users.unconfirmed')}
              </Badge>
            </Group>
          ) : (
            t('users.no-phone')
          )}
        </Fact>
        <Fact label={t('users.city')}>{member.city ? name(member.city) : '—'}</Fact>
        <Fact label={t('users.language')}>{member.locale === 'en' ? 'English' : 'العربية'}</Fact>
        <Fact label={t('users.joined')}>{dates.date(member.created_at)}</Fact>
        <Fact label={t('users.last-seen')}>{member.last_seen_at ? dates.dateTime(member.last_seen_at) : '—'}</Fact>
        <Fact label={t('users.sessions')}>{number.format(member.sessions)}</Fact>
        <Fact label={t('users.chats')}>{number.format(member.chats)}</Fact>
      </SimpleGrid>
      {member.bio ? (
        <Text size="sm" mt="sm" dir="auto" style={{ whiteSpace: 'pre-line' }}>
          {member.bio}
        </Text>
      ) : null}
      <Anchor component={Link} to={to(`/users/${member.id}`)} size="sm" mt="sm" display="inline-block" py={10}>
        <Group gap={4} component="span">
          {t('users.public-page')}
          <IconExternalLink size={14} aria-hidden />
        </Group>
      </Anchor>
    </AdminSection>
  );
}

const AD_STATUSES: AdStatus[] = ['pending', 'published', 'rejected', 'sold', 'expired', 'archived', 'draft', 'deleted'];
/** Statuses the moderation queue has a tab for. */
const QUEUE_STATUSES: AdStatus[] = ['pending', 'published', 'rejected', 'sold', 'expired', 'archived', 'deleted'];

function Ads({ member }: { member: MemberDetail }) {
  const { t } = useT('admin');
  const { to, locale } = useLocale();
  const number = numberFormat(locale);
  const shown = AD_STATUSES.filter((s) => (member.ads[s] ?? 0) > 0);
  return (
    <AdminSection title={t('users.ads')} id="ads">
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('users.no-ads')}
        </Text>
      ) : (
        <Group gap="xs">
          {shown.map((s) => {
            const label = (
              <>
                {t(`statuses.${s}`)}
                <Text span ms={6} fw={700} inherit>
                  {number.format(member.ads[s] ?? 0)}
                </Text>
              </>
            );
            return QUEUE_STATUSES.includes(s) ? (
              <Button
                key={s}
                component={Link}
                to={`${to('/admin/posts')}?${new URLSearchParams({ ...(s === 'pending' ? {} : { status: s }), owner: member.id })}`}
                variant="default"
                radius="xl"
                size="compact-md"
              >
                {label}
              </Button>
            ) : (
              <Badge key={s} variant="default" size="lg" tt="none">
                {label}
              </Badge>
            );
          })}
        </Group>
      )}
      {member.banned_at ? (
        <Text size="sm" c="dimmed" mt="sm">
          {t('users.ads-hidden')}
        </Text>
      ) : null}
    </AdminSection>
  );
}

function Reports({ member }: { member: MemberDetail }) {
  const { t } = useT('admin');
  const { to } = useLocale();
  const dates = useDates();
  return (
    <AdminSection title={t('users.reports')} id="reports">
      <Text size="sm" mb="sm">
        {member.reports.total === 0
          ? t('users.no-reports')
          : t('users.reports-count', { count: member.reports.total, open: member.reports.open })}
      </Text>
      {member.reports.latest.length ? (
        <Table.ScrollContainer minWidth={0} type="native">
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('users.report.about')}</Table.Th>
                <Table.Th>{t('users.report.reason')}</Table.Th>
                <Table.Th>{t('users.report.status')}</Table.Th>
                <Table.Th>{t('users.report.date')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {member.reports.latest.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    {r.ad ? (
                      <Anchor component={Link} to={to(`/admin/posts/${r.ad.id}`)} dir="auto" size="sm">
                        {r.ad.title}
                      </Anchor>
                    ) : (
                      t('users.report.member')
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{t(`report-reasons.${r.reason}`, { defaultValue: r.reason })}</Text>
                    {r.note ? (
                      <Text size="xs" c="dimmed" dir="auto">
                        {r.note}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{t(`users.report.statuses.${r.status}`, { defaultValue: r.status })}</Table.Td>
                  <Table.Td>{dates.date(r.created_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </AdminSection>
  );
}

function BanSection({ member, data, self }: { member: MemberDetail; data: unknown; self: boolean }) {
  const { t } = useT('admin');
  const dates = useDates();
  const navigation = useNavigation();
  const words = useAdminFieldError();
  const reply = replyOf(data, member.banned_at ? 'unban' : 'ban');
  const [form, fields] = useValidatedForm('ban-form', banSchema, replyOf(data, 'ban')?.result);
  if (self) {
    return (
      <AdminSection title={t('users.ban.title')} id="ban">
        <Text size="sm" c="dimmed">
          {t('users.ban.self')}
        </Text>
      </AdminSection>
    );
  }
  if (member.banned_at) {
    return (
      <AdminSection title={t('users.ban.title')} id="ban">
        <Form method="post">
          <Stack gap="sm">
            <FormError code={reply?.formError} />
            <Text size="sm">{t('users.ban.banned-since', { date: dates.dateTime(member.banned_at) })}</Text>
            {member.ban_reason ? (
              <Text size="sm" dir="auto">
                {t('users.ban.reason')}: {member.ban_reason}
              </Text>
            ) : null}
            <Group>
              <Button
                type="submit"
                name="intent"
                value="unban"
                loading={navigation.formData?.get('intent') === 'unban'}
              >
                {t('users.ban.unban')}
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              {t('users.ban.unban-hint')}
            </Text>
          </Stack>
        </Form>
      </AdminSection>
    );
  }
  return (
    <AdminSection title={t('users.ban.title')} id="ban">
      <Form method="post" {...getFormProps(form)} noValidate>
        <Stack gap="sm">
          <FormError code={reply?.formError} />
          <Textarea
            {...getInputProps(fields.reason, { type: 'text' })}
            key={fields.reason.key}
            label={t('users.ban.reason')}
            description={t('users.ban.reason-hint')}
            error={words(fields.reason)}
            maxLength={BAN_REASON_MAX}
            autosize
            minRows={2}
            withAsterisk
          />
          <Group>
            <ConfirmAction
              label={t('users.ban.ban')}
              statement={t('users.ban.statement', { name: member.name })}
              intent="ban"
            />
          </Group>
        </Stack>
      </Form>
    </AdminSection>
  );
}

function ConfirmSection({ member, data }: { member: MemberDetail; data: unknown }) {
  const { t } = useT('admin');
  const words = useAdminFieldError();
  const [form, fields] = useValidatedForm('phone-form', confirmPhoneSchema, replyOf(data, 'confirm-phone')?.result);
  const emailReply = replyOf(data, 'confirm-email');
  return (
    <AdminSection title={t('users.confirm.title')} id="confirm">
      <Stack gap="md">
        {member.email && !member.email_verified ? (
          <Form method="post">
            <FormError code={emailReply?.formError} />
            <Group gap="sm" align="center">
              <Text size="sm">{t('users.confirm.email-hint')}</Text>
              <Button type="submit" name="intent" value="confirm-email" variant="default">
                {t('users.confirm.email')}
              </Button>
            </Group>
          </Form>
        ) : null}
        <Form method="post" {...getFormProps(form)} noValidate>
          <Stack gap="xs">
            <FormError code={replyOf(data, 'confirm-phone')?.formError} />
            <TextInput
              {...getInputProps(fields.phone, { type: 'tel' })}
              key={fields.phone.key}
              label={t('users.confirm.phone')}
              description={t('users.confirm.phone-hint')}
              defaultValue={member.phone ?? ''}
              error={words(fields.phone)}
              dir="ltr"
              inputMode="tel"
              maxLength={30}
            />
            <Group>
              <Button type="submit" name="intent" value="confirm-phone" variant="default">
                {t('users.confirm.phone-submit')}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Stack>
    </AdminSection>
  );
}

function AccessSection({
  member,
  roles,
  permissions,
  rights,
  data,
}: {
  member: MemberDetail;
  roles: { id: number; name: string }[];
  permissions: string[];
  rights: { access: boolean; superAdmin: boolean };
  data: unknown;
}) {
  const { t } = useT('admin');
  const held = new Set(member.roles.map((r) => r.id));
  const direct = new Set(member.direct);
  const reply = replyOf(data, 'access');
  const flagReply = replyOf(data, 'super-admin');
  const label = (p: string) => (
    <>
      {t(`roles.permission-names.${p}`, { defaultValue: p })}
      <Text span size="xs" c="dimmed" display="block">
        <bdi dir="ltr">{p}</bdi>
      </Text>
    </>
  );
  return (
    <AdminSection title={t('users.access.title')} id="access">
      <Stack gap="md">
        <Group gap={6}>
          {member.is_super_admin ? (
            <Badge color="grape.9" variant="filled" tt="none">
              {t('users.super-admin')}
            </Badge>
          ) : null}
          {member.permissions.length === 0 && !member.is_super_admin ? (
            <Text size="sm" c="dimmed">
              {t('users.access.none')}
            </Text>
          ) : (
            <Text size="sm">
              {t('users.access.effective', {
                count: member.is_super_admin ? permissions.length : member.permissions.length,
              })}
            </Text>
          )}
        </Group>
        {rights.superAdmin ? (
          <Form method="post">
            <FormError code={flagReply?.formError} />
            <input type="hidden" name="value" value={member.is_super_admin ? 'off' : 'on'} />
            {member.is_super_admin ? (
              <ConfirmAction
                label={t('users.access.unset-super')}
                statement={t('users.access.unset-super-statement', { name: member.name })}
                intent="super-admin"
              />
            ) : (
              <ConfirmAction
                label={t('users.access.set-super')}
                statement={t('users.access.set-super-statement', { name: member.name })}
                intent="super-admin"
              />
            )}
          </Form>
        ) : null}
        {rights.access ? (
          <Form method="post">
            <Stack gap="sm">
              <FormError code={reply?.formError} />
              <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
                <Text component="legend" fw={600} size="sm" mb={4}>
                  {t('users.access.roles')}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing={4}>
                  {roles.map((r) => (
                    <Checkbox
                      key={r.id}
                      name="roles"
                      value={String(r.id)}
                      defaultChecked={held.has(r.id)}
                      label={<bdi>{r.name}</bdi>}
                      py={10}
                    />
                  ))}
                </SimpleGrid>
              </fieldset>
              <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
                <Text component="legend" fw={600} size="sm" mb={4}>
                  {t('users.access.direct')}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing={4}>
                  {permissions.map((p) => (
                    <Checkbox
                      key={p}
                      name="permissions"
                      value={p}
                      defaultChecked={direct.has(p)}
                      label={label(p)}
                      py={10}
                    />
                  ))}
                </SimpleGrid>
              </fieldset>
              <Group>
                <Button type="submit" name="intent" value="access">
                  {t('users.access.save')}
                </Button>
              </Group>
            </Stack>
          </Form>
        ) : (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('users.access.roles')}
            </Text>
            <Text size="sm">{member.roles.length ? member.roles.map((r) => r.name).join('، ') : '—'}</Text>
            <Text size="sm" fw={600}>
              {t('users.access.direct')}
            </Text>
            <Text size="sm">{member.direct.length ? member.direct.join('، ') : '—'}</Text>
          </Stack>
        )}
      </Stack>
    </AdminSection>
  );
}

export default function UserPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to } = useLocale();
  const { member, rights, roles, permissions } = loaderData;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={to('/admin/users')} size="sm" py={10}>
        <Group gap={4} component="span">
          <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
          {t('users.back')}
        </Group>
      </Anchor>
      <Group gap="md" wrap="nowrap" align="center">
        <Avatar src={member.image} alt="" size={64} radius="xl" />
        <Box style={{ minWidth: 0 }}>
          <Title order={1} dir="auto" style={{ overflowWrap: 'anywhere' }}>
            {member.name}
          </Title>
          <Group gap={6} mt={4}>
            {member.banned_at ? (
              <Badge color="red.9" variant="filled" tt="none" leftSection={<IconBan size={14} aria-hidden />}>
                {t('users.banned')}
              </Badge>
            ) : null}
            {member.is_super_admin ? (
              <Badge color="grape.9" variant="filled" tt="none">
                {t('users.super-admin')}
              </Badge>
            ) : null}
            {member.roles.map((r) => (
              <Badge key={r.id} variant="outline" tt="none">
                <bdi>{r.name}</bdi>
              </Badge>
            ))}
          </Group>
        </Box>
      </Group>
      {!rights.update && !rights.ban && !rights.access && !rights.superAdmin ? (
        <Alert color="gray" variant="light">
          {t('users.read-only')}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Profile member={member} />
        <Stack gap="lg">
          <Ads member={member} />
          <Reports member={member} />
        </Stack>
      </SimpleGrid>
      {rights.ban ? <BanSection member={member} data={actionData} self={rights.self} /> : null}
      {rights.update ? <ConfirmSection member={member} data={actionData} /> : null}
      <AccessSection member={member} roles={roles} permissions={permissions} rights={rights} data={actionData} />
      {loaderData.badges ? (
        <Badges badges={loaderData.badges} choices={loaderData.badgeChoices} data={actionData} />
      ) : null}
      {loaderData.packages ? (
        <Packages member={member} packages={loaderData.packages} grant={rights.grantPackage} />
      ) : null}
    </Stack>
  );
}

/** The member's packages running or starting later, and a way to grant one (docs/product/back-office.md, "Packages"). */
function Packages({ member, packages, grant }: { member: MemberDetail; packages: MemberPackage[]; grant: boolean }) {
  const { t } = useT('admin');
  const { to } = useLocale();
  const login = member.email ?? member.phone;
  return (
    <AdminSection title={t('users.packages.title')} id="packages">
      <Stack gap="xs">
        {packages.length === 0 ? <Text size="sm">{t('users.packages.none')}</Text> : null}
        <HeldPackages packages={packages} />
        {grant && login ? (
          <Group>
            <Button
              component={Link}
              to={`${to('/admin/packages/grant')}?member=${encodeURIComponent(login)}`}
              variant="default"
            >
              {t('users.packages.grant')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </AdminSection>
  );
}

/** The member's badges, and granting or taking one back with update-badges (docs/product/back-office.md, "Badges"). */
function Badges({
  badges,
  choices,
  data,
}: {
  badges: BadgeChipData[];
  choices: { id: number; name_ar: string; name_en: string }[];
  data: unknown;
}) {
  const { t } = useT('admin');
  const { name } = useLocale();
  const fieldError = useAdminFieldError();
  const held = new Set(badges.map((b) => b.id));
  const open = choices.filter((c) => !held.has(c.id));
  const reply = replyOf(data, 'grant-badge');
  const [form, fields] = useValidatedForm('grant-badge', memberBadgeSchema, reply?.result);
  return (
    <AdminSection title={t('users.badges.title')} id="badges">
      <Stack gap="sm">
        {badges.length === 0 ? <Text size="sm">{t('users.badges.none')}</Text> : null}
        {badges.map((b) => (
          <Group key={b.id} justify="space-between" wrap="nowrap">
            <BadgeChips badges={[b]} label={name(b)} />
            {choices.length > 0 ? (
              <Form method="post">
                <input type="hidden" name="intent" value="revoke-badge" />
                <input type="hidden" name="badge" value={b.id} />
                <Button type="submit" variant="subtle" color="red" mih={44}>
                  {t('users.badges.revoke', { name: name(b) })}
                </Button>
              </Form>
            ) : null}
          </Group>
        ))}
        {open.length > 0 ? (
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="grant-badge" />
            <Group align="flex-end" gap="sm">
              <NativeSelect
                name={fields.badge.name}
                label={t('users.badges.choose')}
                data={open.map((c) => ({ value: String(c.id), label: name(c) }))}
                error={fieldError(fields.badge)}
              />
              <IntentSubmit intent="grant-badge">{t('users.badges.grant')}</IntentSubmit>
            </Group>
          </Form>
        ) : null}
      </Stack>
    </AdminSection>
  );
}
