import {
  Anchor,
  type ConvertCSSVariablesInput,
  type CSSVariablesResolver,
  convertCssVariables,
  createTheme,
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  type MantineColorsTuple,
  mergeMantineTheme,
} from '@mantine/core';

/** Brand green #2D9C68 at index 6, lighter above, darker below. */
export const brand: MantineColorsTuple = [
  '#e9f8f0',
  '#d4eee1',
  '#a9dcc3',
  '#7bcaa3',
  '#55bb88',
  '#3db277',
  '#2d9c68',
  '#23885a',
  '#18794f',
  '#006841',
];

export const BRAND_COLOR = '#2D9C68';

export const theme = createTheme({
  primaryColor: 'brand',
  // Filled buttons and links use shade 8 (#18794f): white on it is 5.4:1, readable for everyone.
  // The brand green itself (#2D9C68) marks the logo, icons and the page-load bar.
  primaryShade: { light: 8, dark: 8 },
  colors: { brand },
  // The page's language's font first (app/styles/global.css): it also draws the spaces.
  fontFamily: 'var(--souq-font)',
  headings: { fontFamily: 'var(--souq-font)', fontWeight: '700' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    // Links are underlined, not told apart from the words around them by colour alone (in dark mode
    // the link green is 1.2:1 against the text beside it).
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
  },
});

/** Text colours tuned for WCAG AA contrast (Mantine's default dimmed grey is 3.3:1 on white). */
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-brand-8)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    // Light yellow badges and alerts (an ad in review, a change waiting): Mantine's yellow text is
    // 2:1 on its light background; a dark amber is over 4.5:1.
    '--mantine-color-yellow-light-color': '#7a4f00',
    // The same for the back office's light badges (states, counts): shade 6 text is under 3:1 on
    // its light background, shade 9 over 4.5:1.
    '--mantine-color-teal-light-color': 'var(--mantine-color-teal-9)',
    '--mantine-color-green-light-color': 'var(--mantine-color-green-9)',
    '--mantine-color-blue-light-color': 'var(--mantine-color-blue-9)',
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
    '--mantine-color-gray-light-color': 'var(--mantine-color-gray-8)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-anchor': 'var(--mantine-color-brand-3)',
    '--mantine-color-error': 'var(--mantine-color-red-5)',
  },
});

/**
 * The theme's CSS variables where they differ from those in Mantine's stylesheet, as Mantine's
 * provider writes them, made once: the provider would merge and compare the whole theme again on
 * every render (a twentieth of a listing page's server time). The root renders it in a style
 * element, with the provider's own output turned off (`withCssVariables={false}`).
 */
export const THEME_CSS = (() => {
  const full = mergeMantineTheme(DEFAULT_THEME, theme);
  const ours = defaultCssVariablesResolver(full);
  const tuned = cssVariablesResolver(full);
  const stock = defaultCssVariablesResolver(DEFAULT_THEME);
  const changed = (section: keyof ConvertCSSVariablesInput) => {
    const before: Record<string, string> = stock[section];
    return Object.fromEntries(
      Object.entries({ ...ours[section], ...tuned[section] }).filter(([k, v]) => before[k] !== v),
    ) as ConvertCSSVariablesInput[typeof section];
  };
  return convertCssVariables({ variables: changed('variables'), light: changed('light'), dark: changed('dark') });
})();
