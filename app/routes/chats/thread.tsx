import { randomUUID } from 'node:crypto';
import { Alert, Anchor, Button, FileInput, Group, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconArrowLeft, IconDotsVertical, IconPaperclip, IconSend, IconWifiOff } from '@tabler/icons-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { data, Form, Link, redirect, useFetcher, useNavigation } from 'react-router';
import { z } from 'zod';
import { usePrice } from '~/components/ads/ad-parts.tsx';
import { AdThumb, MessageItem } from '~/components/chats/chat-parts.tsx';
import { ChatRows } from '~/components/chats/chat-rows.tsx';
import classes from '~/components/chats/chats.module.css';
import { useLiveThread } from '~/components/chats/use-live-thread.ts';
import { FormError } from '~/components/form-error.tsx';
import { MemberAvatar } from '~/components/member-avatar.tsx';
import { useDates } from '~/components/relative-time.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { type BodyLimitHandle, UPLOAD_FRAMING_BYTES } from '~/lib/body-limit.ts';
import { CHAT_IMAGE_MAX_BYTES, CHAT_MESSAGE_MAX, CHAT_REPORT_REASONS } from '~/lib/chats.ts';
import { type FlashCode, redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { parseId } from '~/lib/ids.ts';
import { routeMeta } from '~/lib/meta.ts';
import { PRIVATE_PAGE, pageHeaders } from '~/lib/page-cache.ts';
import { CHAT_MESSAGE, CHAT_READ } from '~/lib/realtime/events.ts';
import { useUserEvent } from '~/lib/realtime/state.ts';
import { db, localeOf, notFound, pathId, requestInfo, services, tFor } from '~/lib/route.server.ts';
import { requireUser } from '~/lib/session.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import {
  chatMessageSchema,
  chatOfferSchema,
  chatPhotoSchema,
  chatReportSchema,
  offerAnswerSchema,
} from '~/lib/validation/chats.ts';
import { useErrorWords } from '~/lib/validation/use-error-words.ts';
import { type ChatListPage, isChatMember, listChats, loadThread } from '../../../server/domain/chats/chats.ts';
import {
  blockChatMember,
  reportChatMember,
  setChatArchived,
  unblockChatMember,
} from '../../../server/domain/chats/members.ts';
import { answerOffer, markChatRead, sendImage, sendMessage } from '../../../server/domain/chats/messages.ts';
import { createStorage } from '../../../server/media/storage.ts';
import type { Route } from './+types/thread';
import type { loader as listLoader } from './list.tsx';

// A chat thread, `/chats/{id}` (docs/product/chats.md, "The thread"): the other member (online,
// typing, last seen), the ad, the messages (the newest 50; `?before=` older ones), the composer
// (text, photo, the buyer's offer), the seller's answers to offers, the chat's options (archive,
// block, report). Opening it reads it. Every form posts here and works without JavaScript
// (post/redirect/get); with JavaScript the thread is live and messages go through the API with an
// idempotency key, queued while offline (app/components/chats/use-live-thread.ts).

export const middleware = guards('auth');

/** A photo of the largest size accepted, answered with a field error beyond it. */
export const handle = {
  bodyLimit: CHAT_IMAGE_MAX_BYTES + UPLOAD_FRAMING_BYTES,
  answersOversizedBody: true,
} satisfies BodyLimitHandle;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const id = pathId(request, params.id);
  const param = new URL(request.url).searchParams.get('before');
  const before = param === null ? null : parseId(param);
  if (param !== null && before === null) throw notFound(request);
  // Opening the thread reads it (someone else's chat is the domain's NotFound: 404).
  if (before === null) await markChatRead(db(context), user.id, id);
  const [thread, inbox] = await Promise.all([
    loadThread(db(context), user.id, id, { before }),
    listChats(db(context), user.id, { archived: false, before: null }),
  ]);
  const t = tFor(request);
  const name = thread.other?.name ?? t('chats:former-member');
  return data(
    {
      thread,
      inbox: { items: inbox.items, next: inbox.next },
      userId: user.id,
      before,
      clientKey: randomUUID(),
      now: new Date().toISOString(),
      meta: { title: t('chats:thread-title', { name, title: thread.ad.title }), noindex: true },
    },
    { headers: { 'Cache-Control': PRIVATE_PAGE } },
  );
}

