import { Button, Stack, Textarea } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { Form, useNavigation } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { SELLER_MESSAGE_MAX, SELLER_MESSAGE_MIN } from '~/lib/seller-message.ts';
import { useErrorWords } from '~/lib/validation/use-error-words.ts';

/**
 * The "Message the seller" form's field and button (seller-contact.tsx's `MessageSellerForm`), in a
 * module of their own so that the ad page loads them after its first load.
 */
export default function MessageSellerFields({
  typed,
  code,
}: {
  typed: string | undefined;
  /** The server's verdict on the message, an error code (app/lib/validation/rules.ts). */
  code: string | undefined;
}) {
  const { t } = useT('ads');
  const navigation = useNavigation();
  return (
    <Form method="post" id="message-seller-form" noValidate>
      <input type="hidden" name="intent" value="message" />
      <Stack gap="xs">
        <Textarea
          name="message"
          label={t('page.message-label')}
          description={t('page.message-hint')}
          defaultValue={typed}
          required
          minLength={SELLER_MESSAGE_MIN}
          maxLength={SELLER_MESSAGE_MAX}
          autosize
          minRows={3}
          maxRows={8}
          dir="auto"
          error={code ? <ErrorWords code={code} /> : undefined}
        />
        <Button
          type="submit"
          radius="xl"
          size="md"
          leftSection={<IconMail aria-hidden size={20} />}
          loading={navigation.state === 'submitting' && navigation.formData?.get('intent') === 'message'}
        >
          {t('page.message-send')}
        </Button>
      </Stack>
    </Form>
  );
}

/** An error code in words: waits for the error catalogues, which only a page showing one loads. */
function ErrorWords({ code }: { code: string }) {
  return useErrorWords()(code, 'message');
}
