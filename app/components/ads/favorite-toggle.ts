// A member's tap on a heart (./favorite-button.tsx), loaded at the first tap: the hearts of the ad
// turn at once (./favorite-turned.ts), then the API saves or removes it (docs/api.md: POST
// /api/favorites, DELETE /api/favorites/{id}, with the anti-forgery token). A refusal or a lost
// connection turns them back and answers why (the API's words, in the page's language); a session
// that ended goes to the login page and back.
import type { Locale } from '~/i18n/config.ts';
import { apiErrorText, goToLogin, XSRF_HEADER, xsrfToken } from '~/lib/api-client.ts';
import { FAVORITE_TURNED, type FavoriteTurned } from './favorite-turned.ts';

const tell = (detail: FavoriteTurned) => window.dispatchEvent(new CustomEvent(FAVORITE_TURNED, { detail }));

/** Saves (`on`) or removes the ad; resolves with null once done, else with the words of why not. */
export async function turnFavorite(ad: number, on: boolean, locale: Locale, failed: string): Promise<string | null> {
  tell({ ad, on });
  const send = async (fresh: boolean) =>
    fetch(on ? '/api/favorites' : `/api/favorites/${ad}`, {
      method: on ? 'POST' : 'DELETE',
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-Locale': locale,
        [XSRF_HEADER]: await xsrfToken(fresh),
      },
      body: on ? JSON.stringify({ ad_id: ad }) : undefined,
    });
  try {
    let res = await send(false);
    // A stale anti-forgery token: a fresh one, once.
    if (res.status === 419) res = await send(true);
    if (res.ok) return null;
    tell({ ad, on: !on });
    if (res.status === 401) {
      goToLogin(locale);
      return null;
    }
    return apiErrorText(await res.json().catch(() => null)) ?? failed;
  } catch {
    tell({ ad, on: !on });
    return failed;
  }
}
