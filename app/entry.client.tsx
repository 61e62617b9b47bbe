import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import type { Locale } from './i18n/config.ts';
import { createTranslator } from './i18n/translator.ts';
import { I18nContext } from './i18n/use-t.ts';
import { dates, numberFormat } from './lib/intl.ts';
import { nextTask } from './lib/tasks.ts';
import { installChunkReload } from './lib/version.ts';

/**
 * The browser's first Intl formatter of a page loads its locale's data: in Chromium slowed down as
 * Lighthouse's phone is (4×), 55–90 ms for the first number format and 15–30 ms for the first date
 * format, measured on 2026-11-26 (docs/performance.md, "Pages on a phone"); later formatters cost
 * under a millisecond. Made here (app/lib/intl.ts keeps them for the page), each in a task of its
 * own, that cost is not added to one of hydration's tasks (or to the map's first drawing), which
 * would make it a long one.
 */
async function loadFormatData(locale: Locale) {
  numberFormat(locale).format(0);
  await nextTask();
  dates(locale).date(0);
  await nextTask();
}

async function hydrate() {
  const locale = document.documentElement.lang.startsWith('en') ? 'en' : 'ar';
  const bundle = locale === 'en' ? await import('./i18n/bundle-en.ts') : await import('./i18n/bundle-ar.ts');
  await loadFormatData(locale);
  const translator = createTranslator(locale, bundle.default);
  installChunkReload();
  await nextTask();
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nContext value={translator}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nContext>,
    );
  });
}

hydrate();
