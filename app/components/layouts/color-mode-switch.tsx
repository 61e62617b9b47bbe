import { ActionIcon, useMantineColorScheme } from '@mantine/core';
import { useMounted } from '@mantine/hooks';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useT } from '~/i18n/use-t.ts';

const ORDER = ['light', 'dark', 'auto'] as const;
type Scheme = (typeof ORDER)[number];
const NAMES: Record<Scheme, 'light' | 'dark' | 'system'> = { light: 'light', dark: 'dark', auto: 'system' };

/**
 * One button that steps light → dark → system; its label says the current mode and the next one.
 * Before hydration it shows a neutral icon: the stored choice lives in the browser, and a guess
 * would flip after hydration.
 */
export function ColorModeSwitch() {
  const { t } = useT();
  const mounted = useMounted();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const current: Scheme | undefined = mounted ? colorScheme : undefined;
  const next: Scheme = ORDER[(ORDER.indexOf(current ?? 'auto') + 1) % ORDER.length];
  const Icon = current === 'dark' ? IconMoon : current === 'light' ? IconSun : IconDeviceDesktop;
  const label = current
    ? t('color-mode.current', { mode: t(`color-mode.${NAMES[current]}`), next: t(`color-mode.${NAMES[next]}`) })
    : t('color-mode.label');
  return (
    <ActionIcon
      variant="default"
      size={44}
      radius="xl"
      aria-label={label}
      title={label}
      data-testid="color-mode"
      data-mode={current ? NAMES[current] : undefined}
      onClick={() => setColorScheme(next)}
    >
      <Icon size={20} aria-hidden />
    </ActionIcon>
  );
}
