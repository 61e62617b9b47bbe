// Colour mode: light / dark / system, stored in localStorage under `nuxt-color-mode` (the key the
// previous site used, so returning visitors keep their choice). Mantine calls "system" "auto".
import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';

export const COLOR_MODE_KEY = 'nuxt-color-mode';
export type ColorMode = 'light' | 'dark' | 'system';
export type ForcedColorMode = 'light' | 'dark';

const toMantine = (v: string | null): MantineColorScheme | null =>
  v === 'light' || v === 'dark' ? v : v === 'system' || v === 'auto' ? 'auto' : null;

export function colorModeManager(): MantineColorSchemeManager {
  let handler: ((e: StorageEvent) => void) | undefined;
  return {
    get: (fallback) => {
      if (typeof window === 'undefined') return fallback;
      try {
        return toMantine(window.localStorage.getItem(COLOR_MODE_KEY)) ?? fallback;
      } catch {
        return fallback;
      }
    },
    set: (value) => {
      try {
        window.localStorage.setItem(COLOR_MODE_KEY, value === 'auto' ? 'system' : value);
      } catch {
        // storage may be unavailable (private mode); the choice then lasts for the page only
      }
    },
    subscribe: (onUpdate) => {
      handler = (e) => {
        if (e.storageArea === window.localStorage && e.key === COLOR_MODE_KEY) {
          const v = toMantine(e.newValue);
          if (v) onUpdate(v);
        }
      };
      window.addEventListener('storage', handler);
    },
    unsubscribe: () => {
      if (handler) window.removeEventListener('storage', handler);
    },
    clear: () => {
      try {
        window.localStorage.removeItem(COLOR_MODE_KEY);
      } catch {
        // nothing stored
      }
    },
  };
}

/**
 * The mode a route forces through `handle.colorMode`, the deepest route winning. Forcing
 * "system" is not allowed: it is reported through `warn` and ignored.
 */
export function forcedColorMode(
  handles: unknown[],
  warn: (message: string) => void = console.warn,
): ForcedColorMode | undefined {
  let forced: ForcedColorMode | undefined;
  for (const handle of handles) {
    const mode = (handle as { colorMode?: unknown } | undefined)?.colorMode;
    if (mode === undefined) continue;
    if (mode === 'light' || mode === 'dark') forced = mode;
    else warn(`A route cannot force the colour mode "${String(mode)}"; only "light" or "dark". Ignored.`);
  }
  return forced;
}

/**
 * Inline script for <head>: sets the scheme before the first paint, so a dark-mode visitor never
 * sees a light flash. Reads the forced mode from the <html> element.
 */
export const colorModeScript = `(function(){try{var h=document.documentElement;var f=h.getAttribute('data-forced-color-mode');var v=f||localStorage.getItem('${COLOR_MODE_KEY}')||'system';var d=v==='dark'||(v!=='light'&&window.matchMedia('(prefers-color-scheme: dark)').matches);h.setAttribute('data-mantine-color-scheme',d?'dark':'light');}catch(e){}})();`;
