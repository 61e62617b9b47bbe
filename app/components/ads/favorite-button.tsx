import { useEffect, useState } from 'react';
import { useLocation, useRouteLoaderData } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './favorite-button.module.css';
import { FAVORITE_TURNED, type FavoriteTurned } from './favorite-turned.ts';

/** A heart, outlined or filled (drawn here: a page of cards carries one icon module less). */
function Heart({ filled = false, size = 22 }: { filled?: boolean; size?: number }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={2}
      strokeLinejoin="round"
      aria-hidden
    >
      <path d="M12 20s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7a4.3 4.3 0 0 1 7.5 2.8C19.5 15.4 12 20 12 20z" />
    </svg>
  );
}

/**
 * The heart of an ad card and of the ad page (docs/product/favorites.md): a plain form posting to
 * `/favorites` (save or remove, then back to this page), so it works without JavaScript and renders
 * the same for every visitor of a shared page (`saved` is true only on members' own pages, which
 * are never cached). A visitor's form leads to the login page, coming back here. With JavaScript a
 * member's tap turns it at once and the API call goes in the background (./favorite-toggle.ts,
 * loaded at the first tap: none of it is in a page's first load); every heart of the ad on the page
 * follows, and a refusal turns it back with the reason beside it. Nothing else on the page reloads.
 */
export function FavoriteButton({
  adId,
  saved = false,
  onCard = false,
}: {
  adId: number;
  saved?: boolean;
  onCard?: boolean;
}) {
  const { t } = useT('ads');
  const { to, locale } = useLocale();
  const { pathname, search } = useLocation();
  const member = !!(useRouteLoaderData('root') as { user: unknown } | undefined)?.user;
  // Turned on this page, while the server's answer (`saved`) is still the one it was turned over.
  const [turned, setTurned] = useState<{ on: boolean; over: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const on = turned && turned.over === saved ? turned.on : saved;
  useEffect(() => {
    const heard = (event: Event) => {
      const { ad, on } = (event as CustomEvent<FavoriteTurned>).detail;
      if (ad === adId) setTurned({ on, over: saved });
    };
    window.addEventListener(FAVORITE_TURNED, heard);
    return () => window.removeEventListener(FAVORITE_TURNED, heard);
  }, [adId, saved]);
  const label = t(on ? 'favorite.remove' : 'favorite.add');
  return (
    <form
      method="post"
      action={to('/favorites')}
      className={onCard ? `${classes.form} ${classes.onCard}` : classes.form}
      onSubmit={(event) => {
        if (!member) return;
        event.preventDefault();
        setError(null);
        const failed = t('favorite.failed');
        void import('./favorite-toggle.ts').then((m) => m.turnFavorite(adId, !on, locale, failed)).then(setError);
      }}
    >
      <input type="hidden" name="intent" value={on ? 'remove' : 'add'} />
      <input type="hidden" name="ad" value={adId} />
      <input type="hidden" name="back" value={pathname + search} />
      <button type="submit" className={classes.heart} aria-pressed={on} aria-label={label}>
        <Heart filled={on} />
      </button>
      {error ? (
        <span role="status" className={classes.error}>
          {error}
        </span>
      ) : null}
    </form>
  );
}
