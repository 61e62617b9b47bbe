import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Anchor, Box, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Form, Link } from 'react-router';
import { z } from 'zod';
import { AdminSection, IntentSubmit } from '~/components/admin/admin-section.tsx';
import { ConfirmAction } from '~/components/admin/confirm-action.tsx';
import { BadgeChip } from '~/components/ads/ad-parts.tsx';
import { FormError, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { localizePath, localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { BADGE_COLOUR_KEYS, BADGE_ICONS, BADGE_TARGETS } from '~/lib/badges.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { dates as dateFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, pathIdOrNew, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import {
  type BADGE_INTENTS,
  badgeSchema,
  grantSchema,
  isBadgeIntent,
  revokeSchema,
} from '~/lib/validation/companies.ts';
import { can } from '../../../server/domain/access.ts';
import {
  type Badge,
  type BadgeGrant,
  countHolders,
  createBadge,
  deleteBadge,
  findHolder,
  getBadge,
  grantBadge,
  grantById,
  listGrants,
  revokeBadge,
  updateBadge,
} from '../../../server/domain/badges.ts';
import type { Route } from './+types/badge';

// One badge (docs/product/back-office.md, "Badges"), or a new one (`/admin/badges/new`): its name,
// icon, colour and who may hold it, and its holders with grant and revoke. Anyone with view-badges
// reads it; every form posts here with an `intent` and needs update-badges, checked on the server.

export const middleware = guards('acl:view-badges');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-badges');
  const id = pathIdOrNew(request, params.id);
  const canEdit = can(user, 'update-badges');
  if (id === null && !canEdit) throw new Response(null, { status: 403 });
  const t = tFor(request);
  if (id === null) {
    return {
      meta: { title: t('admin:badges.new'), noindex: true },
      badge: null,
      grants: { rows: [] as BadgeGrant[], next: null },
      after: null,
      holders: 0,
      canEdit,
    };
  }
  const database = db(context);
  const badge = await getBadge(database, id);
  const after = new URL(request.url).searchParams.get('after');
  const [grants, holders] = await Promise.all([listGrants(database, id, after), countHolders(database, id)]);
  return {
    meta: { title: `${localName(localeOf(request), badge)} · ${t('admin:badges.title')}`, noindex: true },
    badge,
    grants,
    after,
    holders,
    canEdit,
  };
}

type Intent = (typeof BADGE_INTENTS)[number];
type IntentReply = SubmissionResult<string[]> & { form: Intent };
export type BadgeActionData = { result: IntentReply; formError?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = pathIdOrNew(request, params.id);
  const { actor } = await requireStaff(request, context, 'update-badges');
  const form = await request.formData();
  const intent = form.get('intent');
  if (!isBadgeIntent(intent) || (id === null && intent !== 'save')) {
    throw new Response(null, { status: 400, statusText: 'Bad Request' });
  }
  const database = db(context);
  const locale = localeOf(request);
  const here = (badge: number) => localizePath(`/admin/badges/${badge}`, locale);
  const handle = <Schema extends z.ZodType>(schema: Schema, work: (value: z.output<Schema>) => Promise<Response>) =>
    formAction(form, schema, work, { extra: { form: intent } });
  if (id === null) {
    return handle(badgeSchema, async (value) => {
      const created = await createBadge(database, actor, value);
      return redirectWithFlash(here(created), 'admin-created');
    });
  }
  switch (intent) {
    case 'save':
      return handle(badgeSchema, async (value) => {
        await updateBadge(database, actor, id, value);
        return redirectWithFlash(here(id), 'admin-saved');
      });
    case 'grant':
      return handle(grantSchema, async ({ holder }) => {
        const badge = await getBadge(database, id);
        await grantBadge(database, actor, { badgeId: id, ...(await findHolder(database, badge.target, holder)) });
        return redirectWithFlash(`${here(id)}#holders`, 'admin-saved');
      });
    case 'revoke':
      return handle(revokeSchema, async ({ grant }) => {
        await revokeBadge(database, actor, { badgeId: id, ...(await grantById(database, id, grant)) });
        return redirectWithFlash(`${here(id)}#holders`, 'admin-saved');
      });
    case 'delete':
      return handle(z.object({}), async () => {
        await deleteBadge(database, actor, id);
        return redirectWithFlash(localizePath('/admin/badges', locale), 'admin-deleted');
      });
  }
}

