import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useLocation } from 'react-router';
import { localeOfPath, localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';

/** Title and description keys per status; a status without its own wording reads as a 500. */
const WORDING: Record<number, [string, string]> = {
  400: ['bad-request-title', 'bad-request-description'],
  403: ['forbidden', 'forbidden-description'],
  404: ['page-not-found', 'page-not-found-description'],
  405: ['bad-request-title', 'bad-request-description'],
  409: ['conflict-title', 'conflict-description'],
  413: ['request-too-large', 'request-too-large-description'],
  415: ['bad-request-title', 'bad-request-description'],
  422: ['invalid-title', 'invalid-description'],
  429: ['too-many-requests-title', 'too-many-requests-description'],
};
const wording = (status: number): [string, string] =>
  WORDING[status] ?? ['internal-server-error', 'internal-server-error-description'];

/**
 * The error page (docs/product/site.md): code, 'Page Not Found' or 'Internal Server Error', a
 * description, a way home.
 */
export function ErrorPage({ error }: { error: unknown }) {
  // The error page's words are in every page's catalogue (`common`), so it shows even when nothing
  // more can be loaded (offline, or the server down).
  const { t } = useT();
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
        <Title order={1}>{t(`error-page.${title}`)}</Title>
        <Text c="dimmed" maw={460}>
          {t(`error-page.${description}`)}
        </Text>
        <Button component={Link} to={localizePath('/', locale)} size="md" reloadDocument={status >= 500}>
          {t('error-page.go-home')}
        </Button>
      </Stack>
    </Container>
  );
}
