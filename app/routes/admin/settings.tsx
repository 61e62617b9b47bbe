import { getFormProps, getInputProps } from '@conform-to/react';
import { Box, Button, Paper, Radio, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { Form, useNavigation } from 'react-router';
import { FormError, useFieldError, useValidatedForm } from '~/components/form-parts.tsx';
import { localizePath } from '~/i18n/config.ts';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { formAction } from '~/lib/form-actions.server.ts';
import { guards } from '~/lib/guards.server.ts';
import { routeMeta } from '~/lib/meta.ts';
import { db, localeOf, tFor } from '~/lib/route.server.ts';
import { requireSuperAdminStaff } from '~/lib/staff.server.ts';
import { MODERATION_MODES, SETTING_BOUNDS, settingsSchema } from '~/lib/validation/settings.ts';
import { readStoredSettings, saveSettings } from '../../../server/domain/settings.ts';
import type { Route } from './+types/settings';

// The marketplace's settings (docs/product/back-office.md, "Settings"): moderation mode, the free
// allowance, an ad's lifetime and its expiry reminder, the repost cool-down. The super admin only
// (other staff get 403); a save takes effect without a restart (server/domain/settings.ts).

export const middleware = guards('super-admin');

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireSuperAdminStaff(request, context);
  return {
    meta: { title: tFor(request)('admin:settings.title'), noindex: true },
    // The stored values as they are now, not a copy a few seconds old.
    settings: await readStoredSettings(db(context)),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor } = await requireSuperAdminStaff(request, context);
  return formAction(await request.formData(), settingsSchema, async (value) => {
    await saveSettings(db(context), actor, value);
    return redirectWithFlash(localizePath('/admin/settings', localeOf(request)), 'admin-saved');
  });
}

export const meta: Route.MetaFunction = routeMeta;

const NUMBERS = ['freeActiveAds', 'lifetimeDays', 'reminderDaysBefore', 'repostCooldownDays'] as const;

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT('admin');
  useAreaCatalogues('admin');
  const fieldError = useFieldError();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm('settings', settingsSchema, actionData?.result, loaderData.settings);
  return (
    <Stack gap="lg">
      <Box>
        <Title order={1}>{t('settings.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('settings.intro')}
        </Text>
      </Box>
      <Paper withBorder radius="lg" p="md">
        <Form method="post" {...getFormProps(form)} noValidate>
          <Stack gap="md">
            <FormError code={actionData?.formError} />
            <Radio.Group
              name={fields.moderation.name}
              defaultValue={String(fields.moderation.initialValue ?? 'pre')}
              label={t('settings.moderation')}
              description={t('settings.moderation-hint')}
              error={fieldError(fields.moderation)}
              key={fields.moderation.key}
            >
              <Stack gap="xs" mt="xs">
                {MODERATION_MODES.map((mode) => (
                  <Radio
                    key={mode}
                    value={mode}
                    label={t(`settings.modes.${mode}`)}
                    styles={{ body: { minHeight: 44, alignItems: 'center' } }}
                  />
                ))}
              </Stack>
            </Radio.Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              {NUMBERS.map((name) => {
                const [min, max] = SETTING_BOUNDS[name];
                return (
                  <TextInput
                    {...getInputProps(fields[name], { type: 'text' })}
                    key={fields[name].key}
                    inputMode="numeric"
                    dir="ltr"
                    label={t(`settings.fields.${name}`)}
                    description={t(`settings.hints.${name}`, { min, max })}
                    error={fieldError(fields[name])}
                    required
                  />
                );
              })}
            </SimpleGrid>
            <div>
              <Button type="submit" loading={navigation.state === 'submitting'}>
                {t('settings.save')}
              </Button>
            </div>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
