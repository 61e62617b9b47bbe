// Where a `redirect=`-style parameter may send a browser: only to a page of this site. The value is
// read the way a browser reads a Location header — by the URL parser, which drops tabs and line
// breaks, trims control characters and spaces, reads `\` as `/` and resolves `.` and `..` — so
// `/\t/evil.example`, `/\evil.example` and `/.//evil.example` are seen as the `//evil.example` they
// are. What is returned is the parser's own path, query and fragment (percent-encoded ASCII), never
// the raw input.

/** An origin no request can have: a value that resolves elsewhere names another site. */
const HERE = 'http://souq.invalid';

/** `value` as a local path of this site, or `fallback` when it names anything else. */
export function localPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || value.length > 2048) return fallback;
  let url: URL;
  try {
    url = new URL(value, HERE);
  } catch {
    return fallback;
  }
  if (url.origin !== HERE) return fallback;
  // Relative input resolves against HERE's root; only an absolute path is what a link here writes.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the URL parser skips leading C0 controls, so this must too.
  if (!/^[\s\x00-\x1f]*[/\\]/.test(value)) return fallback;
  // A path beginning `//` (after `.` and `..` are resolved) would be read as another host.
  if (url.pathname.startsWith('//')) return fallback;
  return url.pathname + url.search + url.hash;
}
