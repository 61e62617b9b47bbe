import { CloseButton, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useT } from '~/i18n/use-t.ts';
import classes from './flash-toast.module.css';

/** How long a toast stays when nobody points at it or focuses it: longer for longer messages. */
export const toastMs = (text: string) => Math.min(15_000, 4000 + text.length * 60);

/**
 * The flash message of a completed action (app/lib/flash.server.ts) as a polite status region. The
 * server renders it as it is; once the page runs it becomes a toast with a dismiss button that
 * leaves after `toastMs` (not while pointed at or focused). The live region is always there, so
 * screen readers announce a message that arrives after a client-side navigation.
 */
export function FlashToast({ flash }: { flash: { id: string; text: string } | null }) {
  const { t } = useT();
  const [enhanced, setEnhanced] = useState(false);
  const [closed, setClosed] = useState<string | null>(null);
  const [held, setHeld] = useState(false);
  const toast = useRef<HTMLDivElement>(null);
  useEffect(() => setEnhanced(true), []);
  const id = flash?.id;
  const ms = toastMs(flash?.text ?? '');
  // Held while pointed at or focused (the dismiss button), so it can be read to the end.
  useEffect(() => {
    setHeld(false);
    const node = toast.current;
    if (!node || !id) return;
    const hold = () => setHeld(true);
    const release = () => setHeld(false);
    const events = [
      ['pointerenter', hold],
      ['pointerleave', release],
      ['focusin', hold],
      ['focusout', release],
    ] as const;
    for (const [name, fn] of events) node.addEventListener(name, fn);
    return () => {
      for (const [name, fn] of events) node.removeEventListener(name, fn);
    };
  }, [id]);
  useEffect(() => {
    if (!enhanced || !id || held) return;
    const timer = setTimeout(() => setClosed(id), ms);
    return () => clearTimeout(timer);
  }, [enhanced, id, held, ms]);
  const shown = flash && closed !== flash.id ? flash : null;
  return (
    // Polite and live while empty (so a message that arrives later is announced); a status only
    // while it holds one.
    <div role={shown ? 'status' : undefined} aria-live="polite" className={classes.region}>
      {shown ? (
        <div
          key={shown.id}
          className={enhanced ? `${classes.toast} ${classes.enhanced}` : classes.toast}
          data-testid="flash"
          ref={toast}
        >
          <IconCircleCheck size={22} className={classes.icon} aria-hidden />
          <Text size="sm" fw={500} className={classes.text}>
            {shown.text}
          </Text>
          {enhanced ? (
            <CloseButton size={44} radius="xl" aria-label={t('flash.dismiss')} onClick={() => setClosed(shown.id)} />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
