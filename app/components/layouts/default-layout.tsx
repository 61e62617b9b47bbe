import { Container } from '@mantine/core';
import { type MetaFunction, Outlet, useMatches } from 'react-router';
import { ErrorPage } from '~/components/error-page.tsx';
import { errorMeta } from '~/lib/meta.ts';
import { BottomNav } from './bottom-nav.tsx';
import classes from './layouts.module.css';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

/** Default layout: header (logo, search, place your ad, language, colour mode), page, footer; bottom nav on phones. */
export function DefaultFrame({ children }: { children: React.ReactNode }) {
  // A page with a search box of its own (the home page, `handle.ownSearch`) drops the header's
  // phone search row: one search box on a phone screen, not two.
  const ownSearch = useMatches().some((m) => (m.handle as { ownSearch?: boolean } | undefined)?.ownSearch === true);
  // A fixed header over the page (layouts.module.css, `.frame`): plain elements rather than
  // Mantine's AppShell, which brought its scroll-lock library to every page's scripts.
  return (
    <div className={classes.frame} data-own-search={ownSearch || undefined}>
      <SiteHeader phoneSearch={!ownSearch} />
      <main className={classes.main}>
        <Container size="lg" px={{ base: 'sm', sm: 'md' }} py="md">
          {children}
        </Container>
      </main>
      <SiteFooter />
      <BottomNav />
    </div>
  );
}

/** Pages set their own title; this one is used when the layout shows an error instead. */
export const meta: MetaFunction = errorMeta;

export default function DefaultLayout() {
  return (
    <DefaultFrame>
      <Outlet />
    </DefaultFrame>
  );
}

export function ErrorBoundary({ error }: { error: unknown }) {
  return (
    <DefaultFrame>
      <ErrorPage error={error} />
    </DefaultFrame>
  );
}
