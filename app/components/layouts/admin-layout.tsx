import { AppShell, Burger, Group, NavLink as MantineNavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import { ErrorPage } from '~/components/error-page.tsx';
import { useT } from '~/i18n/use-t.ts';
import { adminScreensFor } from '~/lib/admin-nav.ts';
import { guards } from '~/lib/guards.server.ts';
import { errorMeta } from '~/lib/meta.ts';
import { currentUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { StaffUser } from '../../../server/domain/access.ts';
import type { Route } from './+types/admin-layout';
import { AccountButton } from './account-button.tsx';
import { ColorModeSwitch } from './color-mode-switch.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import classes from './layouts.module.css';
import { Logo, MemberCounters } from './site-header.tsx';

/** Admin layout: sidebar with only the screens this staff member may open, and a top bar. */
export function AdminFrame({ user, children }: { user: StaffUser; children: ReactNode }) {
  const { t } = useT();
  const { to } = useLocale();
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('admin.menu')} />
            <Logo />
            <Text fw={600} c="dimmed" visibleFrom="xs">
              {t('admin.title')}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap">
            <LanguageSwitch />
            <ColorModeSwitch />
            {/* A phone's top bar has room for the language, the colours and the account only. */}
            <Group gap={6} wrap="nowrap" visibleFrom="sm">
              <Suspense fallback={null}>
                <MemberCounters />
              </Suspense>
            </Group>
            <AccountButton />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('admin.menu')}>
        <ScrollArea>
          {adminScreensFor(user).map((screen) => (
            <MantineNavLink
              key={screen.path}
              component={NavLink}
              to={to(screen.path)}
              end={screen.path === '/admin'}
              label={t(`admin.nav.${screen.key}`)}
              className={classes.adminNavLink}
              onClick={close}
            />
          ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}

/** Staff only: visitors go to the login page, members get 404 (the back office is not revealed). */
export const middleware = guards('admin');

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await currentUser(request, context);
  return { staff: { is_super_admin: user?.is_super_admin ?? false, permissions: user?.permissions ?? [] } };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminFrame user={loaderData.staff}>
      <Outlet />
    </AdminFrame>
  );
}

export const meta: Route.MetaFunction = errorMeta;

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
