import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from '@conform-to/react';
import {
  Anchor,
  Box,
  Button,
  Checkbox,
  Group,
  Input,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconExternalLink } from '@tabler/icons-react';
import { data, Form, Link } from 'react-router';
import { z } from 'zod';
import { AdminSection, IntentSubmit } from '~/components/admin/admin-section.tsx';
import { ConfirmAction } from '~/components/admin/confirm-action.tsx';
import { HeldPackages } from '~/components/admin/held-packages.tsx';
import { BadgeChips, SpriteIcon } from '~/components/ads/ad-parts.tsx';
import { FormError, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { localizePath, localName } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { type BodyLimitHandle, UPLOAD_FRAMING_BYTES } from '~/lib/body-limit.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, pathIdOrNew, requestInfo, services, tFor } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import {
  addMemberSchema,
  type COMPANY_INTENTS,
  COMPANY_ROLES,
  companySchema,
  isCompanyIntent,
  LOGO_ACCEPT,
  LOGO_MAX_BYTES,
  logoSchema,
  memberRoleSchema,
  memberSchema,
} from '~/lib/validation/companies.ts';
import { can } from '../../../server/domain/access.ts';
import { badgesOfCompanies } from '../../../server/domain/badges.ts';
import { listCityNames } from '../../../server/domain/catalog.ts';
import {
  type Company,
  countCompanyAds,
  createCompany,
  deleteCompany,
  getCompany,
  removeCompanyLogo,
  setCompanyLogo,
  updateCompany,
} from '../../../server/domain/companies/companies.ts';
import {
  addCompanyMember,
  type CompanyMember,
  listMembers,
  removeCompanyMember,
  setCompanyMemberRole,
} from '../../../server/domain/companies/members.ts';
import { heldPackages, type MemberPackage } from '../../../server/domain/packages/allowance.ts';
import { createStorage } from '../../../server/media/storage.ts';
import type { Route } from './+types/company';

// One company (docs/product/back-office.md, "Companies"), or a new one (`/admin/companies/new`):
// its details, logo, members and badges. Anyone with view-companies reads it; every form posts here
// with an `intent` and needs update-companies, checked on the server.

export const middleware = guards('acl:view-companies');

/** The logo upload: the largest file accepted, answered with a field error beyond it. */
export const handle = {
  bodyLimit: LOGO_MAX_BYTES + UPLOAD_FRAMING_BYTES,
  answersOversizedBody: true,
} satisfies BodyLimitHandle;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireStaff(request, context, 'view-companies');
  const id = pathIdOrNew(request, params.id);
  const canEdit = can(user, 'update-companies');
  // A new company is made by those who may change companies.
  if (id === null && !canEdit) throw new Response(null, { status: 403 });
  const database = db(context);
  const t = tFor(request);
  const locale = localeOf(request);
  const cities = (await listCityNames(database)).map((c) => ({ value: String(c.id), label: localName(locale, c) }));
  if (id === null) {
    return {
      meta: { title: t('admin:companies.new'), noindex: true },
      company: null,
      members: [] as CompanyMember[],
      badges: [],
      ads: 0,
      packages: null,
      canGrant: false,
      cities,
      canEdit,
    };
  }
  const company = await getCompany(database, id);
  const [members, badges, ads, packages] = await Promise.all([
    listMembers(database, id),
    badgesOfCompanies(database, [id]),
    countCompanyAds(database, id),
    can(user, 'view-packages') ? heldPackages(database, { companyId: id }) : null,
  ]);
  return {
    meta: { title: `${localName(locale, company)} · ${t('admin:companies.title')}`, noindex: true },
    company,
    members,
    badges: badges.get(id) ?? [],
    ads,
    packages,
    canGrant: can(user, 'update-packages'),
    cities,
    canEdit,
  };
}