export const meta: Route.MetaFunction = routeMeta;

function Intent({ value }: { value: Intent }) {
  return <input type="hidden" name="intent" value={value} />;
}

const replyOf = (reply: BadgeActionData | undefined, intent: Intent) =>
  reply?.result.form === intent ? reply.result : undefined;

function DetailsForm({ badge, canEdit, reply }: { badge: Badge | null; canEdit: boolean; reply?: BadgeActionData }) {
  const { t } = useT('admin');
  const fieldError = useFieldError();
  const [form, fields] = useValidatedForm(
    'badge-form',
    badgeSchema,
    replyOf(reply, 'save'),
    badge
      ? {
          slug: badge.slug,
          name_ar: badge.name_ar,
          name_en: badge.name_en,
          description_ar: badge.description_ar ?? '',
          description_en: badge.description_en ?? '',
          icon: badge.icon,
          colour: badge.colour,
          target: badge.target,
        }
      : { icon: 'verified', colour: 'blue', target: 'user' },
  );
  const text = (name: 'slug' | 'name_ar' | 'name_en' | 'description_ar' | 'description_en', dir: 'ltr' | 'auto') => {
    const field = fields[name];
    return (
      <TextInput
        {...getInputProps(field, { type: 'text' })}
        key={field.key}
        label={t(`badges.fields.${name}`)}
        description={name === 'slug' ? t('badges.fields.slug-hint') : undefined}
        dir={dir}
        withAsterisk={!name.startsWith('description')}
        error={fieldError(field)}
      />
    );
  };
  const select = (name: 'icon' | 'colour' | 'target', options: readonly string[]) => {
    const field = fields[name];
    return (
      <NativeSelect
        name={field.name}
        id={field.id}
        key={field.key}
        defaultValue={field.initialValue as string | undefined}
        label={t(`badges.fields.${name}`)}
        data={options.map((o) => ({ value: o, label: t(`badges.${name}s.${o}`) }))}
        error={fieldError(field)}
        withAsterisk
      />
    );
  };
  // The preview follows the form as it is filled in (with JavaScript); the saved badge without.
  const value = (f: { value?: unknown; initialValue?: unknown }) => String(f.value ?? f.initialValue ?? '');
  const preview = {
    id: badge?.id ?? 0,
    slug: value(fields.slug),
    name_ar: value(fields.name_ar) || t('badges.preview'),
    name_en: value(fields.name_en) || t('badges.preview'),
    icon: value(fields.icon),
    colour: value(fields.colour),
  };
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <Intent value="save" />
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="md">
          <FormError code={reply?.result.form === 'save' ? reply.formError : undefined} />
          <Group gap="sm" aria-live="polite">
            <Text size="sm" c="dimmed">
              {t('badges.preview')}
            </Text>
            <BadgeChip badge={preview} />
            <BadgeChip badge={preview} compact />
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {text('name_ar', 'auto')}
            {text('name_en', 'auto')}
            {text('slug', 'ltr')}
            {select('target', BADGE_TARGETS)}
            {select('icon', BADGE_ICONS)}
            {select('colour', BADGE_COLOUR_KEYS)}
            {text('description_ar', 'auto')}
            {text('description_en', 'auto')}
          </SimpleGrid>
          {canEdit ? (
            <Group>
              <IntentSubmit intent="save">{badge ? t('badges.save') : t('badges.create')}</IntentSubmit>
            </Group>
          ) : null}
        </Stack>
      </fieldset>
    </Form>
  );
}

