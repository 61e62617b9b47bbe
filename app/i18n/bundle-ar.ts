// Arabic catalogues as one client chunk.
const files = import.meta.glob<Record<string, unknown>>('./locales/ar/*.json', { eager: true, import: 'default' });
export default Object.fromEntries(Object.entries(files).map(([f, v]) => [f.replace(/^.*\/(.+)\.json$/, '$1'), v]));
