import { Container, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './layouts.module.css';

export const INFO_PAGES = ['about', 'faq', 'support', 'contact', 'terms', 'privacy'] as const;

export function SiteFooter() {
  const { t } = useTranslation();
  const { to } = useLocale();
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <Stack gap="sm">
          <nav aria-label={t('footer.nav-label')}>
            <Group gap="lg" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {INFO_PAGES.map((page) => (
                <li key={page}>
                  <Link to={to(`/${page}`)} className={classes.footerLink}>
                    {t(`footer.${page}`)}
                  </Link>
                </li>
              ))}
            </Group>
          </nav>
          <Text size="sm" c="dimmed">
            {t('footer.tagline')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('footer.copyright', { year: new Date().getFullYear() })}
          </Text>
        </Stack>
      </Container>
    </footer>
  );
}
