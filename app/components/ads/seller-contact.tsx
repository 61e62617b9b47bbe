import { Button, Stack, Text } from '@mantine/core';
import { IconBrandWhatsapp, IconMessages, IconPhone } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Form, Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import classes from './seller-contact.module.css';

// How a buyer reaches the seller on the ad page (docs/product/ads.md, "Contact options"): a chat
// (docs/product/chats.md), and calls and WhatsApp through the reveal rule. The same actions appear
// in the seller's column and, on phones, in a bar fixed to the bottom of the screen. Every action
// works without JavaScript: posts to the page's action, links to the chat or to sign in.

export interface ContactProps {
  contact: { phone: boolean; whatsapp: boolean; chat: boolean };
  signedIn: boolean;
  /** Sign in and come back to the ad. */
  loginHref: string;
  /** The member's chat about this ad, or where one starts (a visitor: sign in, then start it). */
  chatHref: string;
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

/** The chat, calls and WhatsApp, as full buttons (`full`) or the bar's short ones. */
function Actions({ contact, signedIn, loginHref, chatHref, revealed, size }: ContactProps & { size: Size }) {
  const { t } = useT('ads');
  const bar = size === 'bar';
  const actions: ReactNode[] = [];
  if (contact.chat) {
    // First: the way buyers expect to reach a seller.
    actions.push(
      <Action
        key="chat"
        size={size}
        icon={<IconMessages aria-hidden size={20} />}
        href={chatHref}
        label={bar ? t('page.chat') : signedIn ? t('page.chat-title') : t('page.login-for-chat')}
        title={bar ? (signedIn ? t('page.chat-title') : t('page.login-for-chat')) : undefined}
      />,
    );
  }
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
 * The seller's column: the chat, calls and WhatsApp. On phones the bar holds them instead (one set
 * of buttons on any screen).
 */
export function ContactActions(props: ContactProps) {
  const { t } = useT('ads');
  const { contact } = props;
  if (!contact.phone && !contact.whatsapp && !contact.chat) {
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
  if (!contact.phone && !contact.whatsapp && !contact.chat) return null;
  return (
    <>
      <div className={classes.barSpace} aria-hidden />
      <nav className={classes.bar} aria-label={t('page.contact-bar')} data-contact-bar="">
        <Actions {...props} size="bar" />
      </nav>
    </>
  );
}
