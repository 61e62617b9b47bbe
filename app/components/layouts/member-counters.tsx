import { ActionIcon } from '@mantine/core';
import { IconBell, IconMessageDots } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { CHAT_MESSAGE, CHAT_READ, NOTIFICATION_CREATED, NOTIFICATION_READ } from '~/lib/realtime/events.ts';
import { useUserEvent } from '~/lib/realtime/state.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { FavoritesLink } from './favorites-link.tsx';
import classes from './member-counters.module.css';

// The members' live counters, loaded after the page for members only (visitors' pages never fetch
// them; app/components/layouts/site-header.tsx): the header's favorites link (no count), chats link (docs/product/chats.md,
// "Header") and notifications bell (docs/product/accounts-and-roles.md, "Notifications"), and the
// count on the bottom navigation's Chats item on phones. Each count is the root loader's (`unread`,
// `unreadChats`), then the realtime client's events' while the page is open.

type Root = { user: unknown; unread: number | null; unreadChats: number | null } | undefined;

/** The member's count (null for a visitor): the root loader's, then the events' while the page is open. */
function useLiveCount(key: 'unread' | 'unreadChats'): number | null {
  const root = useRouteLoaderData('root') as Root;
  const loaded = root?.[key] ?? 0;
  // A live count holds until the server's own count changes (a navigation reads the database anew).
  const [live, setLive] = useState<{ count: number; over: number } | null>(null);
  const hear = (e: { unread: number }) => setLive({ count: e.unread, over: loaded });
  useUserEvent(key === 'unread' ? NOTIFICATION_CREATED : CHAT_MESSAGE, hear);
  useUserEvent(key === 'unread' ? NOTIFICATION_READ : CHAT_READ, hear);
  if (!root?.user) return null;
  return live && live.over === loaded ? live.count : loaded;
}

/** A count badge: at most "99+", which keeps its order in Arabic too. */
function CountBadge({ count, className }: { count: number; className?: string }) {
  const { locale } = useLocale();
  const format = numberFormat(locale).format;
  return (
    <span className={className ?? classes.count} aria-hidden>
      <bdi dir="ltr">{count > 99 ? `${format(99)}+` : format(count)}</bdi>
    </span>
  );
}

function CounterLink(props: {
  path: string;
  count: number | null;
  icon: ReactNode;
  /** The catalogue keys of its words: `<prefix>.label`, `<prefix>.unread` (plural). */
  words: 'bell' | 'chats:header';
  testId: string;
  phones?: boolean;
}) {
  const { t } = useT();
  // The chats link's words are the chats catalogue's (loaded with this part, not with every page).
  useAreaCatalogues('chats');
  const { to } = useLocale();
  const { count } = props;
  if (count === null) return null;
  const label = count > 0 ? t(`${props.words}.unread`, { count }) : t(`${props.words}.label`);
  return (
    <ActionIcon
      component={Link}
      to={to(props.path)}
      variant="default"
      size={44}
      radius="xl"
      aria-label={label}
      title={label}
      className={classes.bell}
      visibleFrom={props.phones ? undefined : 'sm'}
      data-testid={props.testId}
      data-count={count}
    >
      {props.icon}
      {count > 0 ? <CountBadge count={count} /> : null}
    </ActionIcon>
  );
}

/** The bottom navigation's Chats count (phones), with its words for screen readers. */
export function ChatsBadge({ className }: { className: string }) {
  const { t } = useT('chats');
  const count = useLiveCount('unreadChats');
  if (!count) return null;
  return (
    <>
      <CountBadge count={count} className={className} />
      <span className="visually-hidden" data-testid="bottom-nav-chats-count">
        {t('header.badge', { count })}
      </span>
    </>
  );
}

export default function MemberCounters() {
  return (
    <>
      <FavoritesLink />
      <CounterLink
        path="/chats"
        count={useLiveCount('unreadChats')}
        icon={<IconMessageDots size={20} aria-hidden />}
        words="chats:header"
        testId="chats-link"
      />
      <CounterLink
        path="/notifications"
        count={useLiveCount('unread')}
        icon={<IconBell size={20} aria-hidden />}
        words="bell"
        testId="notification-bell"
        phones
      />
    </>
  );
}
