import { IconCirclePlus, IconHome, IconMessageCircle, IconSearch, IconUser } from '@tabler/icons-react';
import { Suspense } from 'react';
import { NavLink, useRouteLoaderData } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './layouts.module.css';
import { ChatsCount } from './site-header.tsx';

/** Phones: home, search, place ad, chats, profile at the thumb's reach. */
export function BottomNav() {
  const { t } = useT();
  const { to } = useLocale();
  const member = !!(useRouteLoaderData('root') as { user: unknown } | undefined)?.user;
  const items = [
    { path: '/', label: t('nav.home'), icon: IconHome, end: true },
    { path: '/posts', label: t('nav.search'), icon: IconSearch },
    { path: '/place-your-ad', label: t('nav.place-ad'), icon: IconCirclePlus, place: true },
    { path: '/chats', label: t('nav.chats'), icon: IconMessageCircle, count: member },
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
          <span className={classes.bottomNavIcon}>
            <item.icon size={item.place ? 28 : 22} aria-hidden />
            {item.count ? (
              <Suspense fallback={null}>
                <ChatsCount className={classes.bottomNavCount} />
              </Suspense>
            ) : null}
          </span>
          <span>{item.label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
