// Pieces shared by the moderation queue and the ad review page (docs/product-notes.md, "Moderation").
import { type FieldMetadata, getSelectProps, getTextareaProps } from '@conform-to/react';
import { Alert, Badge, Box, Image, NativeSelect, Text, Textarea, ThemeIcon } from '@mantine/core';
import { IconCircleCheck, IconPhotoOff } from '@tabler/icons-react';
import { useAreaCatalogues, useT } from '~/i18n/use-t.ts';
import type { DoneNotice } from '~/lib/moderation.ts';
import { REASON_TEXT_MAX, REJECTION_REASONS } from '~/lib/validation/moderation.ts';
import type { AdStatus } from '../../../server/db/schema.ts';

/** The translated first error of a moderation field (`admin:errors.<field>.<code>`), or undefined. */
export function useModerationError() {
  const { t } = useT();
  useAreaCatalogues('admin', 'validation');
  return (field: Pick<FieldMetadata<unknown>, 'errors' | 'name'>) => {
    const code = field.errors?.[0];
    if (!code) return undefined;
    const [key, arg] = code.split(':');
    const name = field.name.replace(/\[\d+\]$/, '');
    return t(`admin:errors.${name}.${key}`, {
      max: arg ? Number(arg) : undefined,
      defaultValue: t(`validation:${key}`, { field: name, count: arg ? Number(arg) : undefined }),
    });
  };
}

// Filled badges with a fixed text colour: each pair is at least 4.5:1 in light and dark mode.
const STATUS_COLOURS: Record<AdStatus, [string, string]> = {
  pending: ['yellow.4', 'black'],
  published: ['brand.8', 'white'],
  rejected: ['red.9', 'white'],
  expired: ['gray.7', 'white'],
  sold: ['blue.8', 'white'],
  archived: ['gray.7', 'white'],
  draft: ['gray.3', 'black'],
  deleted: ['dark.6', 'white'],
};

export function StatusBadge({ status }: { status: AdStatus }) {
  const { t } = useT('admin');
  const [bg, fg] = STATUS_COLOURS[status] ?? STATUS_COLOURS.draft;
  return (
    <Badge color={bg} c={fg} variant="filled" tt="none" radius="sm" miw="max-content">
      {t(`statuses.${status}`)}
    </Badge>
  );
}

/** The ad's first photo, or a placeholder icon. Decorative: the title is next to it. */
export function Thumb({ src, size = 64 }: { src: string | null; size?: number }) {
  const { t } = useT('admin');
  if (!src) {
    return (
      <ThemeIcon size={size} variant="light" color="gray" radius="md" aria-label={t('posts.no-photo')} role="img">
        <IconPhotoOff size={size / 2} aria-hidden />
      </ThemeIcon>
    );
  }
  return (
    <Box w={size} h={size} style={{ flexShrink: 0 }}>
      <Image src={src} alt="" w={size} h={size} radius="md" fit="cover" loading="lazy" />
    </Box>
  );
}

type Field = FieldMetadata<unknown, any, string[]>;

/** Reason (a code of the list) and the free text for "Other". */
export function RejectFields({ reason, text }: { reason: Field; text: Field }) {
  const { t } = useT('admin');
  const error = useModerationError();
  return (
    <>
      <NativeSelect
        {...getSelectProps(reason)}
        key={reason.key}
        label={t('post.reject.reason')}
        error={error(reason)}
        data={[
          { value: '', label: t('post.reject.choose') },
          ...REJECTION_REASONS.map((r) => ({ value: r, label: t(`ads:rejection-reasons.${r}`) })),
        ]}
        withAsterisk
      />
      <Textarea
        {...getTextareaProps(text)}
        key={text.key}
        label={t('post.reject.text')}
        description={t('post.reject.text-hint')}
        error={error(text)}
        maxLength={REASON_TEXT_MAX}
        autosize
        minRows={2}
        dir="auto"
      />
    </>
  );
}

/** What the last action did (`?done=…` after its redirect). */
export function DoneAlert({ notice }: { notice: DoneNotice | null }) {
  const { t } = useT('admin');
  if (!notice) return null;
  const lines =
    notice.done === 'approved' || notice.done === 'rejected'
      ? [
          notice.count > 0 || notice.skipped === 0 ? t(`posts.done.${notice.done}`, { count: notice.count }) : null,
          notice.skipped > 0 ? t('posts.done.skipped', { count: notice.skipped }) : null,
        ]
      : [t(`posts.done.${notice.done}`)];
  return (
    <Alert
      color={notice.count === 0 && notice.skipped > 0 ? 'yellow' : 'brand'}
      icon={<IconCircleCheck aria-hidden />}
      role="status"
    >
      {lines.filter(Boolean).map((line) => (
        <Text key={line} size="sm">
          {line}
        </Text>
      ))}
    </Alert>
  );
}
