import { ActionIcon } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { CHAT_MESSAGE, CHAT_READ } from '~/lib/realtime/events.ts';
import { useUserEvent } from '~/lib/realtime/state.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './notification-bell.module.css';

/** The count as the badge shows it: at most "99+". */
const shown = (count: number, format: (n: number) => string) => (count > 99 ? `${format(99)}+` : format(count));

/**
 * The member's count of chats holding unread messages (null for a visitor): the root loader's,
 * then the realtime client's while the page is open.
 */
export function useUnreadChats(): number | null {
  const root = useRouteLoaderData('root') as { user: unknown; unreadChats: number | null } | undefined;
  const loaded = root?.unreadChats ?? 0;
  // A live count holds until the server's own count changes (a navigation reads the database anew).
  const [live, setLive] = useState<{ count: number; over: number } | null>(null);
  useUserEvent(CHAT_MESSAGE, (e) => setLive({ count: e.unread, over: loaded }));
  useUserEvent(CHAT_READ, (e) => setLive({ count: e.unread, over: loaded }));
  if (!root?.user) return null;
  return live && live.over === loaded ? live.count : loaded;
}

/** A count badge: at most "99+", which keeps its order in Arabic too. */
export function CountBadge({ count, className }: { count: number; className?: string }) {
  const { locale } = useLocale();
  return (
    <span className={className ?? classes.count} aria-hidden>
      <bdi dir="ltr">{shown(count, (n) => numberFormat(locale).format(n))}</bdi>
    </span>
  );
}

/**
 * The header's chats link for members (docs/product/chats.md, "Header"): a link to /chats with the
 * number of chats holding unread messages, rendered by the server (root loader), then kept current
 * by the realtime client's events while the page is open (a message arrives, a chat is read in
 * another tab). The same badge as the notifications bell; no code beyond it on a visitor's page.
 */
export function ChatsLink() {
  const { t } = useT();
  const { to } = useLocale();
  const count = useUnreadChats();
  if (count === null) return null;
  const label = count > 0 ? t('chats-link.unread', { count }) : t('chats-link.label');
  return (
    <ActionIcon
      component={Link}
      to={to('/chats')}
      variant="default"
      size={44}
      radius="xl"
      aria-label={label}
      title={label}
      className={classes.bell}
      // Phones have the bottom navigation's chats item, with the same count.
      visibleFrom="sm"
      data-testid="chats-link"
      data-count={count}
    >
      <IconMessageCircle size={20} aria-hidden />
      {count > 0 ? <CountBadge count={count} /> : null}
    </ActionIcon>
  );
}
