// A destructive action that asks first (docs/product/back-office.md, "Confirmation"): the button
// opens a disclosure stating what will happen ("312 ads use this option…") with the confirming
// submit button and a way back. A native <details>, so it works without JavaScript. The
// destructive intent is only on the confirming button; an action whose impact depends on data
// (a category with ads) computes it again on the server and refuses when it changed.
import { Button, Group, Paper, Text } from '@mantine/core';
import { useRef } from 'react';
import { useT } from '~/i18n/use-t.ts';
import classes from './confirm-action.module.css';

export function ConfirmAction({
  label,
  statement,
  intent,
  confirmLabel,
  form,
  open,
}: {
  label: string;
  /** What will happen, in full. */
  statement: string;
  /** The `intent` value the confirming button submits. */
  intent: string;
  /** The confirming button's words (the action's own label when absent). */
  confirmLabel?: string;
  /** The id of the form it submits, when it is not inside it. */
  form?: string;
  /** Shown open (the server asks again: the figure changed since the page was made). */
  open?: boolean;
}) {
  const { t } = useT('admin');
  const details = useRef<HTMLDetailsElement>(null);
  return (
    <details ref={details} className={classes.details} open={open}>
      <Button component="summary" color="red" variant="light" className={classes.summary}>
        {label}
      </Button>
      <Paper withBorder radius="md" p="sm" mt="xs" role="alertdialog" aria-label={label}>
        <Text size="sm" mb="sm">
          {statement}
        </Text>
        <Group gap="sm">
          <Button type="submit" name="intent" value={intent} color="red" form={form}>
            {confirmLabel ?? label}
          </Button>
          <Button
            type="button"
            variant="default"
            onClick={() => {
              if (details.current) details.current.open = false;
            }}
          >
            {t('list.cancel')}
          </Button>
        </Group>
      </Paper>
    </details>
  );
}
