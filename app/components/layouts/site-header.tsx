import { Button } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Suspense } from 'react';
import { Form, Link, useRouteLoaderData, useSearchParams } from 'react-router';
import { SuggestInput } from '~/components/search/suggest-input.tsx';
import { useT } from '~/i18n/use-t.ts';
import { lazyComponent } from '~/lib/lazy-component.tsx';
import { useLocale } from '~/lib/use-locale.ts';
import { AccountButton } from './account-button.tsx';
import { ColorModeSwitch } from './color-mode-switch.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import classes from './layouts.module.css';

/**
 * The chats link and the notifications bell with their live counts, for members only: loaded after
 * the page, so no visitor's page carries them; the root loader preloads them on the server for a
 * member, so they are in the HTML and work before the script.
 */
export const MemberCounters = lazyComponent(() => import('./member-counters.tsx'));
/** The bottom navigation's Chats count, from the same module. */
export const ChatsCount = lazyComponent<{ className: string }>(async () => ({
  default: (await import('./member-counters.tsx')).ChatsBadge,
}));

export function Logo() {
  const { t } = useT();
  const { to } = useLocale();
  return (
    <Link to={to('/')} className={classes.logo} aria-label={t('home-link')}>
      <span className={classes.logoMark} aria-hidden />
      <span>{t('site-name')}</span>
    </Link>
  );
}

export function SearchBox({ size = 'md', id = 'site-search' }: { size?: 'md' | 'lg'; id?: string }) {
  const { t } = useT();
  const { to } = useLocale();
  // On a results page the box shows what was searched (a new search starts from it).
  const [params] = useSearchParams();
  const current = params.get('q') ?? '';
  return (
    <Form method="get" action={to('/posts')} role="search" className={classes.search} key={current}>
      <label htmlFor={id} className="visually-hidden">
        {t('search.label')}
      </label>
      <div className={classes.searchField} data-size={size}>
        <SuggestInput
          id={id}
          defaultValue={current}
          className={classes.searchInput}
          placeholder={t('search.placeholder')}
          enterKeyHint="search"
        />
        <button type="submit" className={classes.searchButton} aria-label={t('search.submit')}>
          <IconSearch size={18} aria-hidden />
        </button>
      </div>
    </Form>
  );
}

/** `phoneSearch`: the search row of its own on phones (off on pages with their own search box). */
export function SiteHeader({ phoneSearch = true }: { phoneSearch?: boolean }) {
  const { t } = useT();
  const { to } = useLocale();
  const member = !!(useRouteLoaderData('root') as { user: unknown } | undefined)?.user;
  return (
    // `right-scroll-bar-position`: while a Mantine modal locks the page's scroll (react-remove-scroll),
    // the fixed header keeps its place where the scroll bar was.
    <header className={`${classes.header} right-scroll-bar-position`}>
      <div className={classes.headerRow}>
        <Logo />
        <div className={classes.headerSearch}>
          <SearchBox />
        </div>
        <div className={classes.headerActions}>
          <Button
            component={Link}
            to={to('/place-your-ad')}
            leftSection={<IconPlus size={18} aria-hidden />}
            radius="xl"
            visibleFrom="sm"
          >
            {t('place-your-ad')}
          </Button>
          <LanguageSwitch />
          <ColorModeSwitch />
          {member ? (
            <Suspense fallback={null}>
              <MemberCounters />
            </Suspense>
          ) : null}
          <AccountButton />
        </div>
      </div>
      {phoneSearch ? (
        <div className={classes.headerSearchPhone}>
          <SearchBox id="site-search-mobile" />
        </div>
      ) : null}
    </header>
  );
}
