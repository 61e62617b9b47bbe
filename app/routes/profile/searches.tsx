import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBellRinging, IconPencil, IconSearch, IconTrash } from '@tabler/icons-react';
import { data, Form, Link, redirect } from 'react-router';
import { z } from 'zod';
import { EmptyState } from '~/components/empty-state.tsx';
import { FormError } from '~/components/form-error.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { dates } from '~/lib/intl.ts';
import { routeMeta } from '~/lib/meta.ts';
import { PRIVATE_PAGE, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, services, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { ID_PARAMETER } from '~/lib/validation/id.ts';
import {
  ALERT_FREQUENCIES,
  type AlertFrequency,
  alertFrequency,
  savedSearchName,
} from '~/lib/validation/saved-search.ts';
import { useErrorWords } from '~/lib/validation/use-error-words.ts';
import {
  deleteSavedSearch,
  getSavedSearch,
  listSavedSearches,
  openSavedSearch,
  renameSavedSearch,
  SAVED_SEARCH_LIMIT,
  savedSearchPath,
  setSavedSearchFrequency,
} from '../../../server/domain/search/saved.ts';
import type { Route } from './+types/searches';

// `/searches` (docs/product/alerts.md, "The saved searches page"): the member's saved searches,
// each with its new ads since last opened, its alerts (instant, daily, off), open, rename and
// delete — every one a plain form that works without JavaScript; deleting asks first.

export const middleware = guards('auth');

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const searches = await listSavedSearches(services(context).database, user.id);
  const t = tFor(request);
  return data(
    {
      searches: searches.map((s) => ({
        id: s.id,
        name: s.name,
        frequency: s.frequency,
        created_at: s.created_at,
        news: s.new_results,
        exact: s.new_results_exact,
      })),
      limit: SAVED_SEARCH_LIMIT,
      meta: { title: t('alerts:title'), description: t('alerts:description'), noindex: true },
    },
    { headers: { 'Cache-Control': PRIVATE_PAGE } },
  );
}

