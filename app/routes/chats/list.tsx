import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { IconArchive, IconMessageCircleOff } from '@tabler/icons-react';
import { data, Link, useNavigation, useRevalidator } from 'react-router';
import { ChatRows } from '~/components/chats/chat-rows.tsx';
import classes from '~/components/chats/chats.module.css';
import { EmptyState } from '~/components/empty-state.tsx';
import { useT } from '~/i18n/use-t.ts';
import { guards } from '~/lib/guards.server.ts';
import { parseId } from '~/lib/ids.ts';
import { routeMeta } from '~/lib/meta.ts';
import { PRIVATE_PAGE, pageHeaders } from '~/lib/page-cache.ts';
import { CHAT_MESSAGE, CHAT_READ } from '~/lib/realtime/events.ts';
import { useUserEvent } from '~/lib/realtime/state.ts';
import { db, notFound, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { listChats } from '../../../server/domain/chats/chats.ts';
import type { Route } from './+types/list';

// `/chats` (docs/product/chats.md, "The list"): the member's conversations, the latest first, 20 a
// page (keyset: `?before=<last message id>`); `?archived=1` the archived ones. Each row: the ad's
// photo and title, the other side, the last message and when, the unread count. The list follows
// new messages and reads without a reload.

export const middleware = guards('auth');

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const archivedParam = url.searchParams.get('archived');
  if (archivedParam !== null && archivedParam !== '1') throw notFound(request);
  const beforeParam = url.searchParams.get('before');
  const before = beforeParam === null ? null : parseId(beforeParam);
  if (beforeParam !== null && before === null) throw notFound(request);
  const archived = archivedParam === '1';
  const page = await listChats(db(context), user.id, { archived, before });
  const t = tFor(request);
  return data(
    {
      items: page.items,
      next: page.next,
      before,
      archived,
      now: new Date().toISOString(),
      meta: { title: t('chats:title'), description: t('chats:description'), noindex: true },
    },
    { headers: { 'Cache-Control': PRIVATE_PAGE } },
  );
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = pageHeaders;

export default function ChatsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT('chats');
  const { to } = useLocale();
  const { items, next, before, archived, now } = loaderData;
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  // A message arrives or a chat is read elsewhere: show the list as it is now (not while this tab
  // navigates, whose own loaders bring it).
  const refresh = () => {
    if (revalidator.state === 'idle' && navigation.state === 'idle') void revalidator.revalidate();
  };
  useUserEvent(CHAT_MESSAGE, refresh);
  useUserEvent(CHAT_READ, refresh);
  const base = to('/chats');
  const here = archived ? `${base}?archived=1` : base;
  return (
    <Stack gap="md" className={classes.page}>
      <Title order={1}>{t('title')}</Title>
      <nav aria-label={t('tabs')} className={classes.tabs}>
        <Link to={base} className={classes.tab} aria-current={archived ? undefined : 'page'}>
          {t('inbox')}
        </Link>
        <Link to={`${base}?archived=1`} className={classes.tab} aria-current={archived ? 'page' : undefined}>
          {t('archived')}
        </Link>
      </nav>
      {items.length === 0 && before === null ? (
        archived ? (
          <EmptyState
            icon={<IconArchive size={28} aria-hidden />}
            title={t('empty-archived')}
            description={t('empty-archived-hint')}
          />
        ) : (
          <EmptyState
            icon={<IconMessageCircleOff size={28} aria-hidden />}
            title={t('empty')}
            description={t('empty-hint')}
            action={{ label: t('empty-action'), to: to('/posts') }}
          />
        )
      ) : (
        <ChatRows items={items} now={now} label={t('list')} />
      )}
      {next !== null || before !== null ? (
        <Group justify="space-between">
          {before !== null ? (
            <Anchor component={Link} to={here} className={classes.tap}>
              {t('newest')}
            </Anchor>
          ) : (
            <span />
          )}
          {next !== null ? (
            <Anchor component={Link} to={`${here}${archived ? '&' : '?'}before=${next}`} className={classes.tap}>
              {t('older-chats')}
            </Anchor>
          ) : null}
        </Group>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('start.hint')}
      </Text>
    </Stack>
  );
}
