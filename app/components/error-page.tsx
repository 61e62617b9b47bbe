import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useLocation } from 'react-router';
import { localeOfPath, localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';

/** Title and description keys per status: 404, 403 (PRODUCT.md §1: a translated page), else 500. */
function wording(status: number): [string, string] {
  if (status === 404) return ['page-not-found', 'page-not-found-description'];
  if (status === 403) return ['forbidden', 'forbidden-description'];
  return ['internal-server-error', 'internal-server-error-description'];
}

/** The error page (seed §2): code, 'Page Not Found' or 'Internal Server Error', a description, a way home. */
export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useT('errors');
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const [title, description] = wording(status);
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <Text fz={72} fw={800} c="brand" lh={1} aria-hidden>
          {status}
        </Text>
        <Title order={1}>{t(title)}</Title>
        <Text c="dimmed" maw={460}>
          {t(description)}
        </Text>
        <Button component={Link} to={localizePath('/', locale)} size="md" reloadDocument={status >= 500}>
          {t('go-home')}
        </Button>
      </Stack>
    </Container>
  );
}
