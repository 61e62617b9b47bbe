import { ActionIcon } from '@mantine/core';
import { Link, useRouteLoaderData } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';

/**
 * The header's link to the member's favorites (docs/product/favorites.md), beside the bell: members
 * only (a visitor's header has none; their hearts lead to the login page). No count: the page says.
 * Not on phones, where the row has no room left at 360 and 390 px (the bell and log-out keep it):
 * there the account page (the bottom navigation's "My account") leads to the favorites.
 */
export function FavoritesLink() {
  const { t } = useT();
  const { to } = useLocale();
  const root = useRouteLoaderData('root') as { user: unknown } | undefined;
  if (!root?.user) return null;
  return (
    <ActionIcon
      component={Link}
      to={to('/favorites')}
      variant="default"
      size={44}
      radius="xl"
      visibleFrom="sm"
      aria-label={t('favorites-link')}
      title={t('favorites-link')}
      data-testid="favorites-link"
    >
      {/* The hearts' outline (app/components/ads/favorite-button.tsx), drawn here: importing it would
          split that module into a chunk of its own on every page. */}
      <svg viewBox="0 0 24 24" width={20} height={20} fill="none" stroke="currentColor" strokeWidth={2} aria-hidden>
        <path d="M12 20s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7a4.3 4.3 0 0 1 7.5 2.8C19.5 15.4 12 20 12 20z" />
      </svg>
    </ActionIcon>
  );
}
