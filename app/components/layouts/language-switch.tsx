import { Button } from '@mantine/core';
import { useLocation } from 'react-router';
import { stripLocale } from '~/i18n/config.ts';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';

/**
 * Switches to the same page in the other language. A plain link to /locale/{lang}, which stores
 * the choice in a cookie for 365 days: works without JavaScript, and loads the whole page so the
 * direction and catalogues change together.
 */
export function LanguageSwitch() {
  const { t } = useT();
  const { locale } = useLocale();
  const { pathname, search } = useLocation();
  const other = locale === 'ar' ? 'en' : 'ar';
  const href = `/locale/${other}?redirect=${encodeURIComponent(stripLocale(pathname) + search)}`;
  return (
    <Button
      component="a"
      href={href}
      hrefLang={other}
      lang={other}
      rel="nofollow"
      variant="default"
      radius="xl"
      h={44}
      px="sm"
      aria-label={t('language.switch-to')}
      data-testid="language-switch"
      // On Arabic pages its name comes from a font file of its own (app/styles/global.css).
      className="other-language-name"
    >
      {t('language.other-name')}
    </Button>
  );
}
