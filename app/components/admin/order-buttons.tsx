// Up and down in a display order (docs/product/back-office.md, "Cities"): each a form of its own,
// so it works without JavaScript, a 44 px button named for screen readers ("Move Tripoli up").
import { ActionIcon, Group } from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { Form } from 'react-router';
import { useT } from '~/i18n/use-t.ts';

export function OrderButtons({
  id,
  name,
  first,
  last,
  field = 'id',
  intents = ['up', 'down'],
}: {
  id: number;
  name: string;
  first: boolean;
  last: boolean;
  /** The form field carrying the id. */
  field?: string;
  /** The intents of up and down. */
  intents?: readonly [string, string];
}) {
  const { t } = useT('admin');
  const button = (intent: string, label: string, disabled: boolean, up: boolean) => (
    <Form method="post">
      <input type="hidden" name={field} value={id} />
      <ActionIcon
        type="submit"
        name="intent"
        value={intent}
        variant="default"
        size={44}
        disabled={disabled}
        aria-label={label}
      >
        {up ? <IconArrowUp size={18} aria-hidden /> : <IconArrowDown size={18} aria-hidden />}
      </ActionIcon>
    </Form>
  );
  return (
    <Group gap={4} wrap="nowrap">
      {button(intents[0], t('places.move-up', { name }), first, true)}
      {button(intents[1], t('places.move-down', { name }), last, false)}
    </Group>
  );
}
