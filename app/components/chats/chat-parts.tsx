// Pieces of the chat pages (app/routes/chats/): a message as the thread shows it (text, photo,
// offer card with the seller's answer buttons, receipts, the safety tip beside a flagged message
// from the other side), the list's preview of a last message, and an ad's thumbnail.
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconShieldExclamation } from '@tabler/icons-react';
import { Form } from 'react-router';
import { useMoney } from '~/components/ads/ad-parts.tsx';
import { useT } from '~/i18n/use-t.ts';
import { dates } from '~/lib/intl.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { AdImageUrls } from '../../../server/domain/ad-images.ts';
import type { ChatMessageView } from '../../../server/domain/chats/view.ts';
import classes from './chats.module.css';

export type ChatMessage = ChatMessageView;

/** "40,000 د.ل" for an offer. */
export function useOfferAmount() {
  const money = useMoney();
  return (offer: { amount: number; currency: string }) =>
    money({ price: offer.amount, currency: offer.currency, price_type: 'fixed' });
}

/** The list's line for a chat's last message: its text, or what it is (a photo, an offer). */
export function useMessagePreview() {
  const { t } = useT('chats');
  const amount = useOfferAmount();
  return (last: Pick<ChatMessage, 'kind' | 'body' | 'offer'> & { mine: boolean }) => {
    const text =
      last.kind === 'text'
        ? (last.body ?? '')
        : last.kind === 'image'
          ? last.body || t('preview.image')
          : last.offer
            ? t(`preview.${last.kind}`, { amount: amount(last.offer) })
            : '';
    // The message keeps its own direction inside "You: …" (an English line in an Arabic page,
    // or the other way): first-strong isolate marks around it.
    return last.mine ? t('you', { text: `\u2068${text}\u2069` }) : text;
  };
}

/** An ad's first photo as a small 4:3 thumbnail (a grey box without one). */
export function AdThumb({ photo }: { photo: AdImageUrls | null }) {
  return photo ? (
    <img className={classes.thumb} src={photo.thumb} alt="" width={64} height={48} loading="lazy" />
  ) : (
    <span className={classes.thumb} aria-hidden />
  );
}

/** The tip beside a flagged message from the other side (docs/product/chats.md, "Safety"). */
export function SafetyTip({ flags }: { flags: ChatMessage['flags'] }) {
  const { t } = useT('chats');
  const flag = flags[0];
  if (!flag) return null;
  return (
    <Alert
      className={classes.tip}
      color="yellow"
      variant="light"
      p="xs"
      icon={<IconShieldExclamation size={18} aria-hidden />}
      data-testid="safety-tip"
    >
      <Text span fw={600} size="xs">
        {t('safety.label')}:{' '}
      </Text>
      {t(`safety.${flag}`)}
    </Alert>
  );
}

export type Delivery = 'queued' | 'sending' | 'failed';

/**
 * One message. `mine`: the member sent it (at the reading end, with its receipt: sent, seen).
 * `answer`: the seller may accept or decline this pending offer (forms posting to the thread).
 */
export function MessageItem({
  message,
  mine,
  seen,
  answerable,
  delivery,
  error,
  actions,
}: {
  message: Pick<ChatMessage, 'kind' | 'body' | 'image' | 'offer' | 'flags' | 'created_at'> & { id: number | string };
  mine: boolean;
  seen: boolean;
  answerable: boolean;
  delivery?: Delivery;
  error?: string;
  actions?: React.ReactNode;
}) {
  const { t } = useT('chats');
  const { locale } = useLocale();
  const amount = useOfferAmount();
  const time = dates(locale).time(message.created_at);
  let content: React.ReactNode;
  if (message.kind === 'offer' && message.offer) {
    const status = message.offer.status ?? 'pending';
    content = (
      <div className={classes.offer} data-testid="offer-card">
        <Text size="xs" c="dimmed" fw={600}>
          {t('offer.label')}
        </Text>
        <span className={classes.offerAmount}>
          <bdi>{amount(message.offer)}</bdi>
        </span>
        <Text size="sm">{t(`offer.${status}`)}</Text>
        {answerable && status === 'pending' && typeof message.id === 'number' ? (
          <Group gap="xs" mt={4}>
            {(['accept', 'decline'] as const).map((decision) => (
              <Form method="post" key={decision}>
                <input type="hidden" name="intent" value="answer-offer" />
                <input type="hidden" name="message_id" value={message.id} />
                <input type="hidden" name="decision" value={decision} />
                <Button
                  type="submit"
                  h={44}
                  radius="xl"
                  variant={decision === 'accept' ? 'filled' : 'default'}
                  color={decision === 'accept' ? 'brand' : undefined}
                >
                  {t(`offer.${decision}`)}
                </Button>
              </Form>
            ))}
          </Group>
        ) : null}
      </div>
    );
  } else if ((message.kind === 'offer-accepted' || message.kind === 'offer-declined') && message.offer) {
    content = (
      <Text fw={600}>
        {t(message.kind === 'offer-accepted' ? 'offer.answer-accepted' : 'offer.answer-declined', {
          amount: amount(message.offer),
        })}
      </Text>
    );
  } else if (message.kind === 'image' && message.image) {
    content = (
      <>
        <a href={message.image.large} target="_blank" rel="noreferrer" aria-label={t('open-photo')}>
          <img
            className={classes.photo}
            src={message.image.small}
            alt={message.body || t('photo-alt')}
            width={Math.min(message.image.width, 480)}
            height={Math.round(
              (Math.min(message.image.width, 480) / (message.image.width || 1)) * message.image.height,
            )}
            loading="lazy"
          />
        </a>
        {message.body ? <div dir="auto">{message.body}</div> : null}
      </>
    );
  } else {
    content = <div dir="auto">{message.body}</div>;
  }
  const state = delivery ? t(delivery === 'failed' ? 'failed' : 'queued') : mine ? t(seen ? 'seen' : 'sent') : null;
  return (
    <li
      className={classes.message}
      data-mine={mine || undefined}
      data-pending={delivery || undefined}
      data-testid="chat-message"
      data-kind={message.kind}
      data-delivery={delivery ?? (mine ? (seen ? 'seen' : 'sent') : undefined)}
    >
      <div className={classes.bubble}>{content}</div>
      <div className={classes.meta}>
        <time dateTime={message.created_at}>{time}</time>
        {state ? <span data-testid="receipt">{state}</span> : null}
        {actions}
      </div>
      {error ? (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      ) : null}
      {!mine ? <SafetyTip flags={message.flags} /> : null}
    </li>
  );
}
