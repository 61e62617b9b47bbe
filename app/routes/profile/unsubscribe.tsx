import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { IconMailOff } from '@tabler/icons-react';
import { data, Form, Link } from 'react-router';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, notFound, services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { emailsOn, readUnsubscribeToken, stopEmails } from '../../../server/domain/notification-mail/unsubscribe.ts';
import type { Route } from './+types/unsubscribe';

// `/unsubscribe/{token}` (docs/product/alerts.md, "Stopping emails"): the link at the foot of every
// notification mail. It works without signing in — the signed token says whose mails of which kind
// — and a visit changes nothing: the page asks, its button stops them (mail programs' one-click
// POST goes to `POST /api/unsubscribe/{token}` instead). A token that is not ours is 404; an
// expired one 410, with the way to the settings.

type State = 'ask' | 'already' | 'done' | 'expired';

/** What the token asks for, and the state of those mails now (404 when the token is not ours). */
async function read(request: Request, context: Route.LoaderArgs['context'], token: string) {
  const found = readUnsubscribeToken(services(context).config.authSecret, token);
  if (found === null) throw notFound(request);
  if (found === 'expired') return { state: 'expired' as State, request: null };
  const user = await db(context).selectFrom('users').select('id').where('id', '=', found.userId).executeTakeFirst();
  if (!user) throw notFound(request);
  const on = await emailsOn(db(context), found.userId, found.type);
  return { state: (on ? 'ask' : 'already') as State, request: found };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const t = tFor(request);
  const asked = await read(request, context, params.token);
  const meta = { title: t('alerts:unsubscribe.title'), noindex: true };
  return data(
    { state: asked.state, type: asked.request?.type ?? null, meta },
    { status: asked.state === 'expired' ? 410 : 200, headers: { 'Cache-Control': 'no-store' } },
  );
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const t = tFor(request);
  const asked = await read(request, context, params.token);
  const meta = { title: t('alerts:unsubscribe.title'), noindex: true };
  if (!asked.request) return data({ state: asked.state, type: null, meta }, { status: 410 });
  await stopEmails(db(context), asked.request);
  return data({ state: 'done' as State, type: asked.request.type, meta });
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function UnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  useAreaCatalogues('profile');
  const { t } = useT('alerts');
  const { to } = useLocale();
  const { state, type } = actionData ?? loaderData;
  const kind = type ? t(`profile:notifications.types.${type}`) : '';
  return (
    <Stack gap="md" align="center" ta="center">
      <IconMailOff size={40} aria-hidden />
      {state === 'expired' ? (
        <>
          <Title order={1} size="h2">
            {t('unsubscribe.expired-title')}
          </Title>
          <Text>{t('unsubscribe.expired-body')}</Text>
        </>
      ) : state === 'ask' ? (
        <>
          <Title order={1} size="h2">
            {t('unsubscribe.ask', { kind })}
          </Title>
          <Text>{t('unsubscribe.body')}</Text>
          <Form method="post">
            <Button type="submit" radius="xl" mih={44} color="red">
              {t('unsubscribe.button')}
            </Button>
          </Form>
        </>
      ) : (
        <Title order={1} size="h2" role="status">
          {state === 'done' ? t('unsubscribe.done', { kind }) : t('unsubscribe.already', { kind })}
        </Title>
      )}
      <Anchor component={Link} to={`${to('/profile')}#notifications`} py={12}>
        {t('unsubscribe.settings')}
      </Anchor>
    </Stack>
  );
}
