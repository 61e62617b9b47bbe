// Information pages (/faq, /about, /terms, /privacy, /support): Markdown files per locale in
// content/pages/{ar,en}/, bundled into the server build and rendered once.
import { Marked } from 'marked';
import { oneOf } from '../../app/lib/one-of.ts';
import { NotFound } from './errors.ts';

export const INFO_PAGES = ['faq', 'about', 'terms', 'privacy', 'support'] as const;
export type InfoPageSlug = (typeof INFO_PAGES)[number];
const isInfoPage = oneOf(INFO_PAGES);

export interface InfoPage {
  slug: InfoPageSlug;
  title: string;
  description: string;
  html: string;
}

const marked = new Marked({ gfm: true, breaks: false });

/** Splits `---\nkey: value\n---\nbody` into fields and body. */
export function parseFrontMatter(source: string): { fields: Record<string, string>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!m) return { fields: {}, body: source };
  const fields: Record<string, string> = {};
  for (const line of m[1].split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) fields[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return { fields, body: m[2] };
}

export function renderInfoPage(slug: InfoPageSlug, source: string): InfoPage {
  const { fields, body } = parseFrontMatter(source);
  // Headings get ids so a FAQ answer can be linked to.
  const html = (marked.parse(body) as string).replace(/<h([23])>(.*?)<\/h\1>/g, (_m, level, text) => {
    const id = String(text)
      .replace(/<[^>]+>/g, '')
      .trim()
      .replace(/[\s]+/g, '-')
      .replace(/[^\p{L}\p{N}-]/gu, '')
      .toLowerCase();
    return `<h${level} id="${id}">${text}</h${level}>`;
  });
  return { slug, title: fields.title ?? slug, description: fields.description ?? '', html };
}

const sources = import.meta.glob<string>('../../content/pages/*/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});
const cache = new Map<string, InfoPage>();

export function getInfoPage(locale: 'ar' | 'en', slug: string): InfoPage {
  const key = `${locale}/${slug}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const source = sources[`../../content/pages/${key}.md`];
  if (!source || !isInfoPage(slug)) throw new NotFound('errors.not-found');
  const page = renderInfoPage(slug, source);
  cache.set(key, page);
  return page;
}
