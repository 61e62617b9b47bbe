import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { createTranslator } from './i18n/translator.ts';
import { I18nContext } from './i18n/use-t.ts';
import { installChunkReload } from './lib/version.ts';

async function hydrate() {
  const locale = document.documentElement.lang.startsWith('en') ? 'en' : 'ar';
  const bundle = locale === 'en' ? await import('./i18n/bundle-en.ts') : await import('./i18n/bundle-ar.ts');
  const translator = createTranslator(locale, bundle.default);
  installChunkReload();
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
