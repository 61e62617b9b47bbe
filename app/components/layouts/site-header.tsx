import { ActionIcon, AppShell, Button, Group, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Form, Link, useSearchParams } from 'react-router';
import { useLocale } from '~/lib/use-locale.ts';
import { AccountButton } from './account-button.tsx';
import { ColorModeSwitch } from './color-mode-switch.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import classes from './layouts.module.css';

export function Logo() {
  const { t } = useTranslation();
  const { to } = useLocale();
  return (
    <Link to={to('/')} className={classes.logo} aria-label={t('home-link')}>
      <img src="/favicon.svg" alt="" width={32} height={32} />
      <span>{t('site-name')}</span>
    </Link>
  );
}

export function SearchBox({ size = 'md', id = 'site-search' }: { size?: 'md' | 'lg'; id?: string }) {
  const { t } = useTranslation();
  const { to } = useLocale();
  // On a results page the box shows what was searched (a new search starts from it).
  const [params] = useSearchParams();
  const current = params.get('q') ?? '';
  return (
    <Form method="get" action={to('/posts')} role="search" className={classes.search} key={current}>
      <label htmlFor={id} className="visually-hidden">
        {t('search.label')}
      </label>
      <TextInput
        id={id}
        name="q"
        defaultValue={current}
        type="search"
        size={size}
        radius="xl"
        placeholder={t('search.placeholder')}
        enterKeyHint="search"
        rightSectionWidth={44}
        rightSection={
          <ActionIcon type="submit" variant="subtle" radius="xl" size={36} aria-label={t('search.submit')}>
            <IconSearch size={18} aria-hidden />
          </ActionIcon>
        }
      />
    </Form>
  );
}

export function SiteHeader() {
  const { t } = useTranslation();
  const { to } = useLocale();
  return (
    <AppShell.Header className={classes.header} px={{ base: 'sm', sm: 'md' }}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Logo />
        <Group visibleFrom="sm" style={{ flex: 1 }} justify="center">
          <SearchBox />
        </Group>
        <Group gap={6} wrap="nowrap">
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
          <AccountButton />
        </Group>
      </Group>
      <Group hiddenFrom="sm">
        <SearchBox id="site-search-mobile" />
      </Group>
    </AppShell.Header>
  );
}
