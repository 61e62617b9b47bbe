import type { SubmissionResult } from '@conform-to/react';
import { Avatar, Box, Button, Grid, Group, NavLink as MantineNavLink, Stack, Text, Title } from '@mantine/core';
import { data, Link, redirectDocument, useLocation } from 'react-router';
import { z } from 'zod';
import { MetaLine } from '~/components/ads/ad-parts.tsx';
import { localizePath, localName } from '~/i18n/config.ts';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { type BodyLimitHandle, UPLOAD_FRAMING_BYTES } from '~/lib/body-limit.ts';
import { flashCookie, redirectWithFlash } from '~/lib/flash.server.ts';
import { authMeta, formAction, redirectWithCookies } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { dates, numberFormat } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, requestInfo, services, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import {
  AVATAR_MAX_BYTES,
  avatarSchema,
  changeEmailSchema,
  changePasswordSchema,
  deleteWithPasswordSchema,
  deleteWithWordSchema,
  isProfileIntent,
  notificationsSchema,
  type ProfileIntent,
  profileSchema,
  setPasswordSchema,
} from '~/lib/validation/profile.ts';
import { activeAdLimit, countActiveAds } from '../../../server/domain/ads/rules.ts';
import { listCityNames } from '../../../server/domain/catalog.ts';
import { companyOfMember } from '../../../server/domain/companies/companies.ts';
import { countFavorites } from '../../../server/domain/favorites.ts';
import { heldPackages, memberPackages } from '../../../server/domain/packages/allowance.ts';
import {
  accountHasPassword,
  changePassword,
  deleteAccount,
  loadProfileSettings,
  notificationPreferences,
  removeAvatar,
  requestEmailChange,
  saveNotificationPreferences,
  setPassword,
  updateAvatar,
  updateProfile,
} from '../../../server/domain/profile.ts';
import { readSettings } from '../../../server/domain/settings.ts';
import { createStorage } from '../../../server/media/storage.ts';
import type { Route } from './+types/settings';
import classes from './profile.module.css';
import {
  AvatarSection,
  DeleteSection,
  EmailSection,
  NotificationsSection,
  PackageSection,
  PasswordSection,
  PhoneSection,
  ProfileSection,
  SECTIONS,
} from './sections.tsx';

// Profile settings (docs/product-notes.md, "Profile settings"): each section is its own form posting here with a
// hidden `intent`, validated by the section's schema on both sides. Success redirects back to the
// section with a flash saying what was saved (app/lib/flash.server.ts; a refresh never posts
// twice); refusals answer 422 with the translated errors and change nothing.

export const middleware = guards('auth');

export async function loader({ request, context }: Route.LoaderArgs) {
  const t = tFor(request);
  const user = await requireUser(request, context);
  const locale = localeOf(request);
  const [settings, cities, notifications, favorites, packages, active, limit, rules, company] = await Promise.all([
    loadProfileSettings(db(context), user.id),
    listCityNames(db(context)),
    notificationPreferences(db(context), user.id),
    countFavorites(db(context), user.id),
    memberPackages(db(context), user.id),
    countActiveAds(db(context), user.id),
    activeAdLimit(db(context), user.id),
    readSettings(db(context)),
    companyOfMember(db(context), user.id),
  ]);
  // The packages of the member's company count for them too (server/domain/packages/allowance.ts).
  const companyPackages = company
    ? {
        company: { name_ar: company.name_ar, name_en: company.name_en },
        packages: await heldPackages(db(context), { companyId: company.id }),
      }
    : null;
  return {
    meta: { title: t('profile:title'), description: t('profile:description'), noindex: true },
    settings,
    cities: cities.map((c) => ({ id: c.id, name: localName(locale, c) })),
    notifications,
    favorites,
    packages,
    companyPackages,
    allowance: { active, limit, free: rules.freeActiveAds },
  };
}

