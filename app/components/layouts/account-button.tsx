import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { IconLogin2, IconLogout } from '@tabler/icons-react';
import { Form, Link, useRouteLoaderData } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { MemberAvatar } from '../member-avatar.tsx';

/**
 * Header: the log-in button for visitors; for members, their photo (or initials) and name linking
 * to the account settings, and a log-out button. On phones the photo is left out: the bottom
 * navigation's "My account" leads there, and the row keeps room for the notifications bell.
 */
export function AccountButton() {
  const { t } = useT();
  const { to } = useLocale();
  const root = useRouteLoaderData('root') as { user: { name: string; image?: string | null } | null } | undefined;
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
      <Button
        component={Link}
        to={to('/profile')}
        variant="subtle"
        color="gray"
        radius="xl"
        h={44}
        px={4}
        visibleFrom="sm"
        title={t('account.signed-in-as', { name: user.name })}
        leftSection={<MemberAvatar name={user.name} src={user.image} size={36} />}
        styles={{ section: { marginInlineEnd: 0 }, label: { gap: 8 } }}
      >
        <span className="visually-hidden">{t('account.settings')}</span>
        <Text component="span" size="sm" fw={600} visibleFrom="sm" maw={140} truncate="end" dir="auto" ms={8}>
          {user.name}
        </Text>
      </Button>
      <Form method="post" action={to('/logout')}>
        <ActionIcon
          type="submit"
          variant="default"
          size={44}
          radius="xl"
          aria-label={t('account.logout')}
          title={t('account.logout')}
        >
          <IconLogout size={20} aria-hidden className="mirror-rtl" />
        </ActionIcon>
      </Form>
    </Group>
  );
}