type Intent = (typeof COMPANY_INTENTS)[number];
type IntentReply = SubmissionResult<string[]> & { form: Intent };
export type CompanyActionData = { result: IntentReply; formError?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = pathIdOrNew(request, params.id);
  const { actor } = await requireStaff(request, context, 'update-companies');
  if (requestInfo(context).bodyTooLarge) {
    // Only a logo can be this large; nothing was read, nothing changes.
    const result: IntentReply = { status: 'error', form: 'logo', error: { image: ['image-too-large'] } };
    return data<CompanyActionData>({ result }, { status: 422 });
  }
  const form = await request.formData();
  const intent = form.get('intent');
  if (!isCompanyIntent(intent) || (id === null && intent !== 'save')) {
    throw new Response(null, { status: 400, statusText: 'Bad Request' });
  }
  const database = db(context);
  const locale = localeOf(request);
  const here = (companyId: number) => localizePath(`/admin/companies/${companyId}`, locale);
  const handle = <Schema extends z.ZodType>(schema: Schema, work: (value: z.output<Schema>) => Promise<Response>) =>
    formAction(form, schema, work, { extra: { form: intent }, hideFields: ['image'] });

  if (id === null) {
    return handle(companySchema, async (value) => {
      const created = await createCompany(database, actor, value);
      return redirectWithFlash(here(created), 'admin-created');
    });
  }
  const storage = () => createStorage(services(context).config);
  switch (intent) {
    case 'save':
      return handle(companySchema, async (value) => {
        await updateCompany(database, actor, id, value);
        return redirectWithFlash(here(id), 'admin-saved');
      });
    case 'logo':
      return handle(logoSchema, async ({ image }) => {
        await setCompanyLogo(database, storage(), actor, id, Buffer.from(await image.arrayBuffer()));
        return redirectWithFlash(`${here(id)}#logo`, 'admin-saved');
      });
    case 'logo-remove':
      return handle(z.object({}), async () => {
        await removeCompanyLogo(database, storage(), actor, id);
        return redirectWithFlash(`${here(id)}#logo`, 'admin-saved');
      });
    case 'add-member':
      return handle(addMemberSchema, async (value) => {
        await addCompanyMember(database, actor, id, value);
        return redirectWithFlash(`${here(id)}#members`, 'admin-saved');
      });
    case 'remove-member':
      return handle(memberSchema, async ({ user_id }) => {
        await removeCompanyMember(database, actor, id, user_id);
        return redirectWithFlash(`${here(id)}#members`, 'admin-saved');
      });
    case 'member-role':
      return handle(memberRoleSchema, async ({ user_id, role }) => {
        await setCompanyMemberRole(database, actor, id, user_id, role);
        return redirectWithFlash(`${here(id)}#members`, 'admin-saved');
      });
    case 'delete':
      return handle(z.object({}), async () => {
        await deleteCompany(database, storage(), actor, id);
        return redirectWithFlash(localizePath('/admin/companies', locale), 'admin-deleted');
      });
  }
}

export const meta: Route.MetaFunction = routeMeta;

function Intent({ value }: { value: Intent }) {
  return <input type="hidden" name="intent" value={value} />;
}

const replyOf = (reply: CompanyActionData | undefined, intent: Intent) =>
  reply?.result.form === intent ? reply.result : undefined;

function DetailsForm({
  company,
  cities,
  canEdit,
  reply,
}: {
  company: Company | null;
  cities: { value: string; label: string }[];
  canEdit: boolean;
  reply: CompanyActionData | undefined;
}) {
  const { t } = useT('admin');
  const fieldError = useFieldError();
  const [form, fields] = useValidatedForm(
    'company-form',
    companySchema,
    replyOf(reply, 'save'),
    company
      ? {
          slug: company.slug,
          name_ar: company.name_ar,
          name_en: company.name_en,
          description: company.description ?? '',
          phone: company.phone ?? '',
          email: company.email ?? '',
          website: company.website ?? '',
          city: company.city_id === null ? '' : String(company.city_id),
          verified: company.verified ? 'on' : '',
        }
      : undefined,
  );
  const text = (name: keyof typeof fields, label: string, extra: { dir?: 'ltr' | 'auto'; required?: boolean } = {}) => {
    const field = fields[name];
    return (
      <TextInput
        {...getInputProps(field, { type: 'text' })}
        key={field.key}
        label={label}
        dir={extra.dir}
        withAsterisk={extra.required}
        error={fieldError(field)}
      />
    );
  };
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <Intent value="save" />
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="md">
          <FormError code={reply?.result.form === 'save' ? reply.formError : undefined} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {text('name_ar', t('companies.fields.name_ar'), { dir: 'auto', required: true })}
            {text('name_en', t('companies.fields.name_en'), { dir: 'auto', required: true })}
            <TextInput
              {...getInputProps(fields.slug, { type: 'text' })}
              key={fields.slug.key}
              label={t('companies.fields.slug')}
              description={t('companies.fields.slug-hint')}
              dir="ltr"
              withAsterisk
              error={fieldError(fields.slug)}
            />
            <NativeSelect
              name={fields.city.name}
              id={fields.city.id}
              key={fields.city.key}
              defaultValue={fields.city.initialValue as string | undefined}
              label={t('companies.fields.city')}
              data={[{ value: '', label: t('companies.no-city') }, ...cities]}
              error={fieldError(fields.city)}
            />
            {text('phone', t('companies.fields.phone'), { dir: 'ltr' })}
            {text('email', t('companies.fields.email'), { dir: 'ltr' })}
            {text('website', t('companies.fields.website'), { dir: 'ltr' })}
          </SimpleGrid>
          <Textarea
            {...getTextareaProps(fields.description)}
            key={fields.description.key}
            label={t('companies.fields.description')}
            dir="auto"
            autosize
            minRows={3}
            error={fieldError(fields.description)}
          />
          <Checkbox
            {...getInputProps(fields.verified, { type: 'checkbox' })}
            key={fields.verified.key}
            label={t('companies.fields.verified')}
            description={t('companies.fields.verified-hint')}
          />
          {canEdit ? (
            <Group>
              <IntentSubmit intent="save">{company ? t('companies.save') : t('companies.create')}</IntentSubmit>
            </Group>
          ) : null}
        </Stack>
      </fieldset>
    </Form>
  );
}

