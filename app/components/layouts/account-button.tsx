import { ActionIcon, Group, Text } from '@mantine/core';
import { IconLogin2, IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Form, Link, useRouteLoaderData } from 'react-router';
import { useLocale } from '~/lib/use-locale.ts';

/** Header: the log-in button for visitors; the name and a log-out button for members. */
export function AccountButton() {
  const { t } = useTranslation();
  const { to } = useLocale();
  const root = useRouteLoaderData('root') as { user: { name: string } | null } | undefined;
  const user = root?.user;
  if (!user) {
    return (
      <ActionIcon
        component={Link}
        to={to('/login')}
        variant="default"
        size={44}
        radius="xl"
        aria-label={t('login')}
        title={t('login')}
      >
        <IconLogin2 size={20} aria-hidden className="mirror-rtl" />
      </ActionIcon>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <Text
        size="sm"
        fw={600}
        visibleFrom="sm"
        maw={140}
        truncate="end"
        dir="auto"
        title={t('auth:signed-in-as', { name: user.name })}
      >
        {user.name}
      </Text>
      <Form method="post" action={to('/logout')}>
        <ActionIcon
          type="submit"
          variant="default"
          size={44}
          radius="xl"
          aria-label={t('auth:logout')}
          title={t('auth:logout')}
        >
          <IconLogout size={20} aria-hidden className="mirror-rtl" />
        </ActionIcon>
      </Form>
    </Group>
  );
}
