// A strict reader for the XML the sitemap writes, and the structure of the sitemap schema
// (sitemaps.org 0.9) checked element by element: no XSD download, no XML library. The reader
// accepts the subset the sitemap uses (declaration, elements, double-quoted attributes, text with
// the five entities and character references) and throws on anything else, so a stray `&` or `<`,
// a tag left open or closed twice fails the test.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const TEXT = /^(?:[^&<>]|&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)*$/;
const ATTR_VALUE = /^(?:[^&<"]|&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)*$/;
const NAME = '[A-Za-z_][\\w.-]*(?::[A-Za-z_][\\w.-]*)?';

const decodeEntities = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_m, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[e]) return named[e];
    return String.fromCodePoint(e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
  });

/** Parses a document; throws with the offset of the first thing that is not well-formed. */
export function parseXml(xml: string): XmlElement {
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(xml);
  if (!declaration) throw new Error('no XML declaration with UTF-8 encoding');
  const token = new RegExp(`<(/?)(${NAME})((?:\\s+${NAME}="[^"]*")*)\\s*(/?)>|([^<]+)`, 'y');
  token.lastIndex = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (token.lastIndex < xml.length) {
    const at = token.lastIndex;
    const m = token.exec(xml);
    if (!m) throw new Error(`not well-formed at ${at}: ${JSON.stringify(xml.slice(at, at + 60))}`);
    const [, closing, name, attrText, selfClosing, text] = m;
    if (text !== undefined) {
      if (!TEXT.test(text)) throw new Error(`bad character data at ${at}: ${JSON.stringify(text.slice(0, 60))}`);
      const top = stack.at(-1);
      if (!top) {
        if (text.trim()) throw new Error(`text outside the root element at ${at}`);
        continue;
      }
      top.text += decodeEntities(text);
      continue;
    }
    if (closing) {
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> at ${at} closes <${open?.name ?? 'nothing'}>`);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(new RegExp(`(${NAME})="([^"]*)"`, 'g'))) {
      if (a[1] in attrs) throw new Error(`attribute ${a[1]} twice at ${at}`);
      if (!ATTR_VALUE.test(a[2])) throw new Error(`bad attribute value at ${at}: ${a[2]}`);
      attrs[a[1]] = decodeEntities(a[2]);
    }
    const element: XmlElement = { name, attrs, children: [], text: '' };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else if (root) throw new Error(`a second root element <${name}> at ${at}`);
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length) throw new Error(`<${stack.at(-1)?.name}> is never closed`);
  if (!root) throw new Error('no root element');
  return root;
}

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const XHTML_NS = 'http://www.w3.org/1999/xhtml';
/** W3C Datetime (the schema's xsd:date or xsd:dateTime with a time zone). */
export const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

function checkLoc(loc: XmlElement | undefined, where: string): string {
  if (loc?.name !== 'loc') throw new Error(`${where}: <loc> must come first`);
  if (loc.children.length) throw new Error(`${where}: <loc> holds elements`);
  const url = loc.text;
  // tLoc: xsd:anyURI of 12 to 2048 characters; absolute http(s).
  if (url.length < 12 || url.length > 2048) throw new Error(`${where}: <loc> of ${url.length} characters`);
  if (!/^https?:\/\/[^\s/]+\/[^\s]*$/.test(url) && !/^https?:\/\/[^\s/]+$/.test(url))
    throw new Error(`${where}: <loc> is not an absolute URL: ${url}`);
  if (/[^\x21-\x7e]/.test(url)) throw new Error(`${where}: <loc> is not percent-encoded: ${url}`);
  return url;
}

function checkLastmod(el: XmlElement, where: string) {
  if (el.children.length || !W3C_DATETIME.test(el.text)) throw new Error(`${where}: <lastmod> ${el.text}`);
}

export interface SitemapIndex {
  sitemaps: { loc: string; lastmod?: string }[];
}

