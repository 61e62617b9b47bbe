// English catalogues as one client chunk, without the namespaces the browser does not load with every
// page (SERVER_NAMESPACES and PAGE_NAMESPACES in app/i18n/page-namespace.ts).
const files = import.meta.glob<Record<string, unknown>>(
  ['./locales/en/*.json', '!./locales/en/mail.json', '!./locales/en/notifications.json'],
  { eager: true, import: 'default' },
);
export default Object.fromEntries(Object.entries(files).map(([f, v]) => [f.replace(/^.*\/(.+)\.json$/, '$1'), v]));
