import type { SubmissionResult } from '@conform-to/react';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { IconBrandWhatsapp, IconMail, IconPhone } from '@tabler/icons-react';
import { type ReactNode, Suspense } from 'react';
import { Form, Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { lazyComponent } from '~/lib/lazy-component.tsx';
import classes from './seller-contact.module.css';

/** The message form's field and button, loaded after the page; the ad page's loader preloads it on the server. */
export const MessageSellerFields = lazyComponent(() => import('./message-seller-fields.tsx'));

// How a buyer reaches the seller on the ad page (docs/product/ads.md, "Contact options"): calls and
// WhatsApp through the reveal rule, and a message relayed by email. The same actions appear in the
// seller's column and, on phones, in a bar fixed to the bottom of the screen. Every action works
// without JavaScript: posts to the page's action, links to sign in, an anchor to the message form.

/** The id of the message form's section: the bar's "Message" action is a link to it. */
export const MESSAGE_SECTION = 'message-seller';

export interface ContactProps {
  contact: { phone: boolean; whatsapp: boolean; message: boolean };
  signedIn: boolean;
  /** Sign in and come back to the ad. */
  loginHref: string;
  /** The number once a member asked for it (the action's answer). */
  revealed: string | null;
}

type Size = 'full' | 'bar';

function Action(props: {
  size: Size;
  icon: ReactNode;
  label: string;
  /** Longer words for the bar's short label. */
  title?: string;
  color?: string;
  variant?: string;
  className?: string;
  /** A post of this intent to the page's action; else a link to `href`. */
  intent?: 'reveal-phone' | 'whatsapp';
  href?: string;
}) {
  const common = {
    color: props.color,
    variant: props.variant,
    leftSection: props.icon,
    radius: 'xl',
    size: props.size === 'bar' ? 'md' : 'lg',
    fullWidth: true,
    className: props.className ? `${classes.action} ${props.className}` : classes.action,
    'aria-label': props.title,
  } as const;
  if (props.intent) {
    return (
      <Form method="post" className={classes.actionForm}>
        <input type="hidden" name="intent" value={props.intent} />
        <Button type="submit" {...common}>
          {props.label}
        </Button>
      </Form>
    );
  }
  const href = props.href ?? '#';
  return href.startsWith('/') ? (
    <Button component={Link} to={href} {...common}>
      {props.label}
    </Button>
  ) : (
    <Button component="a" href={href} {...common}>
      {props.label}
    </Button>
  );
}

/** Calls, WhatsApp and the message form's link, as full buttons (`full`) or the bar's short ones. */
function Actions({ contact, signedIn, loginHref, revealed, size }: ContactProps & { size: Size }) {
  const { t } = useT('ads');
  const bar = size === 'bar';
  const actions: ReactNode[] = [];
  if (contact.phone) {
    const icon = <IconPhone aria-hidden size={20} />;
    actions.push(
      revealed ? (
        <Action key="phone" size={size} icon={icon} href={`tel:${revealed}`} label={revealed} />
      ) : signedIn ? (
        <Action
          key="phone"
          size={size}
          icon={icon}
          intent="reveal-phone"
          label={bar ? t('page.bar-call') : t('page.show-phone')}
          title={bar ? t('page.show-phone') : undefined}
        />
      ) : (
        <Action
          key="phone"
          size={size}
          icon={icon}
          href={loginHref}
          variant={bar ? undefined : 'default'}
          label={bar ? t('page.bar-call') : t('page.login-for-phone')}
          title={bar ? t('page.login-for-phone') : undefined}
        />
      ),
    );
  }
  if (contact.whatsapp) {
    // A post: the server checks, limits and counts, then sends the browser on to wa.me (the app on
    // a phone) with a 303.
    actions.push(
      <Action
        key="whatsapp"
        size={size}
        icon={<IconBrandWhatsapp aria-hidden size={20} />}
        color="green"
        variant="outline"
        className={classes.whatsapp}
        {...(signedIn
          ? { intent: 'whatsapp' as const, label: t('page.whatsapp') }
          : {
              href: loginHref,
              label: bar ? t('page.whatsapp') : t('page.login-for-whatsapp'),
              title: bar ? t('page.login-for-whatsapp') : undefined,
            })}
      />,
    );
  }
  // The message form is in the page already (the seller's column); the bar links to it.
  if (contact.message && (bar || !signedIn)) {
    actions.push(
      <Action
        key="message"
        size={size}
        icon={<IconMail aria-hidden size={20} />}
        variant={bar ? 'light' : 'default'}
        href={signedIn ? `#${MESSAGE_SECTION}` : loginHref}
        label={bar ? t('page.bar-message') : t('page.login-for-message')}
        title={bar ? (signedIn ? t('page.message') : t('page.login-for-message')) : undefined}
      />,
    );
  }
  if (actions.length === 0) return null;
  return bar ? (
    <div className={classes.barActions}>{actions}</div>
  ) : (
    <Stack gap="xs" className={classes.column}>
      {actions}
    </Stack>
  );
}

/**
 * The seller's column: calls, WhatsApp, and for a visitor the sign-in link to write. On phones the
 * bar holds them instead (one set of buttons on any screen).
 */
export function ContactActions(props: ContactProps) {
  const { t } = useT('ads');
  const { contact } = props;
  if (!contact.phone && !contact.whatsapp && !contact.message) {
    return (
      <Text size="sm" c="dimmed">
        {t('page.no-contact')}
      </Text>
    );
  }
  return <Actions {...props} size="full" />;
}

/**
 * Phones only: the contact actions in a bar fixed to the bottom of the screen (above the safe area),
 * in place of the site's bottom navigation; the page keeps room for it under its last line.
 */
export function ContactBar(props: ContactProps) {
  const { t } = useT('ads');
  const { contact } = props;
  if (!contact.phone && !contact.whatsapp && !contact.message) return null;
  return (
    <>
      <div className={classes.barSpace} aria-hidden />
      <nav className={classes.bar} aria-label={t('page.contact-bar')} data-contact-bar="">
        <Actions {...props} size="bar" />
      </nav>
    </>
  );
}

/**
 * "Message the seller": a signed-in buyer's words, relayed to the seller by email (neither address
 * is shown to the other). `result` is the action's reply to this form; `sent` once it went.
 */
export function MessageSellerForm({ result, sent }: { result: SubmissionResult<string[]> | undefined; sent: boolean }) {
  const { t } = useT('ads');
  // The server validates with the form's schema (app/lib/validation/ads.ts) and answers its verdict;
  // its words show next to the field, so the page loads neither Zod nor Conform.
  const code = sent ? undefined : result?.error?.message?.[0];
  const typed = sent ? undefined : (result?.initialValue as { message?: unknown } | undefined)?.message;
  return (
    <section id={MESSAGE_SECTION} aria-labelledby={`${MESSAGE_SECTION}-title`} className={classes.message}>
      <Title order={2} size="h5" mb="xs" id={`${MESSAGE_SECTION}-title`}>
        {t('page.message')}
      </Title>
      {sent ? (
        <Alert color="brand" role="status">
          {t('page.message-sent')}
        </Alert>
      ) : (
        // The field and its button load after the page (Mantine's inputs stay out of its first load);
        // the server renders them, so the form works before and without the script.
        <Suspense fallback={null}>
          <MessageSellerFields typed={typeof typed === 'string' ? typed : undefined} code={code} />
        </Suspense>
      )}
    </section>
  );
}