/** A <sitemapindex>: namespace, ≤ 50,000 <sitemap>, each <loc> then an optional <lastmod>. */
export function checkSitemapIndex(xml: string): SitemapIndex {
  const root = parseXml(xml);
  if (root.name !== 'sitemapindex') throw new Error(`root is <${root.name}>`);
  if (root.attrs.xmlns !== SITEMAP_NS) throw new Error(`sitemapindex namespace ${root.attrs.xmlns}`);
  if (root.text.trim()) throw new Error('text in <sitemapindex>');
  if (root.children.length === 0 || root.children.length > 50_000) throw new Error(`${root.children.length} sitemaps`);
  return {
    sitemaps: root.children.map((s, i) => {
      const where = `sitemap ${i + 1}`;
      if (s.name !== 'sitemap') throw new Error(`${where} is <${s.name}>`);
      if (s.text.trim()) throw new Error(`${where}: text in <sitemap>`);
      const [loc, lastmod, ...rest] = s.children;
      const url = checkLoc(loc, where);
      if (lastmod && lastmod.name !== 'lastmod') throw new Error(`${where}: <${lastmod.name}> after <loc>`);
      if (lastmod) checkLastmod(lastmod, where);
      if (rest.length) throw new Error(`${where}: <${rest[0].name}> after <lastmod>`);
      return { loc: url, lastmod: lastmod?.text };
    }),
  };
}

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
  alternates: Record<string, string>;
}

/**
 * A <urlset>: namespaces, 1 to 50,000 <url>, each <loc>, <lastmod>?, <changefreq>?, <priority>?
 * then elements of other namespaces only (here xhtml:link alternates, one per hreflang).
 */
export function checkUrlset(xml: string): SitemapUrl[] {
  const root = parseXml(xml);
  if (root.name !== 'urlset') throw new Error(`root is <${root.name}>`);
  if (root.attrs.xmlns !== SITEMAP_NS) throw new Error(`urlset namespace ${root.attrs.xmlns}`);
  if (root.text.trim()) throw new Error('text in <urlset>');
  if (root.children.length === 0 || root.children.length > 50_000) throw new Error(`${root.children.length} urls`);
  const xhtml = Object.entries(root.attrs).find(([, v]) => v === XHTML_NS)?.[0];
  return root.children.map((u, i) => {
    const where = `url ${i + 1}`;
    if (u.name !== 'url') throw new Error(`${where} is <${u.name}>`);
    if (u.text.trim()) throw new Error(`${where}: text in <url>`);
    const [loc, ...rest] = u.children;
    const url: SitemapUrl = { loc: checkLoc(loc, where), alternates: {} };
    const order = ['lastmod', 'changefreq', 'priority'];
    let k = 0;
    for (; k < rest.length && order.includes(rest[k].name); k++) {
      const el = rest[k];
      if (k > 0 && order.indexOf(el.name) <= order.indexOf(rest[k - 1].name))
        throw new Error(`${where}: <${el.name}> out of order`);
      if (el.name === 'lastmod') {
        checkLastmod(el, where);
        url.lastmod = el.text;
      }
    }
    for (const el of rest.slice(k)) {
      const prefix = el.name.includes(':') ? el.name.split(':')[0] : undefined;
      if (!prefix) throw new Error(`${where}: <${el.name}> of the sitemap namespace out of place`);
      if (`xmlns:${prefix}` !== xhtml || el.name !== `${prefix}:link`)
        throw new Error(`${where}: unexpected <${el.name}>`);
      const { rel, hreflang, href } = el.attrs;
      if (rel !== 'alternate' || !hreflang || !href) throw new Error(`${where}: incomplete alternate link`);
      if (hreflang in url.alternates) throw new Error(`${where}: hreflang ${hreflang} twice`);
      checkLoc({ name: 'loc', attrs: {}, children: [], text: href }, `${where} ${hreflang}`);
      url.alternates[hreflang] = href;
    }
    return url;
  });
}
