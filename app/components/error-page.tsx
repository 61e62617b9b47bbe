import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useLocation } from 'react-router';
import { localeOfPath, localizePath } from '~/i18n/config.ts';

/** The error page (seed §2): code, 'Page Not Found' or 'Internal Server Error', a description, a way home. */
export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation('errors');
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const notFound = status === 404;
  if (!notFound && !isRouteErrorResponse(error)) console.error(error);
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <Text fz={72} fw={800} c="brand" lh={1} aria-hidden>
          {status}
        </Text>
        <Title order={1}>{notFound ? t('page-not-found') : t('internal-server-error')}</Title>
        <Text c="dimmed" maw={460}>
          {notFound ? t('page-not-found-description') : t('internal-server-error-description')}
        </Text>
        <Button component={Link} to={localizePath('/', locale)} size="md" reloadDocument={!notFound}>
          {t('go-home')}
        </Button>
      </Stack>
    </Container>
  );
}
