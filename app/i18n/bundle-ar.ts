// Arabic catalogues as one client chunk: the namespaces every page may use (`pageNamespaces` in
// ./config.ts, which tests/unit/i18n-areas.test.tsx holds this list to); the others come with their
// pages (./area-catalogues.ts).
import type { Catalogue } from './translator.ts';

const files = import.meta.glob<Catalogue>('./locales/ar/{common,home,catalog,ads,search,map}.json', {
  eager: true,
  import: 'default',
});
export default Object.fromEntries(Object.entries(files).map(([f, v]) => [f.replace(/^.*\/(.+)\.json$/, '$1'), v]));
