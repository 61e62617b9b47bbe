import { ActionIcon } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { NOTIFICATION_CREATED, NOTIFICATION_READ } from '~/lib/realtime/events.ts';
import { useUserEvent } from '~/lib/realtime/state.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './notification-bell.module.css';

/** The count as the badge shows it: at most "99+". */
const shown = (count: number, format: (n: number) => string) => (count > 99 ? `${format(99)}+` : format(count));

/**
 * The header's bell for members (docs/product/accounts-and-roles.md, "Notifications"): a link to
 * /notifications with the unread count rendered by the server (root loader), then kept current by
 * the realtime client's events while the page is open (a new notification, some read in another tab).
 */
export function NotificationBell() {
  const { t } = useT();
  const { to, locale } = useLocale();
  const root = useRouteLoaderData('root') as { user: unknown; unread: number | null } | undefined;
  const loaded = root?.unread ?? 0;
  // A live count holds until the server's own count changes (a navigation reads the database anew).
  const [live, setLive] = useState<{ count: number; over: number } | null>(null);
  useUserEvent(NOTIFICATION_CREATED, (e) => setLive({ count: e.unread, over: loaded }));
  useUserEvent(NOTIFICATION_READ, (e) => setLive({ count: e.unread, over: loaded }));
  if (!root?.user) return null;
  const count = live && live.over === loaded ? live.count : loaded;
  const label = count > 0 ? t('bell.unread', { count }) : t('bell.label');
  return (
    <ActionIcon
      component={Link}
      to={to('/notifications')}
      variant="default"
      size={44}
      radius="xl"
      aria-label={label}
      title={label}
      className={classes.bell}
      data-testid="notification-bell"
      data-count={count}
    >
      <IconBell size={20} aria-hidden />
      {count > 0 ? (
        <span className={classes.count} aria-hidden>
          {/* "99+" keeps its order in Arabic too. */}
          <bdi dir="ltr">{shown(count, (n) => numberFormat(locale).format(n))}</bdi>
        </span>
      ) : null}
    </ActionIcon>
  );
}