function HoldersSection({
  badge,
  grants,
  after,
  holders,
  canEdit,
  reply,
}: {
  badge: Badge;
  grants: { rows: BadgeGrant[]; next: string | null };
  after: string | null;
  holders: number;
  canEdit: boolean;
  reply?: BadgeActionData;
}) {
  const { t } = useT('admin');
  const { to, name, locale } = useLocale();
  const dates = dateFormat(locale);
  const fieldError = useFieldError();
  const [form, fields] = useValidatedForm('grant-form', grantSchema, replyOf(reply, 'grant'));
  const holderName = (g: BadgeGrant) => (g.holder.kind === 'user' ? g.holder.name : name(g.holder));
  const path = to(`/admin/badges/${badge.id}`);
  return (
    <AdminSection id="holders" title={t('badges.holders', { count: holders })}>
      <Stack gap="md">
        <FormError code={reply?.result.form === 'revoke' ? reply.formError : undefined} />
        {canEdit ? (
          <Form method="post" {...getFormProps(form)} noValidate>
            <Intent value="grant" />
            <Group align="flex-start" gap="sm" wrap="wrap">
              <TextInput
                {...getInputProps(fields.holder, { type: 'text' })}
                key={fields.holder.key}
                label={t(badge.target === 'user' ? 'badges.grant-user' : 'badges.grant-company')}
                description={t(badge.target === 'user' ? 'badges.grant-user-hint' : 'badges.grant-company-hint')}
                dir="ltr"
                autoComplete="off"
                withAsterisk
                error={fieldError(fields.holder)}
                style={{ flex: 1, minWidth: 220 }}
              />
            </Group>
            <Group mt="sm">
              <IntentSubmit intent="grant">{t('badges.grant')}</IntentSubmit>
            </Group>
          </Form>
        ) : null}
        {grants.rows.length === 0 ? (
          <Text c="dimmed">{t('badges.no-holders')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={0} type="native">
            <Table verticalSpacing="sm">
              <caption style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                {t('badges.holders-list')}
              </caption>
              <Table.Tbody>
                {grants.rows.map((g) => (
                  <Table.Tr key={g.id}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={to(g.holder.kind === 'user' ? `/users/${g.holder.id}` : `/admin/companies/${g.holder.id}`)}
                        fw={600}
                      >
                        <bdi>{holderName(g)}</bdi>
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{t('badges.granted-on', { date: dates.date(g.created_at) })}</Table.Td>
                    {canEdit ? (
                      <Table.Td>
                        <Form method="post">
                          <input type="hidden" name="grant" value={g.id} />
                          <ConfirmAction
                            label={t('badges.revoke')}
                            statement={t('badges.revoke-statement', { name: holderName(g) })}
                            intent="revoke"
                          />
                        </Form>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {after || grants.next ? (
          <Group component="nav" aria-label={t('list.pages')} justify="space-between">
            {after ? (
              <Anchor component={Link} to={`${path}#holders`} py={12}>
                {t('list.first-page')}
              </Anchor>
            ) : (
              <span />
            )}
            {grants.next ? (
              <Anchor component={Link} to={`${path}?after=${encodeURIComponent(grants.next)}#holders`} py={12}>
                {t('list.next-page')}
              </Anchor>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </AdminSection>
  );
}

export default function BadgeScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name } = useLocale();
  const { badge, grants, after, holders, canEdit } = loaderData;
  const reply = actionData as BadgeActionData | undefined;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={to('/admin/badges')} size="sm" py={10}>
        <Group gap={4} component="span">
          <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
          {t('badges.back')}
        </Group>
      </Anchor>
      <Title order={1}>{badge ? <bdi>{name(badge)}</bdi> : t('badges.new')}</Title>
      <AdminSection id="details" title={t('badges.details')}>
        <DetailsForm badge={badge} canEdit={canEdit} reply={reply} />
      </AdminSection>
      {badge ? (
        <>
          <HoldersSection
            badge={badge}
            grants={grants}
            after={after}
            holders={holders}
            canEdit={canEdit}
            reply={reply}
          />
          {canEdit ? (
            <Box>
              <Form method="post">
                <ConfirmAction
                  label={t('badges.delete')}
                  statement={t('badges.delete-statement', { count: holders })}
                  intent="delete"
                />
              </Form>
            </Box>
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