/** Conform's reply, tagged with the section (`intent`) that was sent. */
type SectionReply = SubmissionResult<string[]> & { section: ProfileIntent };
export type ProfileActionData = { result: SectionReply; formError?: string };

/** Back to the section after a success (`/profile#<section>`), saying what was saved. */
function backTo(request: Request, saved: SavedWhat, section: string, cookies: string[] = []): Response {
  return redirectWithFlash(`${localizePath('/profile', localeOf(request))}#${section}`, `saved-${saved}`, cookies);
}
type SavedWhat = 'profile' | 'avatar' | 'avatar-removed' | 'email' | 'password' | 'password-set' | 'notifications';

/** A section's form (app/lib/form-actions.server.ts's one shape), its reply marked with the section. */
function answerSection<Schema extends z.ZodType>(
  intent: ProfileIntent,
  form: FormData,
  schema: Schema,
  work: (value: z.output<Schema>) => Promise<Response>,
  hideFields: string[] = [],
) {
  return formAction(form, schema, work, { hideFields, extra: { section: intent } });
}

const passwordFields = ['current_password', 'password', 'password_confirmation'];

/** The avatar upload: a photo of the largest size accepted, answered with a field error beyond it. */
export const handle = {
  bodyLimit: AVATAR_MAX_BYTES + UPLOAD_FRAMING_BYTES,
  answersOversizedBody: true,
} satisfies BodyLimitHandle;

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  if (requestInfo(context).bodyTooLarge) {
    // Only an upload can be this large; nothing was read into the form, nothing changes.
    const result: SectionReply = { status: 'error', section: 'avatar', error: { image: ['image-too-large'] } };
    return data<ProfileActionData>({ result }, { status: 422 });
  }
  const form = await request.formData();
  const intent = form.get('intent');
  if (!isProfileIntent(intent)) throw new Response(null, { status: 400, statusText: 'Bad Request' });
  const { auth, config } = services(context);
  const database = db(context);
  const meta = authMeta(request, context);
  const page = localeOf(request);

  switch (intent) {
    case 'profile':
      return answerSection(intent, form, profileSchema, async (value) => {
        const { localeChanged } = await updateProfile(database, user.id, value);
        // A new language is also the site's: through the language switch, which remembers it.
        if (localeChanged && value.locale !== page) {
          const target = encodeURIComponent('/profile');
          const headers = { 'Set-Cookie': flashCookie('saved-profile') };
          return redirectDocument(`/locale/${value.locale}?redirect=${target}#profile`, { headers });
        }
        return backTo(request, 'profile', 'profile');
      });
    case 'avatar':
      return answerSection(
        intent,
        form,
        avatarSchema,
        async ({ image }) => {
          await updateAvatar(database, createStorage(config), user.id, Buffer.from(await image.arrayBuffer()));
          return backTo(request, 'avatar', 'avatar');
        },
        ['image'],
      );
    case 'avatar-remove':
      return answerSection(intent, form, z.object({}), async () => {
        await removeAvatar(database, createStorage(config), user.id);
        return backTo(request, 'avatar-removed', 'avatar');
      });
    case 'email':
      return answerSection(intent, form, changeEmailSchema, async ({ email }) => {
        await requestEmailChange(auth, database, user.id, email, meta);
        return backTo(request, 'email', 'email');
      });
    case 'password':
      return answerSection(
        intent,
        form,
        changePasswordSchema,
        async (value) => {
          const cookies = await changePassword(auth, database, user.id, value, meta);
          return backTo(request, 'password', 'password', cookies);
        },
        passwordFields,
      );
    case 'password-set':
      return answerSection(
        intent,
        form,
        setPasswordSchema,
        async (value) => {
          await setPassword(auth, database, user.id, value, meta);
          return backTo(request, 'password-set', 'password');
        },
        passwordFields,
      );
    case 'notifications':
      return answerSection(intent, form, notificationsSchema, async (value) => {
        await saveNotificationPreferences(database, user.id, value);
        return backTo(request, 'notifications', 'notifications');
      });
    case 'delete': {
      // The confirmation the account can give: its password, or the typed word without one.
      const remove = async (password?: string) => {
        const cookies = await deleteAccount(auth, database, createStorage(config), user.id, { password }, meta);
        return redirectWithCookies(`${localizePath('/', page)}?account-deleted=1`, cookies);
      };
      return (await accountHasPassword(database, user.id))
        ? answerSection(intent, form, deleteWithPasswordSchema, (v) => remove(v.password), ['password'])
        : answerSection(intent, form, deleteWithWordSchema, () => remove());
    }
  }
}

