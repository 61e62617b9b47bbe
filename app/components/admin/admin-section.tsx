// Pieces of the back office's detail pages (docs/product/back-office.md): a titled section (its id
// is the page's anchor, `#holders`), and the submit button of one of a page's forms, busy while
// that form (its `intent`) is on its way.
import { Button, Card, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigation } from 'react-router';

export function AdminSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="lg" padding="lg" component="section" id={id} aria-labelledby={`${id}-title`}>
      <Title order={2} size="h4" id={`${id}-title`} mb="md">
        {title}
      </Title>
      {children}
    </Card>
  );
}

export function IntentSubmit({
  intent,
  children,
  color,
  named = false,
}: {
  intent: string;
  children: ReactNode;
  color?: string;
  /** The button sends `intent` itself (otherwise the form carries it in a hidden input). */
  named?: boolean;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  return (
    <Button
      type="submit"
      name={named ? 'intent' : undefined}
      value={named ? intent : undefined}
      radius="xl"
      color={color}
      loading={busy}
      mih={44}
    >
      {children}
    </Button>
  );
}
