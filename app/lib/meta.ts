// Page metadata: title template `page | site title`, description, canonical and ar/en hreflang
// alternates, Open Graph and a large-summary Twitter card with /images/logo-only.png.
import { isRouteErrorResponse, type MetaDescriptor } from 'react-router';
import { type Locale, localeTags, localizePath } from '~/i18n/config.ts';

export interface RootMetaData {
  origin: string;
  siteTitle: string;
  locale: Locale;
}

export interface PageMetaInput {
  title: string;
  description?: string;
  image?: string;
  noindex?: boolean;
  /** `?…` that belongs to the page's address (a listing's page number), kept in canonical and alternates. */
  search?: string;
}

export function pageMeta(
  root: RootMetaData | undefined,
  pathname: string,
  page: PageMetaInput | undefined,
): MetaDescriptor[] {
  if (!root || !page) return [];
  const title = page.title ? `${page.title} | ${root.siteTitle}` : root.siteTitle;
  const url = (l: Locale) => root.origin + localizePath(pathname, l) + (page.search ?? '');
  const image = root.origin + (page.image ?? '/images/logo-only.png');
  const tags: MetaDescriptor[] = [
    { title },
    { property: 'og:title', content: title },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: root.siteTitle },
    { property: 'og:url', content: url(root.locale) },
    { property: 'og:image', content: image },
    { property: 'og:locale', content: localeTags[root.locale].replace('-', '_') },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:image', content: image },
    { tagName: 'link', rel: 'canonical', href: url(root.locale) },
    { tagName: 'link', rel: 'alternate', hrefLang: 'ar', href: url('ar') },
    { tagName: 'link', rel: 'alternate', hrefLang: 'en', href: url('en') },
    { tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: url('ar') },
  ];
  if (page.description) {
    tags.push(
      { name: 'description', content: page.description },
      { property: 'og:description', content: page.description },
      { name: 'twitter:description', content: page.description },
    );
  }
  if (page.noindex) tags.push({ name: 'robots', content: 'noindex' });
  return tags;
}

/** The `meta` export of a page whose loader returns `meta: PageMetaInput`. */
export function routeMeta(args: {
  loaderData?: { meta?: PageMetaInput } | undefined;
  matches: ReadonlyArray<{ loaderData?: unknown } | undefined>;
  location: { pathname: string };
}): MetaDescriptor[] {
  return pageMeta(
    args.matches[0]?.loaderData as RootMetaData | undefined,
    args.location.pathname,
    args.loaderData?.meta,
  );
}

/** The document title when a layout shows the error page: 404, 403 or anything else. */
export function errorMeta(args: {
  error?: unknown;
  matches: ReadonlyArray<{ loaderData?: unknown } | undefined>;
}): MetaDescriptor[] {
  const root = args.matches[0]?.loaderData as
    | { siteTitle: string; errorTitles: { notFound: string; forbidden: string; other: string } }
    | undefined;
  if (!args.error || !root) return [];
  const status = isRouteErrorResponse(args.error) ? args.error.status : 500;
  const title =
    status === 404 ? root.errorTitles.notFound : status === 403 ? root.errorTitles.forbidden : root.errorTitles.other;
  return [{ title: `${title} | ${root.siteTitle}` }, { name: 'robots', content: 'noindex' }];
}
