import './styles/fonts.css';
import './styles/mantine.ts';
import './styles/global.css';
import './styles/tap-targets.css';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from 'react-router';
import { ErrorPage } from '~/components/error-page.tsx';
import { FlashToast } from '~/components/flash-toast.tsx';
import { ChatsCount, MemberCounters } from '~/components/layouts/site-header.tsx';
import { PageLoadBar } from '~/components/progress-bar.tsx';
import { VersionWatcher } from '~/components/version-watcher.tsx';
import { localeDirs, localeOfPath, localeTags } from '~/i18n/config.ts';
import { colorModeManager, colorModeScript, forcedColorMode } from '~/lib/color-mode.ts';
import { CLEAR_FLASH, hasFlashCookie, readFlash } from '~/lib/flash.server.ts';
import { useNonce } from '~/lib/nonce.tsx';
import { useMemberRealtime } from '~/lib/realtime/use-member-realtime.ts';
import { refuseUnreadableBody, services, tFor } from '~/lib/route.server.ts';
import { currentUser } from '~/lib/session.server.ts';
import { BRAND_COLOR, THEME_CSS, theme } from '~/lib/theme.ts';
import { countUnreadChats } from '../server/domain/chats/chats.ts';
import { countUnread } from '../server/domain/notifications.ts';
import { browserRealtimeConfig } from '../server/realtime/browser-config.ts';
import type { Route } from './+types/root';
import digitsFont from './styles/fonts/inter-digits-punctuation.woff2?url';
import latinFont from './styles/fonts/inter-latin.woff2?url';
import arabicFont from './styles/fonts/noto-sans-arabic.woff2?url';

/**
 * A request that carries a flash message (app/lib/flash.server.ts) gets a private answer: the
 * message is this visitor's, no shared cache may keep the page it is shown on.
 */
const privateWithFlash: Route.MiddlewareFunction = async ({ request }, next) => {
  if (!hasFlashCookie(request)) return next();
  const response = await next();
  if (response instanceof Response) response.headers.set('Cache-Control', 'private, no-store');
  return response;
};

/** Before any loader or action of any page. */
export const middleware: Route.MiddlewareFunction[] = [refuseUnreadableBody, privateWithFlash];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { config } = services(context);
  const locale = localeOfPath(url.pathname);
  // A completed action's message, shown once: read here, cleared in the same answer.
  const flash = readFlash(request);
  const headers: HeadersInit = hasFlashCookie(request) ? { 'Set-Cookie': CLEAR_FLASH } : {};
  // Members only (their pages are never shared: app/lib/page-cache.ts): the header's unread counters
  // and where the realtime client connects. A visitor's render asks the database nothing more.
  const user = await currentUser(request, context);
  if (user) await Promise.all([MemberCounters.preload(), ChatsCount.preload()]);
  const member = user
    ? {
        unread: await countUnread(services(context).database.db, user.id),
        unreadChats: await countUnreadChats(services(context).database.db, user.id),
        realtime: browserRealtimeConfig(config.realtime),
      }
    : null;
  return data(
    {
      flash,
      locale,
      origin: config.appUrl ?? url.origin,
      mapTileUrl: config.mapTileUrl,
      siteTitle: tFor(request)('common:site-title'),
      user: user ? { id: user.id, name: user.name, image: user.image } : null,
      /** The member's unread notifications (the header's bell), updated live by the realtime client. */
      unread: member?.unread ?? null,
      /** The member's chats holding unread messages (the header's chats link), updated live too. */
      unreadChats: member?.unreadChats ?? null,
      realtime: member?.realtime ?? null,
      errorTitles: {
        notFound: tFor(request)('common:error-page.page-not-found'),
        forbidden: tFor(request)('common:error-page.forbidden'),
        other: tFor(request)('common:error-page.internal-server-error'),
      },
    },
    { headers },
  );
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
  const flash = useRouteLoaderData<typeof loader>('root')?.flash ?? null;
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
        {/* The page's language's font, and Inter's digits and punctuation, which every page writes
            (prices, counts, the footer's year) in both languages from that one file (app/styles/fonts.css).
            English pages write Arabic too (the language switch's "العربية"), so they preload the Arabic
            font as well: found by layout, it came a round trip late (docs/performance.md, "Fonts"). */}
        {[...(locale === 'ar' ? [arabicFont] : [latinFont, arabicFont]), digitsFont].map((href) => (
          <link key={href} rel="preload" as="font" type="font/woff2" href={href} crossOrigin="" />
        ))}
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
            <FlashToast flash={flash} />
          </MantineProvider>
        </DirectionProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  // After hydration, for members: the realtime client (loaded then, never in the first load).
  useMemberRealtime(loaderData.user?.id ?? null, loaderData.realtime);
  useEffect(() => {
    // Marks the page interactive (tests and scripts wait for it).
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
