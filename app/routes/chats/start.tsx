import { randomUUID } from 'node:crypto';
import { Alert, Anchor, Button, Card, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { usePrice } from '~/components/ads/ad-parts.tsx';
import { AdThumb } from '~/components/chats/chat-parts.tsx';
import classes from '~/components/chats/chats.module.css';
import { FormError } from '~/components/form-error.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { CHAT_MESSAGE_MAX, QUICK_REPLIES } from '~/lib/chats.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { PRIVATE_PAGE, pageHeaders } from '~/lib/page-cache.ts';
import { db, localeOf, notFound, pathId, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { chatMessageSchema, chatOfferSchema } from '~/lib/validation/chats.ts';
import { useErrorWords } from '~/lib/validation/use-error-words.ts';
import { chatStartState, startChat } from '../../../server/domain/chats/chats.ts';
import type { Route } from './+types/start';

// `/chats/new/{ad id}` (docs/product/chats.md, "Starting a chat"): where the ad page's Chat button
// leads a buyer without a chat about the ad yet: quick questions (one tap each), their own words,
// or (on a live, priced ad) a price offer. The chat is made with that first message, then the
// browser is sent to it; a buyer who has one already is sent straight there. Plain forms: works
// without JavaScript; the page's idempotency key keeps a double tap to one message.

export const middleware = guards('auth');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const start = await chatStartState(db(context), user.id, pathId(request, params.ad));
  if (start.existing !== null) throw redirect(localizePath(`/chats/${start.existing}`, localeOf(request)));
  const t = tFor(request);
  const { ad } = start;
  return data(
    {
      ad: {
        id: ad.id,
        title: ad.title,
        slug: ad.slug,
        price: ad.price,
        currency: ad.currency,
        price_type: ad.price_type,
        photo: ad.photo,
        path: `/${ad.taxonomy_slug}/${ad.category_slug}/${ad.slug}-${ad.id}`,
      },
      refusal: start.refusal,
      canOffer: start.can_offer,
      clientKey: randomUUID(),
      meta: { title: t('chats:start.title'), noindex: true },
    },
    // A refused start says why, as a 403.
    { status: start.refusal ? 403 : 200, headers: { 'Cache-Control': PRIVATE_PAGE } },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const adId = pathId(request, params.ad);
  const form = await request.formData();
  const intent = form.get('intent');
  const go = (chatId: number) => redirect(localizePath(`/chats/${chatId}`, localeOf(request)), 303);
  if (intent === 'offer') {
    return formAction(form, chatOfferSchema, async (value) => {
      const sent = await startChat(
        db(context),
        { adId, buyerId: user.id, clientKey: value.client_key },
        { kind: 'offer', amount: value.amount },
      );
      return go(sent.message.chat_id);
    });
  }
  if (intent === 'send') {
    return formAction(form, chatMessageSchema, async (value) => {
      const sent = await startChat(
        db(context),
        { adId, buyerId: user.id, clientKey: value.client_key },
        { kind: 'text', body: value.body },
      );
      return go(sent.message.chat_id);
    });
  }
  throw notFound(request);
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = pageHeaders;

export default function StartChatPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('chats');
  const { to } = useLocale();
  const price = usePrice();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const { ad, refusal, canOffer, clientKey } = loaderData;
  const errorWords = useErrorWords();
  const fieldError = (field: string) => {
    const code = actionData?.result?.error?.[field]?.[0];
    return code ? errorWords(code, field) : undefined;
  };
  const typed = (actionData?.result?.initialValue as { body?: unknown } | undefined)?.body;
  return (
    <Stack gap="md" className={classes.page}>
      <Title order={1}>{t('start.title')}</Title>
      <Card withBorder radius="lg" p="sm">
        <Link to={to(ad.path)} className={classes.adStrip} style={{ border: 0 }}>
          <AdThumb photo={ad.photo} />
          <Stack gap={0} style={{ minInlineSize: 0 }}>
            <Text fw={600} dir="auto" lineClamp={2}>
              {ad.title}
            </Text>
            <Text c="brand" fw={700}>
              {price(ad)}
            </Text>
          </Stack>
        </Link>
      </Card>
      {refusal ? (
        <>
          <Alert color={refusal === 'own' ? 'blue' : 'red'} role="status">
            {t(`start.${refusal}`)}
          </Alert>
          <Group>
            <Anchor component={Link} to={to(ad.path)} className={classes.tap}>
              {t('start.back-to-ad')}
            </Anchor>
            <Anchor component={Link} to={to('/chats')} className={classes.tap}>
              {t('start.my-chats')}
            </Anchor>
          </Group>
        </>
      ) : (
        <>
          <FormError code={actionData?.formError} />
          <section aria-labelledby="quick-title">
            <Title order={2} size="h5" mb="xs" id="quick-title">
              {t('quick.title')}
            </Title>
            <Form method="post" className={classes.quick}>
              <input type="hidden" name="intent" value="send" />
              <input type="hidden" name="client_key" value={`${clientKey}-q`} />
              {QUICK_REPLIES.map((key) => (
                <Button
                  key={key}
                  type="submit"
                  name="body"
                  value={t(`quick.${key}`)}
                  variant="light"
                  radius="xl"
                  h={44}
                  disabled={busy}
                >
                  {t(`quick.${key}`)}
                </Button>
              ))}
            </Form>
          </section>
          <Form method="post">
            <input type="hidden" name="intent" value="send" />
            <input type="hidden" name="client_key" value={`${clientKey}-t`} />
            <Stack gap="xs">
              <Textarea
                name="body"
                label={t('start.write')}
                placeholder={t('composer.placeholder')}
                defaultValue={typeof typed === 'string' ? typed : undefined}
                maxLength={CHAT_MESSAGE_MAX}
                autosize
                minRows={3}
                maxRows={8}
                dir="auto"
                error={fieldError('body')}
              />
              <Group justify="flex-end">
                <Button
                  type="submit"
                  radius="xl"
                  h={44}
                  leftSection={<IconSend size={18} aria-hidden />}
                  loading={busy}
                >
                  {t('composer.send')}
                </Button>
              </Group>
            </Stack>
          </Form>
          {canOffer ? (
            <Form method="post">
              <input type="hidden" name="intent" value="offer" />
              <input type="hidden" name="client_key" value={`${clientKey}-o`} />
              <Stack gap="xs">
                <TextInput
                  name="amount"
                  inputMode="numeric"
                  label={t('composer.offer-amount', { currency: t(`ads:currency-short.${ad.currency}`) })}
                  description={ad.price !== null ? t('composer.offer-hint', { price: price(ad) }) : undefined}
                  error={fieldError('amount')}
                  dir="ltr"
                />
                <Group justify="flex-end">
                  <Button type="submit" variant="default" radius="xl" h={44} loading={busy}>
                    {t('composer.send-offer')}
                  </Button>
                </Group>
              </Stack>
            </Form>
          ) : null}
          <Text size="sm" c="dimmed">
            {t('start.hint')}
          </Text>
        </>
      )}
    </Stack>
  );
}
