// The rows of a member's chats (docs/product/chats.md, "The list"): the ad's photo and title, the
// other side, the last message and when, the unread count. The list page shows them; on a wide
// screen the thread shows them beside it, the open chat marked.
import { Link } from 'react-router';
import { AdThumb, useMessagePreview } from '~/components/chats/chat-parts.tsx';
import { RelativeTime } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import { numberFormat } from '~/lib/intl.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { ChatListItem } from '../../../server/domain/chats/chats.ts';
import classes from './chats.module.css';

export function ChatRows({
  items,
  now,
  current,
  label,
}: {
  items: readonly ChatListItem[];
  now: string;
  /** The open chat's id, marked as the current page. */
  current?: number;
  label: string;
}) {
  const { t } = useT('chats');
  const { to, locale } = useLocale();
  const preview = useMessagePreview();
  const count = numberFormat(locale);
  return (
    <ul className={classes.list} aria-label={label}>
      {items.map((chat) => {
        const name = chat.other?.name ?? t('former-member');
        return (
          <li key={chat.id} className={classes.item} data-unread={chat.unread > 0 || undefined} data-testid="chat-row">
            <Link
              to={to(`/chats/${chat.id}`)}
              className={classes.row}
              aria-current={chat.id === current ? 'page' : undefined}
            >
              <AdThumb photo={chat.ad.photo} />
              <span className={classes.rowBody}>
                <span className={classes.rowTop}>
                  <span className={classes.name}>
                    <bdi>{name}</bdi>
                  </span>
                  {chat.last ? (
                    <span className={classes.time}>
                      <RelativeTime iso={chat.last.created_at} now={now} />
                    </span>
                  ) : null}
                </span>
                <span className={classes.adTitle} dir="auto">
                  {chat.ad.title}
                </span>
                <span className={classes.preview} dir="auto">
                  {chat.last ? preview(chat.last) : t('preview.none')}
                </span>
              </span>
              {chat.unread > 0 ? (
                <span className={classes.unread} title={t('unread', { count: chat.unread })}>
                  <bdi dir="ltr" aria-hidden>
                    {count.format(chat.unread)}
                  </bdi>
                  <span className="visually-hidden">{t('unread', { count: chat.unread })}</span>
                </span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
