import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from '@conform-to/react';
import { Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Form, Link, useNavigation } from 'react-router';
import { FormError, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { useT } from '~/i18n/use-t.ts';
import { actionHeaders } from '~/lib/action-headers.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, requestInfo, services, tFor } from '~/lib/route.server.ts';
import { useLocale } from '~/lib/use-locale.ts';
import { CONTACT_SUBJECTS, contactSchema } from '~/lib/validation/contact.ts';
import { submitContactMessage } from '../../../server/domain/contact.ts';
import type { Route } from './+types/contact';

export async function loader({ request }: Route.LoaderArgs) {
  const t = tFor(request);
  return { meta: { title: t('contact:title'), description: t('contact:description') } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const info = requestInfo(context);
  return formAction(await request.formData(), contactSchema, async (value, form) => {
    await submitContactMessage(db(context), value, {
      ip: info.ip,
      userAgent: info.userAgent,
      locale: localeOf(request),
      staffEmails: services(context).config.contactEmails,
    });
    return { result: form.cleared(), formError: undefined, sent: true };
  });
}

export const meta: Route.MetaFunction = routeMeta;
export const headers = actionHeaders;

export default function ContactPage({ actionData }: Route.ComponentProps) {
  const { t } = useT('contact');
  const { to } = useLocale();
  const navigation = useNavigation();
  const sent = !!actionData && 'sent' in actionData && actionData.sent;
  const [form, fields] = useValidatedForm('contact-form', contactSchema, sent ? undefined : actionData?.result);
  const fieldError = useFieldError();
  const err = (name: keyof typeof fields) => fieldError(fields[name]);

  if (sent) {
    return (
      <Paper withBorder radius="lg" p="xl" maw={640} mx="auto" role="status">
        <Stack align="center" ta="center" gap="sm">
          <IconCircleCheck size={48} color="var(--mantine-color-brand-6)" aria-hidden />
          <Title order={1} size="h2">
            {t('thanks.title')}
          </Title>
          <Text c="dimmed">{t('thanks.body')}</Text>
          <Group>
            <Button component={Link} to={to('/')} radius="xl">
              {t('common:back-home')}
            </Button>
            <Button component={Link} to={to('/support')} variant="default" radius="xl">
              {t('thanks.help')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    );
  }

  return (
    <Stack gap="md" maw={640} mx="auto">
      <Title order={1}>{t('title')}</Title>
      <Text c="dimmed">{t('intro')}</Text>
      <FormError code={actionData && 'formError' in actionData ? actionData.formError : undefined} />
      <Form method="post" {...getFormProps(form)} noValidate>
        <Stack gap="sm">
          <TextInput
            {...getInputProps(fields.name, { type: 'text' })}
            key={fields.name.key}
            label={t('labels.name')}
            autoComplete="name"
            error={err('name')}
            withAsterisk
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              {...getInputProps(fields.email, { type: 'email' })}
              key={fields.email.key}
              label={t('labels.email')}
              autoComplete="email"
              dir="ltr"
              error={err('email')}
            />
            <TextInput
              {...getInputProps(fields.phone, { type: 'tel' })}
              key={fields.phone.key}
              label={t('labels.phone')}
              placeholder="+218 91 234 5678"
              autoComplete="tel"
              dir="ltr"
              error={err('phone')}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt={-6}>
            {t('reach-hint')}
          </Text>
          <NativeSelect
            {...getSelectProps(fields.subject)}
            key={fields.subject.key}
            label={t('labels.subject')}
            error={err('subject')}
            withAsterisk
            data={[
              { value: '', label: t('subject-placeholder') },
              ...CONTACT_SUBJECTS.map((s) => ({ value: s, label: t(`subjects.${s}`) })),
            ]}
          />
          <Textarea
            {...getTextareaProps(fields.message)}
            key={fields.message.key}
            label={t('labels.message')}
            autosize
            minRows={5}
            maxRows={14}
            dir="auto"
            error={err('message')}
            withAsterisk
          />
          <Group justify="flex-end">
            <Button type="submit" radius="xl" size="md" loading={navigation.state === 'submitting'}>
              {t('send')}
            </Button>
          </Group>
        </Stack>
      </Form>
    </Stack>
  );
}