const simpleIntents = ['archive', 'unarchive', 'block', 'unblock'] as const;

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const id = pathId(request, params.id);
  const here = localizePath(`/chats/${id}`, localeOf(request));
  const back = () => redirect(here, 303);
  // Someone else's chat (or none) is 404 whatever was sent, as its page is.
  if (!(await isChatMember(db(context), user.id, id))) throw notFound(request);
  if (requestInfo(context).bodyTooLarge) {
    // Only a photo can be this large; nothing was read, nothing changes.
    return data(
      { result: { status: 'error' as const, error: { image: ['image-too-large'] } }, formError: undefined },
      { status: 422 },
    );
  }
  const form = await request.formData();
  const intent = form.get('intent');
  const database = db(context);
  switch (intent) {
    case 'send':
      return formAction(form, chatMessageSchema, async (v) => {
        await sendMessage(
          database,
          { chatId: id, senderId: user.id, clientKey: v.client_key },
          { kind: 'text', body: v.body },
        );
        return back();
      });
    case 'offer':
      return formAction(form, chatOfferSchema, async (v) => {
        await sendMessage(
          database,
          { chatId: id, senderId: user.id, clientKey: v.client_key },
          { kind: 'offer', amount: v.amount },
        );
        return back();
      });
    case 'photo':
      return formAction(
        form,
        chatPhotoSchema(CHAT_IMAGE_MAX_BYTES),
        async (v) => {
          const bytes = Buffer.from(await v.image.arrayBuffer());
          await sendImage(
            database,
            createStorage(services(context).config),
            { chatId: id, senderId: user.id, clientKey: v.client_key },
            bytes,
            v.body,
          );
          return back();
        },
        { hideFields: ['image'] },
      );
    case 'answer-offer':
      return formAction(
        form,
        offerAnswerSchema,
        async (v) => {
          await answerOffer(database, { chatId: id, userId: user.id, messageId: v.message_id, decision: v.decision });
          return back();
        },
        { invalid: 'bad-request' },
      );
    case 'report':
      return formAction(
        form,
        chatReportSchema,
        async (v) => {
          await reportChatMember(database, user.id, id, v);
          return redirectWithFlash(here, 'chat-reported');
        },
        { invalid: 'bad-request' },
      );
  }
  const simple = z.enum(simpleIntents).safeParse(intent);
  if (!simple.success) throw new Response(null, { status: 400, statusText: 'Bad Request' });
  const flash: Record<(typeof simpleIntents)[number], FlashCode> = {
    archive: 'chat-archived',
    unarchive: 'chat-unarchived',
    block: 'chat-blocked',
    unblock: 'chat-unblocked',
  };
  if (simple.data === 'archive' || simple.data === 'unarchive') {
    await setChatArchived(database, user.id, id, simple.data === 'archive');
    // Archived: back to the list, where the chat no longer is.
    const list = localizePath('/chats', localeOf(request));
    return redirectWithFlash(simple.data === 'archive' ? list : here, flash[simple.data]);
  }
  if (simple.data === 'block') await blockChatMember(database, user.id, id);
  else await unblockChatMember(database, user.id, id);
  return redirectWithFlash(here, flash[simple.data]);
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = pageHeaders;

type Thread = Route.ComponentProps['loaderData']['thread'];

/** "Online", "Typing…" or "Last seen 5 minutes ago" under the other member's name. */
function StatusLine({
  online,
  typing,
  lastSeen,
  now,
}: {
  online: boolean;
  typing: boolean;
  lastSeen: string | null;
  now: string;
}) {
  const { t } = useT('chats');
  const dates = useDates();
  const text = typing
    ? t('typing')
    : online
      ? t('online')
      : lastSeen
        ? t('last-seen', { time: dates.relative(lastSeen, now) })
        : '';
  return (
    <div
      className={classes.status}
      data-live={typing || online || undefined}
      aria-live="polite"
      data-testid="chat-status"
    >
      {text}
    </div>
  );
}

function ChatOptions({ thread }: { thread: Thread }) {
  const { t } = useT('chats');
  const other = thread.other;
  const option = (intent: string, label: string) => (
    <Form method="post" key={intent}>
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" variant="subtle" h={44} fullWidth justify="flex-start">
        {label}
      </Button>
    </Form>
  );
  return (
    <details className={classes.details}>
      <summary aria-label={t('actions.menu')} title={t('actions.menu')}>
        <IconDotsVertical size={22} aria-hidden style={{ marginInline: 11 }} />
      </summary>
      <Stack gap={0} mt="xs">
        {thread.me.archived ? option('unarchive', t('actions.unarchive')) : option('archive', t('actions.archive'))}
        {other
          ? thread.reply === 'blocked-by-me'
            ? option('unblock', t('actions.unblock'))
            : option('block', t('actions.block'))
          : null}
      </Stack>
    </details>
  );
}