export const meta: Route.MetaFunction = routeMeta;
/** Personal data: never kept by a shared cache. */
export const headers: Route.HeadersFunction = (args) => {
  const headers = actionHeaders(args);
  headers.set('Cache-Control', 'private, no-cache');
  return headers;
};

export default function ProfileSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('profile');
  useAreaCatalogues('placing');
  const { locale, to } = useLocale();
  const location = useLocation();
  const { settings } = loaderData;
  const reply = actionData as ProfileActionData | undefined;
  /** The action's answer, for the section that was sent only. */
  const last = (...intents: ProfileIntent[]) => (reply && intents.includes(reply.result.section) ? reply : undefined);
  const since = dates(locale).month(settings.member_since);
  // Forms start afresh after every navigation (a success redirects), so typed passwords never linger.
  const key = location.key;
  return (
    <Stack gap="lg" maw={960} mx="auto">
      <Group gap="md" wrap="nowrap">
        <Avatar
          src={settings.image_small}
          alt=""
          name={settings.name}
          color="brand"
          variant="filled"
          size={64}
          radius="xl"
          aria-hidden
        />
        <Box miw={0}>
          <Title order={1} size="h2">
            {t('title')}
          </Title>
          <Text c="dimmed" size="sm" component="div">
            <MetaLine
              items={[
                { key: 'name', text: settings.name },
                { key: 'since', text: t('member-since', { date: since }) },
              ]}
            />
          </Text>
        </Box>
        <Group gap="xs" ms="auto" justify="flex-end">
          <Button component={Link} to={to('/profile/posts')} variant="light" radius="xl">
            {t('placing:mine.title')}
          </Button>
          {/* The member's favorites, with how many (on phones the header has no room for their link). */}
          <Button
            component={Link}
            to={to('/favorites')}
            variant="light"
            radius="xl"
            rightSection={
              <span data-testid="favorites-count">{numberFormat(locale).format(loaderData.favorites)}</span>
            }
          >
            {t('common:favorites-link')}
          </Button>
          <Button component={Link} to={to('/searches')} variant="default" radius="xl">
            {t('saved-searches')}
          </Button>
        </Group>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3 }} visibleFrom="md">
          <nav aria-label={t('nav-label')} className={classes.nav}>
            {SECTIONS.map((s) => (
              <MantineNavLink
                key={s}
                href={`#${s}`}
                label={t(`sections.${s}`)}
                className={classes.navLink}
                color={s === 'delete' ? 'red' : undefined}
              />
            ))}
          </nav>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack gap="lg">
            <ProfileSection
              key={`profile-${key}`}
              settings={settings}
              cities={loaderData.cities}
              reply={last('profile')}
            />
            <PackageSection
              packages={loaderData.packages}
              companyPackages={loaderData.companyPackages}
              allowance={loaderData.allowance}
            />
            <AvatarSection key={`avatar-${key}`} settings={settings} reply={last('avatar', 'avatar-remove')} />
            <EmailSection key={`email-${key}`} settings={settings} reply={last('email')} />
            <PhoneSection settings={settings} />
            <PasswordSection key={`password-${key}`} settings={settings} reply={last('password', 'password-set')} />
            <NotificationsSection
              key={`notifications-${key}`}
              settings={settings}
              preferences={loaderData.notifications}
              reply={last('notifications')}
            />
            <DeleteSection key={`delete-${key}`} settings={settings} reply={last('delete')} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