const searchAction = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('open'), id: ID_PARAMETER }),
  z.object({ intent: z.literal('rename'), id: ID_PARAMETER, name: savedSearchName() }),
  z.object({ intent: z.literal('frequency'), id: ID_PARAMETER, frequency: alertFrequency() }),
  z.object({ intent: z.literal('delete'), id: ID_PARAMETER, confirmed: z.literal('1').optional() }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const locale = localeOf(request);
  const here = localizePath('/searches', locale);
  const form = await request.formData();
  const id = Number(form.get('id'));
  // Someone else's saved search is the domain's NotFound: the same 404 as a missing one.
  return formAction(
    form,
    searchAction,
    async (value) => {
      switch (value.intent) {
        case 'open': {
          const s = await openSavedSearch(db(context), user.id, value.id);
          const [path, query] = savedSearchPath(s).split('?');
          return redirect(`${encodeURI(localizePath(path as string, locale))}${query ? `?${query}` : ''}`);
        }
        case 'rename':
          await renameSavedSearch(db(context), user.id, value.id, value.name);
          return redirectWithFlash(here, 'search-renamed');
        case 'frequency':
          await setSavedSearchFrequency(db(context), user.id, value.id, value.frequency);
          return redirectWithFlash(here, 'search-frequency');
        case 'delete': {
          if (!value.confirmed) {
            // Without the confirmation nothing changes: the page asks first, with a form that confirms.
            const s = await getSavedSearch(db(context), user.id, value.id);
            return data({ confirm: { id: s.id, name: s.name } });
          }
          await deleteSavedSearch(db(context), user.id, value.id);
          return redirectWithFlash(here, 'search-deleted');
        }
      }
    },
    { invalid: 'bad-request', extra: { id: Number.isSafeInteger(id) ? id : null } },
  );
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = pageHeaders;

type Item = Route.ComponentProps['loaderData']['searches'][number];

function FrequencyForm({ item }: { item: Item }) {
  const { t } = useT('alerts');
  return (
    <Form method="post" aria-label={`${t('alerts')}: ${item.name}`}>
      <input type="hidden" name="intent" value="frequency" />
      <input type="hidden" name="id" value={item.id} />
      <Stack gap={4}>
        <Group gap={6} wrap="wrap" role="group" aria-label={t('alerts')}>
          <Text size="sm" fw={600} me={4}>
            {t('alerts')}
          </Text>
          {ALERT_FREQUENCIES.map((f: AlertFrequency) => (
            <Button
              key={f}
              type="submit"
              name="frequency"
              value={f}
              size="compact-sm"
              h={44}
              px="md"
              radius="xl"
              variant={item.frequency === f ? 'filled' : 'default'}
              aria-pressed={item.frequency === f}
              data-testid={`frequency-${f}`}
            >
              {t(`frequencies.${f}`)}
            </Button>
          ))}
        </Group>
        <Text size="xs" c="dimmed">
          {t(`frequency-hints.${item.frequency}`)}
        </Text>
      </Stack>
    </Form>
  );
}

function SearchRow({ item, error }: { item: Item; error: string | null }) {
  const { t } = useT('alerts');
  const { locale } = useLocale();
  return (
    <li>
      <Card withBorder radius="lg" p="md" data-testid="saved-search">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
            <Stack gap={2} miw={0}>
              {/* The member's words keep their direction; the line follows the page's. */}
              <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
                <bdi dir="auto">{item.name}</bdi>
              </Title>
              <Text size="xs" c="dimmed">
                {t('saved-on', { date: dates(locale).date(item.created_at) })}
              </Text>
            </Stack>
            {item.news > 0 ? (
              <Badge
                color="brand"
                variant="filled"
                radius="xl"
                size="lg"
                style={{ flexShrink: 0 }}
                data-testid="new-count"
              >
                {item.exact ? t('new', { count: item.news }) : t('new-more', { count: item.news })}
              </Badge>
            ) : null}
          </Group>
          {item.news === 0 ? (
            <Text size="sm" c="dimmed">
              {t('no-new')}
            </Text>
          ) : null}
          <Form method="post">
            <input type="hidden" name="intent" value="open" />
            <input type="hidden" name="id" value={item.id} />
            <Button type="submit" radius="xl" mih={44} leftSection={<IconSearch size={18} aria-hidden />}>
              {t('open')}
              <span className="visually-hidden">: {item.name}</span>
            </Button>
          </Form>
          <FrequencyForm item={item} />
          <details open={error !== null}>
            <summary
              style={{
                minBlockSize: 44,
                display: 'flex',
                alignItems: 'center',
                gap: 8,
                cursor: 'pointer',
                color: 'var(--mantine-color-anchor)',
                fontWeight: 600,
              }}
            >
              <IconPencil size={18} aria-hidden />
              {t('rename')}
            </summary>
            <Form method="post">
              <input type="hidden" name="intent" value="rename" />
              <input type="hidden" name="id" value={item.id} />
              <Group align="flex-end" gap="xs" mt="xs">
                <TextInput
                  name="name"
                  label={t('name')}
                  defaultValue={item.name}
                  maxLength={120}
                  required
                  dir="auto"
                  error={error}
                  style={{ flex: 1, minInlineSize: 180 }}
                  size="md"
                />
                <Button type="submit" variant="light" radius="xl" mih={44}>
                  {t('save-name')}
                </Button>
              </Group>
            </Form>
          </details>
          <Form method="post">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={item.id} />
            <Button
              type="submit"
              variant="subtle"
              color="red"
              radius="xl"
              mih={44}
              leftSection={<IconTrash size={18} aria-hidden />}
            >
              {t('delete')}
              <span className="visually-hidden">: {item.name}</span>
            </Button>
          </Form>
        </Stack>
      </Card>
    </li>
  );
}

/** The confirmation step of deleting: the same post again, confirmed, or back. */
function ConfirmDelete({ id, name }: { id: number; name: string }) {
  const { t } = useT('alerts');
  const { to } = useLocale();
  return (
    <Alert color="red" role="alert" title={t('confirm.title')}>
      <Stack gap="sm">
        <Text dir="auto" fw={600}>
          {name}
        </Text>
        <Text size="sm">{t('confirm.body')}</Text>
        <Group gap="sm">
          <Form method="post">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={id} />
            <input type="hidden" name="confirmed" value="1" />
            <Button type="submit" color="red" radius="xl" mih={44}>
              {t('confirm.delete')}
            </Button>
          </Form>
          <Button component={Link} to={to('/searches')} variant="default" radius="xl" mih={44}>
            {t('confirm.cancel')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

export default function SearchesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('alerts');
  const { to } = useLocale();
  const { searches, limit } = loaderData;
  const confirm = actionData && 'confirm' in actionData ? actionData.confirm : null;
  const reply = actionData && 'result' in actionData ? actionData : null;
  const nameError = reply?.result.error?.name?.[0];
  const words = useErrorWords();
  const errorOf = (id: number) => (nameError && reply?.result.id === id ? words(nameError, 'name') : null);
  return (
    <Stack gap="lg" maw={760} mx="auto" w="100%">
      <Stack gap={2}>
        <Title order={1}>{t('title')}</Title>
        {searches.length > 0 ? (
          <Text c="dimmed" size="sm">
            {t('count', { count: searches.length, max: limit })}
          </Text>
        ) : null}
      </Stack>
      {confirm ? <ConfirmDelete {...confirm} /> : null}
      {reply?.formError ? <FormError code="bad-request" /> : null}
      {searches.length === 0 ? (
        <EmptyState
          icon={<IconBellRinging size={28} aria-hidden />}
          title={t('empty')}
          description={t('empty-hint')}
          action={{ label: t('browse'), to: to('/posts') }}
        />
      ) : (
        <Stack component="ul" gap="md" aria-label={t('list')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {searches.map((item) => (
            <SearchRow key={item.id} item={item} error={errorOf(item.id)} />
          ))}
        </Stack>
      )}
      {searches.length > 0 ? (
        <Anchor component={Link} to={to('/posts')} py={12}>
          {t('browse')}
        </Anchor>
      ) : null}
    </Stack>
  );
}
