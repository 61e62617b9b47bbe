import { Anchor, Card, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { ColorModeSwitch } from './color-mode-switch.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import classes from './layouts.module.css';
import { Logo } from './site-header.tsx';

/** Simple layout (login, register, account pages): a centred card under the logo. */
export function SimpleFrame({ children }: { children: ReactNode }) {
  const { t } = useT();
  const { to } = useLocale();
  return (
    <main className={classes.simple}>
      <Stack w="100%" maw={440} gap="md">
        <Group justify="space-between">
          <Logo />
          <Group gap={6}>
            <LanguageSwitch />
            <ColorModeSwitch />
          </Group>
        </Group>
        <Card withBorder radius="lg" padding="xl" shadow="sm">
          {children}
        </Card>
        <Anchor component={Link} to={to('/')} size="sm" ta="center">
          {t('back-home')}
        </Anchor>
      </Stack>
    </main>
  );
}

export default function SimpleLayout() {
  return (
    <SimpleFrame>
      <Outlet />
    </SimpleFrame>
  );
}
