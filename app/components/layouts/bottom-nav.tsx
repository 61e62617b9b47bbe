import { IconCirclePlus, IconHome, IconMessageCircle, IconSearch, IconUser } from '@tabler/icons-react';
import { NavLink } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './layouts.module.css';

/** Phones: home, search, place ad, chats, profile at the thumb's reach. */
export function BottomNav() {
  const { t } = useT();
  const { to } = useLocale();
  const items = [
    { path: '/', label: t('nav.home'), icon: IconHome, end: true },
    { path: '/posts', label: t('nav.search'), icon: IconSearch },
    { path: '/place-your-ad', label: t('nav.place-ad'), icon: IconCirclePlus, place: true },
    { path: '/chats', label: t('nav.chats'), icon: IconMessageCircle },
    { path: '/profile', label: t('nav.profile'), icon: IconUser },
  ];
  return (
    <nav className={classes.bottomNav} aria-label={t('nav.label')}>
      {items.map((item) => (
        <NavLink
          key={item.path}
          to={to(item.path)}
          end={item.end}
          className={`${classes.bottomNavItem} ${item.place ? classes.bottomNavPlace : ''}`}
        >
          <item.icon size={item.place ? 28 : 22} aria-hidden />
          <span>{item.label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
