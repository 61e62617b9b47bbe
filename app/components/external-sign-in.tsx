import { Button, Divider } from '@mantine/core';
import { IconLogin2 } from '@tabler/icons-react';
import { Form } from 'react-router';
import { useT } from '~/i18n/use-t.ts';

/**
 * "Continue with <provider>" above the login and register forms, only when an OpenID Connect
 * provider is configured. A plain form post (works without JavaScript): the page's action sends
 * the browser to the provider.
 */
export function ExternalSignIn({ provider, redirectTo }: { provider: string | null; redirectTo: string }) {
  const { t } = useT('auth');
  if (!provider) return null;
  return (
    <>
      <Form method="post">
        <input type="hidden" name="intent" value="oidc" />
        <input type="hidden" name="redirect" value={redirectTo} />
        <Button
          type="submit"
          variant="default"
          size="md"
          radius="xl"
          fullWidth
          leftSection={<IconLogin2 aria-hidden />}
        >
          {t('external.continue', { name: provider })}
        </Button>
      </Form>
      <Divider label={t('external.or')} labelPosition="center" />
    </>
  );
}