function LogoSection({ company, canEdit, reply }: { company: Company; canEdit: boolean; reply?: CompanyActionData }) {
  const { t } = useT('admin');
  const fieldError = useFieldError();
  const [form, fields] = useValidatedForm('logo-form', logoSchema, replyOf(reply, 'logo'));
  const error = fieldError(fields.image);
  const inputId = fields.image.id;
  return (
    <AdminSection id="logo" title={t('companies.logo')}>
      <Group align="flex-start" gap="lg">
        {company.logo ? (
          <img
            src={company.logo.large}
            alt={t('companies.logo-alt')}
            width={96}
            height={96}
            style={{ objectFit: 'contain' }}
          />
        ) : (
          <Stack align="center" gap={4}>
            <SpriteIcon name="store" size={64} />
            <Text size="sm" c="dimmed">
              {t('companies.no-logo')}
            </Text>
          </Stack>
        )}
        {canEdit ? (
          <Stack gap="sm" style={{ flex: 1, minWidth: 220 }}>
            <Form method="post" encType="multipart/form-data" {...getFormProps(form)} noValidate>
              <Intent value="logo" />
              <Stack gap="sm">
                <Input.Wrapper
                  id={inputId}
                  label={t('companies.logo-file')}
                  description={t('companies.logo-hint')}
                  error={error}
                >
                  <input
                    type="file"
                    id={inputId}
                    name={fields.image.name}
                    accept={LOGO_ACCEPT}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={`${inputId}-description${error ? ` ${inputId}-error` : ''}`}
                    style={{ display: 'block', minHeight: 44, maxWidth: '100%' }}
                  />
                </Input.Wrapper>
                <Group>
                  <IntentSubmit intent="logo">{t('companies.logo-upload')}</IntentSubmit>
                </Group>
              </Stack>
            </Form>
            {company.logo ? (
              <Form method="post">
                <Intent value="logo-remove" />
                <Button type="submit" variant="subtle" color="red">
                  {t('companies.logo-remove')}
                </Button>
              </Form>
            ) : null}
          </Stack>
        ) : null}
      </Group>
    </AdminSection>
  );
}

