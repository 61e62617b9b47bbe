import { AppShell, Container } from '@mantine/core';
import { isRouteErrorResponse, type MetaFunction, Outlet } from 'react-router';
import { ErrorPage } from '~/components/error-page.tsx';
import { BottomNav } from './bottom-nav.tsx';
import classes from './layouts.module.css';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

/** Default layout: header (logo, search, place your ad, language, colour mode), page, footer; bottom nav on phones. */
export function DefaultFrame({ children }: { children: React.ReactNode }) {
  return (
    <AppShell header={{ height: { base: 112, sm: 68 } }} padding={0}>
      <SiteHeader />
      <AppShell.Main className={classes.main}>
        <Container size="lg" px={{ base: 'sm', sm: 'md' }} py="md">
          {children}
        </Container>
      </AppShell.Main>
      <SiteFooter />
      <BottomNav />
    </AppShell>
  );
}

/** Pages set their own title; this one is used when the layout shows an error instead. */
export const meta: MetaFunction = ({ error, matches }) => {
  const root = matches[0]?.loaderData as
    | { siteTitle: string; errorTitles: { notFound: string; other: string } }
    | undefined;
  if (!error || !root) return [];
  const title =
    isRouteErrorResponse(error) && error.status === 404 ? root.errorTitles.notFound : root.errorTitles.other;
  return [{ title: `${title} | ${root.siteTitle}` }, { name: 'robots', content: 'noindex' }];
};

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
