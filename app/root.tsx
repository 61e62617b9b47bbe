import './styles/fonts.css';
import '@mantine/core/styles.css';
import '@mantine/nprogress/styles.css';
import './styles/global.css';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { ErrorPage } from '~/components/error-page.tsx';
import { PageLoadBar } from '~/components/progress-bar.tsx';
import { VersionWatcher } from '~/components/version-watcher.tsx';
import { localeDirs, localeOfPath, localeTags } from '~/i18n/config.ts';
import { colorModeManager, colorModeScript, forcedColorMode } from '~/lib/color-mode.ts';
import { useNonce } from '~/lib/nonce.tsx';
import { refuseUnreadableBody, services, tFor } from '~/lib/route.server.ts';
import { currentUser } from '~/lib/session.server.ts';
import { BRAND_COLOR, THEME_CSS, theme } from '~/lib/theme.ts';
import type { Route } from './+types/root';
import latinFont from './styles/fonts/inter-latin.woff2?url';
import arabicFont from './styles/fonts/noto-sans-arabic.woff2?url';

/** Before any loader or action of any page. */
export const middleware: Route.MiddlewareFunction[] = [refuseUnreadableBody];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { config } = services(context);
  const locale = localeOfPath(url.pathname);
  return {
    locale,
    origin: config.appUrl ?? url.origin,
    mapTileUrl: config.mapTileUrl,
    siteTitle: tFor(request)('common:site-title'),
    user: await currentUser(request, context).then((u) => (u ? { name: u.name, image: u.image } : null)),
    errorTitles: {
      notFound: tFor(request)('errors:page-not-found'),
      forbidden: tFor(request)('errors:forbidden'),
      other: tFor(request)('errors:internal-server-error'),
    },
  };
}

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'apple-touch-icon', href: '/images/apple-touch-icon.png' },
  { rel: 'manifest', href: '/site.webmanifest' },
];

const colorManager = colorModeManager();

export function Layout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const nonce = useNonce();
  const forced = forcedColorMode(useMatches().map((m) => m.handle));
  return (
    <html
      lang={localeTags[locale]}
      dir={localeDirs[locale]}
      data-mantine-color-scheme={forced ?? 'light'}
      data-forced-color-mode={forced}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={BRAND_COLOR} />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: colorModeScript }} />
        <link
          rel="preload"
          as="font"
          type="font/woff2"
          href={locale === 'ar' ? arabicFont : latinFont}
          crossOrigin=""
        />
        <Meta />
        <Links />
        <style
          data-mantine-styles
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: THEME_CSS }}
        />
      </head>
      <body>
        <DirectionProvider initialDirection={localeDirs[locale]} detectDirection={false}>
          <MantineProvider
            theme={theme}
            withCssVariables={false}
            colorSchemeManager={colorManager}
            defaultColorScheme="auto"
            forceColorScheme={forced}
            getStyleNonce={() => nonce ?? ''}
          >
            <PageLoadBar />
            <VersionWatcher />
            {children}
          </MantineProvider>
        </DirectionProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useEffect(() => {
    // Marks the page interactive (tests and scripts wait for it).
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