function MembersSection({
  members,
  canEdit,
  reply,
}: {
  members: CompanyMember[];
  canEdit: boolean;
  reply?: CompanyActionData;
}) {
  const { t } = useT('admin');
  const fieldError = useFieldError();
  const [form, fields] = useValidatedForm('member-form', addMemberSchema, replyOf(reply, 'add-member'), {
    role: 'agent',
  });
  const roles = COMPANY_ROLES.map((r) => ({ value: r, label: t(`companies.roles.${r}`) }));
  return (
    <AdminSection id="members" title={t('companies.members', { count: members.length })}>
      <Stack gap="md">
        <FormError
          code={
            reply?.result.form === 'remove-member' || reply?.result.form === 'member-role' ? reply.formError : undefined
          }
        />
        {members.length === 0 ? (
          <Text c="dimmed">{t('companies.no-members')}</Text>
        ) : (
          <Stack
            component="ul"
            gap="sm"
            p={0}
            m={0}
            aria-label={t('companies.members-list')}
            style={{ listStyle: 'none' }}
          >
            {members.map((m) => (
              <Paper key={m.id} component="li" withBorder radius="md" p="sm">
                <Group justify="space-between" align="flex-start" gap="sm">
                  <Stack gap={0} miw={0} style={{ flex: '1 1 200px' }}>
                    <Text fw={600}>
                      <bdi>{m.name}</bdi>
                    </Text>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      <bdi dir="ltr">{m.email}</bdi>
                      {m.phone ? (
                        <>
                          {' · '}
                          <bdi dir="ltr">{m.phone}</bdi>
                        </>
                      ) : null}
                    </Text>
                    {canEdit ? null : <Text size="sm">{t(`companies.roles.${m.role}`)}</Text>}
                  </Stack>
                  {canEdit ? (
                    <Group gap="xs" align="flex-start" wrap="wrap">
                      <Form method="post">
                        <Intent value="member-role" />
                        <input type="hidden" name="user_id" value={m.id} />
                        <Group gap="xs" wrap="nowrap">
                          <NativeSelect
                            name="role"
                            aria-label={t('companies.role-of', { name: m.name })}
                            defaultValue={m.role}
                            data={roles}
                          />
                          <Button type="submit" variant="default">
                            {t('companies.role-save')}
                          </Button>
                        </Group>
                      </Form>
                      <Form method="post">
                        <input type="hidden" name="user_id" value={m.id} />
                        <ConfirmAction
                          label={t('companies.remove-member')}
                          statement={t('companies.remove-member-statement', { name: m.name })}
                          intent="remove-member"
                        />
                      </Form>
                    </Group>
                  ) : null}
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
        {canEdit ? (
          <Form method="post" {...getFormProps(form)} noValidate>
            <Intent value="add-member" />
            <Stack gap="sm">
              <Title order={3} size="h5">
                {t('companies.add-member')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('companies.add-member-hint')}
              </Text>
              <Group align="flex-start" gap="sm" wrap="wrap">
                <TextInput
                  {...getInputProps(fields.login, { type: 'text' })}
                  key={fields.login.key}
                  label={t('companies.fields.login')}
                  dir="ltr"
                  autoComplete="off"
                  withAsterisk
                  error={fieldError(fields.login)}
                  style={{ flex: 1, minWidth: 220 }}
                />
                <NativeSelect
                  name={fields.role.name}
                  id={fields.role.id}
                  key={fields.role.key}
                  defaultValue={(fields.role.initialValue as string | undefined) ?? 'agent'}
                  label={t('companies.fields.role')}
                  data={roles}
                  error={fieldError(fields.role)}
                />
              </Group>
              <Group>
                <IntentSubmit intent="add-member">{t('companies.add')}</IntentSubmit>
              </Group>
            </Stack>
          </Form>
        ) : null}
      </Stack>
    </AdminSection>
  );
}

/** The company's packages running or starting later, with what is left (docs/product/back-office.md, "Packages"). */
function PackagesSection({ slug, packages, grant }: { slug: string; packages: MemberPackage[]; grant: boolean }) {
  const { t } = useT('admin');
  const { to } = useLocale();
  return (
    <AdminSection id="packages" title={t('companies.packages.title')}>
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t('companies.packages.intro')}
        </Text>
        {packages.length === 0 ? <Text size="sm">{t('companies.packages.none')}</Text> : null}
        <HeldPackages packages={packages} />
        {grant ? (
          <Group>
            <Button
              component={Link}
              to={`${to('/admin/packages/grant')}?holder=company&company=${encodeURIComponent(slug)}`}
              variant="default"
              mih={44}
            >
              {t('companies.packages.grant')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </AdminSection>
  );
}

export default function CompanyScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  const { to, name } = useLocale();
  const { company, members, badges, ads, packages, canGrant, cities, canEdit } = loaderData;
  const reply = actionData as CompanyActionData | undefined;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={to('/admin/companies')} size="sm" py={10}>
        <Group gap={4} component="span">
          <IconArrowLeft size={16} className="mantine-rotate-rtl" aria-hidden />
          {t('companies.back')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{company ? <bdi>{name(company)}</bdi> : t('companies.new')}</Title>
        {company ? (
          <Anchor component={Link} to={to(`/companies/${company.slug}`)} py={10}>
            <Group gap={4} component="span">
              {t('companies.public-page')}
              <IconExternalLink size={16} aria-hidden />
            </Group>
          </Anchor>
        ) : null}
      </Group>
      <AdminSection id="details" title={t('companies.details')}>
        <DetailsForm company={company} cities={cities} canEdit={canEdit} reply={reply} />
      </AdminSection>
      {company ? (
        <>
          <LogoSection company={company} canEdit={canEdit} reply={reply} />
          <MembersSection members={members} canEdit={canEdit} reply={reply} />
          {packages ? <PackagesSection slug={company.slug} packages={packages} grant={canGrant} /> : null}
          <AdminSection id="badges" title={t('companies.badges')}>
            {badges.length ? (
              <BadgeChips badges={badges} label={t('companies.badges')} />
            ) : (
              <Text c="dimmed">{t('companies.no-badges')}</Text>
            )}
            <Text size="sm" mt="sm">
              <Anchor component={Link} to={to('/admin/badges')}>
                {t('companies.badges-hint')}
              </Anchor>
            </Text>
          </AdminSection>
          {canEdit ? (
            <Box>
              <Form method="post">
                <ConfirmAction
                  label={t('companies.delete')}
                  statement={t('companies.delete-statement', { members: members.length, count: ads })}
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