function ReportForm() {
  const { t } = useT('chats');
  return (
    <details className={classes.details}>
      <summary>
        <Text span size="sm" c="dimmed">
          {t('report.title')}
        </Text>
      </summary>
      <Form method="post">
        <input type="hidden" name="intent" value="report" />
        <Stack gap="xs">
          <Radio.Group name="reason" label={t('report.reason')} required>
            <Stack gap={4} mt={4}>
              {CHAT_REPORT_REASONS.map((reason) => (
                <Radio
                  key={reason}
                  value={reason}
                  label={t(`report.reasons.${reason}`)}
                  styles={{ body: { minBlockSize: 44, alignItems: 'center' } }}
                />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea name="note" label={t('report.note')} maxLength={1000} autosize minRows={2} dir="auto" />
          <Group>
            <Button type="submit" color="red" variant="light" radius="xl" h={44}>
              {t('report.send')}
            </Button>
          </Group>
        </Stack>
      </Form>
    </details>
  );
}

export default function ThreadPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('chats');
  const { to, locale } = useLocale();
  const price = usePrice();
  const navigation = useNavigation();
  const { thread, userId, before, clientKey, now } = loaderData;
  const open = thread.reply === 'open';
  const live = useLiveThread({
    chatId: thread.id,
    userId,
    otherId: thread.other?.id ?? null,
    locale,
    initial: thread.messages,
    otherLastRead: thread.other?.last_read_message_id ?? 0,
    open,
  });
  const name = thread.other?.name ?? t('former-member');
  const adPath = to(`/${thread.ad.taxonomy_slug}/${thread.ad.category_slug}/${thread.ad.slug}-${thread.ad.id}`);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // The connection was up once and is not now: a quiet hint (docs/product/chats.md, "Live").
  const connectedOnce = useRef(false);
  if (live.connection === 'connected') connectedOnce.current = true;
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    const update = () => setOffline(!navigator.onLine);
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  const reconnecting = !offline && connectedOnce.current && live.connection !== 'connected';

  // The newest message in view: on arrival and after sending.
  const end = useRef<HTMLDivElement>(null);
  const count = live.messages.length + live.pending.length;
  useEffect(() => {
    if (before === null && count > 0) end.current?.scrollIntoView({ block: 'end' });
  }, [count, before]);

  const [text, setText] = useState('');
  const submitText = (event: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    const body = text.trim();
    if (!body) return;
    live.send({ kind: 'text', body });
    setText('');
  };
  const [amount, setAmount] = useState('');
  const submitOffer = (event: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    const value = Number(amount.replace(/[\s,٬]/g, '').replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x660)));
    if (!Number.isSafeInteger(value) || value < 1) {
      (event.currentTarget.elements.namedItem('amount') as HTMLInputElement | null)?.focus();
      return;
    }
    live.send({ kind: 'offer', amount: value });
    setAmount('');
    (event.currentTarget.closest('details') as HTMLDetailsElement | null)?.removeAttribute('open');
  };
  const [photo, setPhoto] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const submitPhoto = (event: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    if (!photo) return;
    live.send({ kind: 'image', file: photo, body: caption.trim() || undefined });
    setPhoto(null);
    setCaption('');
    (event.currentTarget.closest('details') as HTMLDetailsElement | null)?.removeAttribute('open');
  };

  const result = actionData && 'result' in actionData ? actionData.result : undefined;
  const errorWords = useErrorWords();
  const fieldError = (field: string) => {
    const code = (result?.error as Record<string, string[] | undefined> | undefined)?.[field]?.[0];
    return code ? errorWords(code, field) : undefined;
  };
  const formError = actionData && 'formError' in actionData ? actionData.formError : undefined;
  const busy = navigation.state === 'submitting';
  const lastSeen = live.leftAt ?? thread.other?.last_seen_at ?? null;
  const seen = (id: number) => id <= live.otherRead;

  return (
    <div className={classes.split}>
      <InboxColumn initial={loaderData.inbox} current={thread.id} now={now} />
      <Stack gap="sm" className={classes.page}>
        <div className={classes.head}>
          <Anchor component={Link} to={to('/chats')} aria-label={t('back')} title={t('back')} className={classes.tap}>
            <IconArrowLeft size={22} aria-hidden style={{ transform: locale === 'ar' ? 'scaleX(-1)' : undefined }} />
          </Anchor>
          <MemberAvatar name={name} src={thread.other?.image} size={40} />
          <div className={classes.headText}>
            <Text fw={700} component="h1" size="lg" m={0} truncate>
              <bdi>{name}</bdi>
            </Text>
            <StatusLine online={live.online} typing={live.typing} lastSeen={lastSeen} now={now} />
          </div>
          <ChatOptions thread={thread} />
        </div>
        <Link to={adPath} className={classes.adStrip} aria-label={`${t('view-ad')}: ${thread.ad.title}`}>
          <AdThumb photo={thread.ad.photo} />
          <Stack gap={0} style={{ minInlineSize: 0, flex: 1 }}>
            <Text size="sm" fw={600} dir="auto" truncate>
              {thread.ad.title}
            </Text>
            <Text size="sm" c="brand" fw={700}>
              {price(thread.ad)}
              {thread.ad.status !== 'published' ? (
                <Text span size="xs" c="dimmed" fw={400}>
                  {' · '}
                  {t(`ads:status.${thread.ad.status}`)}
                </Text>
              ) : null}
            </Text>
          </Stack>
        </Link>
        {offline ? (
          <Text size="sm" c="dimmed" role="status" data-testid="connection-hint">
            <IconWifiOff size={14} aria-hidden /> {t('offline')}
          </Text>
        ) : reconnecting ? (
          <Text size="sm" c="dimmed" role="status" data-testid="connection-hint">
            {t('reconnecting')}
          </Text>
        ) : null}
        {thread.older !== null ? (
          <Anchor component={Link} to={`${to(`/chats/${thread.id}`)}?before=${thread.older}`} className={classes.tap}>
            {t('older')}
          </Anchor>
        ) : null}
        <ul className={classes.messages} aria-label={t('messages')} data-testid="chat-messages">
          {live.messages.map((m) => (
            <MessageItem
              key={m.id}
              message={m}
              mine={m.sender_id === userId}
              seen={seen(m.id)}
              answerable={thread.role === 'seller' && open}
            />
          ))}
          {live.pending.map((p) => (
            <MessageItem
              key={p.key}
              message={{
                id: p.key,
                kind: p.kind,
                body: p.body ?? null,
                image: null,
                offer:
                  p.kind === 'offer' ? { amount: p.amount ?? 0, currency: thread.ad.currency, status: null } : null,
                flags: [],
                created_at: p.created_at,
              }}
              mine
              seen={false}
              answerable={false}
              delivery={p.status}
              error={p.error}
              actions={
                p.status === 'failed' ? (
                  <>
                    <Button variant="subtle" size="compact-xs" h={44} onClick={() => live.retry(p.key)}>
                      {t('retry')}
                    </Button>
                    <Button variant="subtle" size="compact-xs" h={44} color="gray" onClick={() => live.discard(p.key)}>
                      {t('discard')}
                    </Button>
                  </>
                ) : null
              }
            />
          ))}
        </ul>
        <div ref={end} />
        {before !== null ? (
          <Anchor component={Link} to={to(`/chats/${thread.id}`)} className={classes.tap}>
            {t('back')}
          </Anchor>
        ) : null}
        <FormError code={formError} />
        {thread.reply === 'blocked' ? (
          <Alert color="gray" role="status" data-testid="cant-reply">
            {t('reply.blocked')}
          </Alert>
        ) : thread.reply === 'closed' ? (
          <Alert color="gray" role="status">
            {t('reply.closed')}
          </Alert>
        ) : thread.reply === 'blocked-by-me' ? (
          <Alert color="gray" role="status">
            <Group justify="space-between" gap="xs">
              <span>{t('reply.blocked-by-me', { name })}</span>
              <Form method="post">
                <input type="hidden" name="intent" value="unblock" />
                <Button type="submit" variant="light" h={44} radius="xl">
                  {t('reply.unblock')}
                </Button>
              </Form>
            </Group>
          </Alert>
        ) : (
          <div className={classes.composer} id="composer">
            <Form method="post" onSubmit={submitText}>
              <input type="hidden" name="intent" value="send" />
              <input type="hidden" name="client_key" value={clientKey} />
              <div className={classes.composerRow}>
                <Textarea
                  name="body"
                  aria-label={t('composer.label')}
                  placeholder={t('composer.placeholder')}
                  value={hydrated ? text : undefined}
                  defaultValue={hydrated ? undefined : ''}
                  onChange={(e) => {
                    setText(e.currentTarget.value);
                    live.typed();
                  }}
                  onKeyDown={(e) => {
                    // Enter sends; Shift+Enter starts a new line.
                    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                      e.preventDefault();
                      e.currentTarget.form?.requestSubmit();
                    }
                  }}
                  maxLength={CHAT_MESSAGE_MAX}
                  autosize
                  minRows={1}
                  maxRows={6}
                  dir="auto"
                  style={{ flex: 1 }}
                  error={fieldError('body')}
                />
                <Button
                  type="submit"
                  radius="xl"
                  h={44}
                  w={44}
                  p={0}
                  aria-label={t('composer.send')}
                  title={t('composer.send')}
                  loading={busy && navigation.formData?.get('intent') === 'send'}
                >
                  <IconSend size={20} aria-hidden style={{ transform: locale === 'ar' ? 'scaleX(-1)' : undefined }} />
                </Button>
              </div>
            </Form>
            <details className={classes.details} open={!!(fieldError('image') || fieldError('amount')) || undefined}>
              <summary>
                <Text span size="sm" c="dimmed">
                  <IconPaperclip size={16} aria-hidden /> {t('composer.more')}
                </Text>
              </summary>
              <Stack gap="sm">
                <Form method="post" encType="multipart/form-data" onSubmit={submitPhoto}>
                  <input type="hidden" name="intent" value="photo" />
                  <input type="hidden" name="client_key" value={`${clientKey}-p`} />
                  <Stack gap="xs">
                    <FileInput
                      name="image"
                      accept="image/*"
                      label={t('composer.photo-field')}
                      placeholder={t('composer.photo')}
                      value={hydrated ? photo : undefined}
                      onChange={setPhoto}
                      error={fieldError('image')}
                      clearable
                    />
                    <TextInput
                      name="body"
                      label={t('composer.caption')}
                      value={hydrated ? caption : undefined}
                      onChange={(e) => setCaption(e.currentTarget.value)}
                      maxLength={CHAT_MESSAGE_MAX}
                      dir="auto"
                    />
                    <Group>
                      <Button type="submit" variant="default" radius="xl" h={44}>
                        {t('composer.send-photo')}
                      </Button>
                    </Group>
                  </Stack>
                </Form>
                {thread.can_offer ? (
                  <Form method="post" onSubmit={submitOffer}>
                    <input type="hidden" name="intent" value="offer" />
                    <input type="hidden" name="client_key" value={`${clientKey}-o`} />
                    <Stack gap="xs">
                      <TextInput
                        name="amount"
                        inputMode="numeric"
                        label={t('composer.offer-amount', { currency: t(`ads:currency-short.${thread.ad.currency}`) })}
                        description={
                          thread.ad.price !== null ? t('composer.offer-hint', { price: price(thread.ad) }) : undefined
                        }
                        value={hydrated ? amount : undefined}
                        onChange={(e) => setAmount(e.currentTarget.value)}
                        error={fieldError('amount')}
                        dir="ltr"
                      />
                      <Group>
                        <Button type="submit" variant="default" radius="xl" h={44}>
                          {t('composer.send-offer')}
                        </Button>
                      </Group>
                    </Stack>
                  </Form>
                ) : null}
              </Stack>
            </details>
          </div>
        )}
        {thread.other ? <ReportForm /> : null}
      </Stack>
    </div>
  );
}

/**
 * Wide screens: the member's chats beside the thread, the open one marked (hidden on a phone,
 * where the list is its own page). It follows new messages and reads as the list page does.
 */
function InboxColumn({ initial, current, now }: { initial: ChatListPage; current: number; now: string }) {
  const { t } = useT('chats');
  const { to } = useLocale();
  const fetcher = useFetcher<typeof listLoader>();
  const refresh = () => {
    if (fetcher.state === 'idle') fetcher.load(to('/chats'));
  };
  useUserEvent(CHAT_MESSAGE, refresh);
  useUserEvent(CHAT_READ, refresh);
  const page = fetcher.data ?? initial;
  return (
    <aside className={classes.side} aria-label={t('list')} data-testid="chats-side">
      <Anchor component={Link} to={to('/chats')} fw={700} className={classes.tap}>
        {t('title')}
      </Anchor>
      <ChatRows items={page.items} now={now} current={current} label={t('list')} />
      {page.next !== null ? (
        <Anchor component={Link} to={`${to('/chats')}?before=${page.next}`} className={classes.tap}>
          {t('older-chats')}
        </Anchor>
      ) : null}
    </aside>
  );
}
