// Words and values of the audit log's screens (app/routes/admin/revisions.tsx, revision.tsx).
import { Text } from '@mantine/core';
import { useT } from '~/i18n/use-t.ts';

/** A subject type or action in words when the catalogue has them, else as recorded. */
export function useRevisionWords() {
  const { t } = useT('admin');
  return {
    type: (type: string) => t(`revisions.types.${type}`, { defaultValue: type }),
    action: (action: string) => t(`revisions.actions.${action}`, { defaultValue: action }),
  };
}

/** A field's value before or after: text as it is, nothing as "empty", anything else as JSON. */
export function RevisionValue({ value }: { value: unknown }) {
  const { t } = useT('admin');
  if (value === null || value === undefined || value === '') {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {t('revisions.empty-value')}
      </Text>
    );
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return (
      <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {String(value)}
      </Text>
    );
  }
  return (
    <Text
      component="pre"
      size="sm"
      ff="monospace"
      dir="ltr"
      m={0}
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      {JSON.stringify(value, null, 2)}
    </Text>
  );
}
