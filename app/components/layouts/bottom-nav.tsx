import { IconCirclePlus, IconHome, IconMessageCircle, IconSearch, IconUser } from '@tabler/icons-react';
import { NavLink } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { CountBadge, useUnreadChats } from './chats-link.tsx';
import classes from './layouts.module.css';

/** Phones: home, search, place ad, chats, profile at the thumb's reach. */
export function BottomNav() {
  const { t } = useT();
  const { to } = useLocale();
  const unreadChats = useUnreadChats() ?? 0;
  const items = [
    { path: '/', label: t('nav.home'), icon: IconHome, end: true },
    { path: '/posts', label: t('nav.search'), icon: IconSearch },
    { path: '/place-your-ad', label: t('nav.place-ad'), icon: IconCirclePlus, place: true },
    { path: '/chats', label: t('nav.chats'), icon: IconMessageCircle, count: unreadChats },
    { path: '/profile', label: t('nav.profile'), icon: IconUser },
  ];
  return (
    <nav className={classes.bottomNav} aria-label={t('nav.label')}>
      {items.map((item) => (
        <NavLink
          key={item.path}
          to={to(item.path)}
          end={item.end}
          aria-label={item.count ? t('chats-link.unread', { count: item.count }) : undefined}
          data-count={item.count}
          className={`${classes.bottomNavItem} ${item.place ? classes.bottomNavPlace : ''}`}
        >
          <span className={classes.bottomNavIcon}>
            <item.icon size={item.place ? 28 : 22} aria-hidden />
            {item.count ? <CountBadge count={item.count} className={classes.bottomNavCount} /> : null}
          </span>
          <span>{item.label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
