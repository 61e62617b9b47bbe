// Arabic catalogues as one client chunk, without the namespaces the browser does not load with every
// page (SERVER_NAMESPACES and PAGE_NAMESPACES in app/i18n/page-namespace.ts).
const files = import.meta.glob<Record<string, unknown>>(
  ['./locales/ar/*.json', '!./locales/ar/mail.json', '!./locales/ar/notifications.json'],
  { eager: true, import: 'default' },
);
export default Object.fromEntries(Object.entries(files).map(([f, v]) => [f.replace(/^.*\/(.+)\.json$/, '$1'), v]));
