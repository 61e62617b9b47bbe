// The sections of the profile settings page. Each is one form with a hidden `intent`, validated by
// its schema in the browser (on blur, then as the member types) and again on the server.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from '@conform-to/react';
import {
  Anchor,
  Avatar,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Input,
  List,
  NativeSelect,
  PasswordInput,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { FormError, PasswordField, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { locales } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { dates, numberFormat } from '~/lib/intl.ts';
import { useLocale } from '~/lib/use-locale.ts';
import {
  AVATAR_ACCEPT,
  avatarSchema,
  changeEmailSchema,
  changePasswordSchema,
  deleteWithPasswordSchema,
  deleteWithWordSchema,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TYPES,
  type NotificationPreferences,
  notificationsSchema,
  type ProfileIntent,
  profileSchema,
  setPasswordSchema,
} from '~/lib/validation/profile.ts';
import type { MemberPackage } from '../../../server/domain/packages/allowance.ts';
import type { ProfileSettings } from '../../../server/domain/profile.ts';
import classes from './profile.module.css';
import type { ProfileActionData } from './settings.tsx';

export const SECTIONS = [
  'profile',
  'package',
  'avatar',
  'email',
  'phone',
  'password',
  'notifications',
  'delete',
] as const;
type SectionId = (typeof SECTIONS)[number];

type Settings = ProfileSettings;
type Reply = ProfileActionData | undefined;

/** A section card with its heading; the id is the anchor `#<section>` of the page's menu. */
function Section({
  id,
  title,
  intro,
  danger,
  children,
}: {
  id: SectionId;
  title: string;
  intro?: ReactNode;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      component="section"
      id={id}
      aria-labelledby={`${id}-title`}
      className={`${classes.section} ${danger ? classes.danger : ''}`}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id={`${id}-title`} c={danger ? 'red' : undefined}>
          {title}
        </Title>
        {intro ? (
          <Text c="dimmed" size="sm">
            {intro}
          </Text>
        ) : null}
        {children}
      </Stack>
    </Card>
  );
}

/** The submit button of one section: shows progress only while that section is being sent. */
function SectionSubmit({ intent, children, color }: { intent: ProfileIntent; children: ReactNode; color?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  return (
    <Group justify="flex-end">
      <Button type="submit" radius="xl" size="md" color={color} loading={busy}>
        {children}
      </Button>
    </Group>
  );
}

const Intent = ({ value }: { value: ProfileIntent }) => <input type="hidden" name="intent" value={value} />;

export function ProfileSection({
  settings,
  cities,
  reply,
}: {
  settings: Settings;
  cities: { id: number; name: string }[];
  reply: Reply;
}) {
  const { t } = useT('profile');
  const fieldError = useFieldError();
  const [form, fields] = useValidatedForm('profile-form', profileSchema, reply?.result, {
    name: settings.name,
    city: settings.city_id === null ? '' : String(settings.city_id),
    bio: settings.bio ?? '',
    show_phone: settings.show_phone ? 'on' : '',
    locale: settings.locale,
  });
  return (
    <Section id="profile" title={t('sections.profile')} intro={t('profile.intro')}>
      <FormError code={reply?.formError} />
      <Form method="post" {...getFormProps(form)} noValidate preventScrollReset>
        <Intent value="profile" />
        <Stack gap="sm">
          <TextInput
            {...getInputProps(fields.name, { type: 'text' })}
            key={fields.name.key}
            label={t('labels.name')}
            autoComplete="name"
            dir="auto"
            error={fieldError(fields.name)}
            withAsterisk
          />
          <NativeSelect
            {...getSelectProps(fields.city)}
            key={fields.city.key}
            label={t('labels.city')}
            autoComplete="address-level2"
            error={fieldError(fields.city)}
            data={[
              { value: '', label: t('profile.city-none') },
              ...cities.map((c) => ({ value: String(c.id), label: c.name })),
            ]}
          />
          <Textarea
            {...getTextareaProps(fields.bio)}
            key={fields.bio.key}
            label={t('labels.bio')}
            description={t('profile.bio-hint')}
            autosize
            minRows={3}
            maxRows={10}
            dir="auto"
            error={fieldError(fields.bio)}
          />
          <Switch
            {...getInputProps(fields.show_phone, { type: 'checkbox' })}
            key={fields.show_phone.key}
            label={t('labels.show_phone')}
            description={settings.phone ? t('profile.show-phone-hint') : t('profile.show-phone-needs-phone')}
            disabled={!settings.phone}
            error={fieldError(fields.show_phone)}
            size="md"
          />
          <NativeSelect
            {...getSelectProps(fields.locale)}
            key={fields.locale.key}
            label={t('labels.locale')}
            error={fieldError(fields.locale)}
            data={locales.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
            withAsterisk
          />
          <SectionSubmit intent="profile">{t('profile.submit')}</SectionSubmit>
        </Stack>
      </Form>
    </Section>
  );
}

export function AvatarSection({ settings, reply }: { settings: Settings; reply: Reply }) {
  const { t } = useT('profile');
  const fieldError = useFieldError();
  const [form, fields] = useValidatedForm(
    'avatar-form',
    avatarSchema,
    reply?.result.section === 'avatar' ? reply.result : undefined,
  );
  const error = fieldError(fields.image);
  const inputId = fields.image.id;
  return (
    <Section id="avatar" title={t('sections.avatar')}>
      <FormError code={reply?.formError} />
      <Group align="flex-start" gap="lg">
        <Avatar
          src={settings.image}
          alt={settings.image ? t('avatar.alt', { name: settings.name }) : undefined}
          name={settings.name}
          color="initials"
          size={96}
          radius={96}
        />
        <Stack gap="sm" style={{ flex: 1, minWidth: 220 }}>
          {settings.image ? null : (
            <Text size="sm" c="dimmed">
              {t('avatar.none')}
            </Text>
          )}
          <Form method="post" encType="multipart/form-data" {...getFormProps(form)} noValidate preventScrollReset>
            <Intent value="avatar" />
            <Stack gap="sm">
              <Input.Wrapper id={inputId} label={t('labels.image')} description={t('avatar.hint')} error={error}>
                <input
                  type="file"
                  id={inputId}
                  name={fields.image.name}
                  form={form.id}
                  accept={AVATAR_ACCEPT}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={`${inputId}-description${error ? ` ${inputId}-error` : ''}`}
                  className={classes.file}
                />
              </Input.Wrapper>
              <SectionSubmit intent="avatar">{t('avatar.submit')}</SectionSubmit>
            </Stack>
          </Form>
          {settings.image ? (
            <Form method="post" preventScrollReset>
              <Intent value="avatar-remove" />
              <Button type="submit" variant="subtle" color="red" radius="xl">
                {t('avatar.remove')}
              </Button>
            </Form>
          ) : null}
        </Stack>
      </Group>
    </Section>
  );
}

export function EmailSection({ settings, reply }: { settings: Settings; reply: Reply }) {
  const { t } = useT('profile');
  const { to } = useLocale();
  const fieldError = useFieldError();
  const [form, fields] = useValidatedForm('email-form', changeEmailSchema, reply?.result);
  return (
    <Section id="email" title={t('sections.email')}>
      {settings.email ? (
        <Group gap="xs">
          <Text>
            {t('email.current')} <bdi dir="ltr">{settings.email}</bdi>
          </Text>
          <Badge color={settings.email_verified ? 'brand' : 'yellow'} variant="light">
            {settings.email_verified ? t('email.verified') : t('email.unverified')}
          </Badge>
          {settings.email_verified ? null : (
            <Anchor component={Link} to={to('/account/email-verification')} size="sm">
              {t('email.resend')}
            </Anchor>
          )}
        </Group>
      ) : (
        <Text c="dimmed">{t('email.none')}</Text>
      )}
      <FormError code={reply?.formError} />
      <Form method="post" {...getFormProps(form)} noValidate preventScrollReset>
        <Intent value="email" />
        <Stack gap="sm">
          <TextInput
            {...getInputProps(fields.email, { type: 'email' })}
            key={fields.email.key}
            label={settings.email ? t('labels.email') : t('labels.add-email')}
            description={t('email.hint')}
            autoComplete="email"
            dir="ltr"
            error={fieldError(fields.email)}
            withAsterisk
          />
          <SectionSubmit intent="email">{t('email.submit')}</SectionSubmit>
        </Stack>
      </Form>
    </Section>
  );
}

export function PhoneSection({ settings }: { settings: Settings }) {
  const { t } = useT('profile');
  const { to } = useLocale();
  const verify = `${to('/account/phone-verification')}?${new URLSearchParams({ redirect: to('/profile') })}`;
  return (
    <Section id="phone" title={t('sections.phone')}>
      {settings.phone ? (
        <Group gap="xs">
          <Text>
            {t('phone.current')} <bdi dir="ltr">{settings.phone}</bdi>
          </Text>
          <Badge color="brand" variant="light">
            {t('phone.verified')}
          </Badge>
        </Group>
      ) : (
        <Text c="dimmed">{t('phone.none')}</Text>
      )}
      <Text size="sm" c="dimmed">
        {t('phone.hint')}
      </Text>
      <Group justify="flex-end">
        <Button component={Link} to={verify} variant="default" radius="xl" size="md">
          {settings.phone ? t('phone.change') : t('phone.add')}
        </Button>
      </Group>
    </Section>
  );
}

export function PasswordSection({ settings, reply }: { settings: Settings; reply: Reply }) {
  const { t } = useT('profile');
  const [changeForm, change] = useValidatedForm('password-form', changePasswordSchema, reply?.result);
  const [setForm, first] = useValidatedForm('set-password-form', setPasswordSchema, reply?.result);
  return (
    <Section
      id="password"
      title={t('sections.password')}
      intro={settings.has_password ? t('password.intro') : t('password.set-intro')}
    >
      <FormError code={reply?.formError} />
      {settings.has_password ? (
        <Form method="post" {...getFormProps(changeForm)} noValidate preventScrollReset>
          <Intent value="password" />
          {/* Lets password managers file the new password under the right account. */}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value={settings.email ?? settings.phone ?? ''}
            readOnly
            hidden
          />
          <Stack gap="sm">
            <PasswordField
              field={change.current_password}
              label={t('labels.current_password')}
              autoComplete="current-password"
            />
            <PasswordField
              field={change.password}
              label={t('labels.password')}
              description={t('password.hint')}
              autoComplete="new-password"
            />
            <PasswordField
              field={change.password_confirmation}
              label={t('labels.password_confirmation')}
              autoComplete="new-password"
            />
            <SectionSubmit intent="password">{t('password.submit')}</SectionSubmit>
          </Stack>
        </Form>
      ) : (
        <Form method="post" {...getFormProps(setForm)} noValidate preventScrollReset>
          <Intent value="password-set" />
          <Stack gap="sm">
            <PasswordField
              field={first.password}
              label={t('labels.password')}
              description={t('password.hint')}
              autoComplete="new-password"
            />
            <PasswordField
              field={first.password_confirmation}
              label={t('labels.password_confirmation')}
              autoComplete="new-password"
            />
            <SectionSubmit intent="password-set">{t('password.set-submit')}</SectionSubmit>
          </Stack>
        </Form>
      )}
    </Section>
  );
}

export function NotificationsSection({
  settings,
  preferences,
  reply,
}: {
  settings: Settings;
  preferences: NotificationPreferences;
  reply: Reply;
}) {
  const { t } = useT('profile');
  const [form] = useValidatedForm('notifications-form', notificationsSchema, reply?.result);
  const reachable = { email: Boolean(settings.email), sms: Boolean(settings.phone) };
  return (
    <Section id="notifications" title={t('sections.notifications')} intro={t('notifications.intro')}>
      <FormError code={reply?.formError} />
      {reachable.email ? null : (
        <Text size="sm" c="dimmed">
          {t('notifications.no-email')}
        </Text>
      )}
      {reachable.sms ? null : (
        <Text size="sm" c="dimmed">
          {t('notifications.sms-needs-phone')}
        </Text>
      )}
      <Form method="post" {...getFormProps(form)} noValidate preventScrollReset>
        <Intent value="notifications" />
        <Stack gap="sm">
          <Table.ScrollContainer minWidth={280}>
            <Table verticalSpacing="xs" horizontalSpacing="xs" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('notifications.type')}</Table.Th>
                  {NOTIFICATION_CHANNELS.map((channel) => (
                    // Phones leave out the always-on column (the intro says so) to keep the table narrow.
                    <Table.Th
                      key={channel}
                      scope="col"
                      ta="center"
                      w={72}
                      visibleFrom={channel === 'in-app' ? 'sm' : undefined}
                    >
                      {t(`notifications.channels.${channel}`)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {NOTIFICATION_TYPES.map((type) => {
                  const label = t(`notifications.types.${type}`);
                  const name = (channel: string) =>
                    t('notifications.checkbox', { type: label, channel: t(`notifications.channels.${channel}`) });
                  return (
                    <Table.Tr key={type}>
                      <Table.Th scope="row" fw={400}>
                        {label}
                      </Table.Th>
                      <Table.Td visibleFrom="sm">
                        <label className={classes.cell}>
                          <Checkbox checked readOnly disabled aria-label={name('in-app')} />
                        </label>
                      </Table.Td>
                      {(['email', 'sms'] as const).map((channel) => (
                        <Table.Td key={channel}>
                          {/* The whole 44 px cell ticks the box (docs/product/site.md, "Tap targets"). */}
                          <label className={classes.cell}>
                            <Checkbox
                              name={channel}
                              value={type}
                              defaultChecked={preferences[type][channel]}
                              disabled={!reachable[channel]}
                              aria-label={name(channel)}
                            />
                          </label>
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <SectionSubmit intent="notifications">{t('notifications.submit')}</SectionSubmit>
        </Stack>
      </Form>
    </Section>
  );
}

export function DeleteSection({ settings, reply }: { settings: Settings; reply: Reply }) {
  const { t } = useT('profile');
  const fieldError = useFieldError();
  const [passwordForm, withPassword] = useValidatedForm('delete-form', deleteWithPasswordSchema, reply?.result);
  const [wordForm, withWord] = useValidatedForm('delete-word-form', deleteWithWordSchema, reply?.result);
  const word = t('delete.word');
  return (
    <Section id="delete" title={t('sections.delete')} intro={t('delete.intro')} danger>
      <List size="sm" spacing={4} icon={<IconAlertCircle size={16} aria-hidden color="var(--mantine-color-red-6)" />}>
        <List.Item>{t('delete.ads')}</List.Item>
        <List.Item>{t('delete.chats')}</List.Item>
        <List.Item>{t('delete.rest')}</List.Item>
      </List>
      <FormError code={reply?.formError} />
      {settings.has_password ? (
        <Form method="post" {...getFormProps(passwordForm)} noValidate>
          <Intent value="delete" />
          <Stack gap="sm">
            <PasswordInput
              {...getInputProps(withPassword.password, { type: 'password' })}
              key={withPassword.password.key}
              visibilityToggleButtonProps={{ 'aria-label': t('common:show-password') }}
              label={t('labels.delete-password')}
              description={t('delete.password-hint')}
              autoComplete="current-password"
              error={fieldError(withPassword.password)}
              withAsterisk
            />
            <SectionSubmit intent="delete" color="red">
              {t('delete.submit')}
            </SectionSubmit>
          </Stack>
        </Form>
      ) : (
        <Form method="post" {...getFormProps(wordForm)} noValidate>
          <Intent value="delete" />
          <Stack gap="sm">
            <TextInput
              {...getInputProps(withWord.confirm, { type: 'text' })}
              key={withWord.confirm.key}
              label={t('labels.confirm')}
              description={t('delete.word-hint', { word })}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              error={fieldError(withWord.confirm)}
              withAsterisk
            />
            <SectionSubmit intent="delete" color="red">
              {t('delete.submit')}
            </SectionSubmit>
          </Stack>
        </Form>
      )}
    </Section>
  );
}

/**
 * "My package" (docs/product/back-office.md, "Packages"): each package the member holds, and each
 * of their company's (shared with its members), running or waiting to start, with its end date
 * and what is left of it, and the allowance they make; or that there is none and what free
 * accounts get.
 */
export function PackageSection({
  packages,
  companyPackages,
  allowance,
}: {
  packages: MemberPackage[];
  companyPackages: { company: { name_ar: string; name_en: string }; packages: MemberPackage[] } | null;
  allowance: { active: number; limit: number; free: number };
}) {
  const { t } = useT('profile');
  const { locale, name, to } = useLocale();
  const { date } = dates(locale);
  const number = numberFormat(locale);
  const shared = companyPackages?.packages ?? [];
  const card = (p: MemberPackage, company: string | null) => (
    <Card key={p.id} withBorder radius="md" padding="md" data-testid={company ? 'company-package' : 'my-package'}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text fw={700} dir="auto">
            {name(p.package)}
          </Text>
          {p.current ? (
            <Badge variant="light" color="brand" tt="none">
              {t('package.until', { date: date(p.ends_at) })}
            </Badge>
          ) : (
            <Badge variant="light" color="gray" tt="none">
              {t('package.starts', { date: date(p.starts_at) })}
            </Badge>
          )}
        </Group>
        {company ? (
          <Text size="sm" c="dimmed">
            {t('package.company', { company })}
          </Text>
        ) : null}
        <List size="sm" spacing={2}>
          <List.Item>{t('package.active-ads', { count: p.max_active_ads })}</List.Item>
          <List.Item>
            {t('package.featured-left', { count: p.featured_remaining, total: number.format(p.featured_ads) })}
          </List.Item>
          <List.Item>
            {t('package.reposts-left', { count: p.reposts_remaining, total: number.format(p.reposts) })}
          </List.Item>
        </List>
      </Stack>
    </Card>
  );
  return (
    <Section id="package" title={t('sections.package')}>
      {packages.length === 0 && shared.length === 0 ? (
        <Stack gap={4} data-testid="no-package">
          <Text>{t('package.none')}</Text>
          <Text size="sm" c="dimmed">
            {t('package.free', { count: allowance.free })}{' '}
            <Anchor component={Link} to={to('/contact')}>
              {t('package.ask')}
            </Anchor>
          </Text>
        </Stack>
      ) : (
        <Stack gap="sm">
          {packages.map((p) => card(p, null))}
          {companyPackages ? shared.map((p) => card(p, name(companyPackages.company))) : null}
          <Text size="sm" c="dimmed" data-testid="package-allowance">
            {t('package.allowance', { count: allowance.limit, active: number.format(allowance.active) })}
          </Text>
        </Stack>
      )}
    </Section>
  );
}
