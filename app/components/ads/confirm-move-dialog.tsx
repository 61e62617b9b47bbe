import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';

/**
 * "Mark this ad as sold?" / "Delete this ad?" (docs/product/site.md, "Feedback"): a focus-trapped
 * dialog; Cancel, Escape or the close button leave everything as it was. Loaded only when an owner
 * asks (app/components/ads/owner-actions.tsx), so pages that merely show the actions stay light.
 */
export default function ConfirmMoveDialog({
  intent,
  onCancel,
  onConfirm,
}: {
  intent: 'mark-sold' | 'delete';
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useT('ads');
  useAreaCatalogues('placing');
  return (
    <Modal
      opened
      onClose={onCancel}
      title={t(`placing:mine.confirm.${intent}-title`)}
      centered
      radius="lg"
      closeButtonProps={{ 'aria-label': t('placing:mine.confirm.cancel'), size: 44 }}
    >
      <Stack gap="md">
        <Text size="sm">{t(`placing:mine.confirm.${intent}-body`)}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" radius="xl" mih={44} onClick={onCancel}>
            {t('placing:mine.confirm.cancel')}
          </Button>
          <Button color={intent === 'delete' ? 'red' : 'brand'} radius="xl" mih={44} onClick={onConfirm}>
            {t(`placing:mine.confirm.${intent}`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
