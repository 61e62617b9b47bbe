import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { HydratedRouter } from 'react-router/dom';
import { createI18n } from './i18n/instance.ts';
import { installChunkReload } from './lib/version.ts';

async function hydrate() {
  const locale = document.documentElement.lang.startsWith('en') ? 'en' : 'ar';
  const bundle = locale === 'en' ? await import('./i18n/bundle-en.ts') : await import('./i18n/bundle-ar.ts');
  const i18n = createI18n(locale, { [locale]: bundle.default as Record<string, Record<string, unknown>> });
  installChunkReload();
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18n}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

hydrate();
