// A tiny browser over fetch for the HTTP suite: a cookie jar, a browser User-Agent (isbot flags
// node's), same-origin form posts, and its own client address. The server under test trusts one
// proxy hop, so each browser's X-Forwarded-For is its IP: per-address rate limits then apply per
// simulated visitor, as they would across real visitors, instead of to the whole suite.
import { inject } from 'vitest';

export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

// Each test file (its own module instance) starts its visitors' addresses at a different place:
// the files share one server, and two files' visitors must not share per-address limits.
let nextAddress = Math.floor(Math.random() * 0xf00000);

export interface WhoAmI {
  logged_in: boolean;
  user:
    | null
    | ({ email: string | null; is_super_admin: boolean; permissions: string[]; roles: string[] } & Record<
        string,
        unknown
      >);
}

/** The n-th address of the 10.0.0.0/8 range, never a .0 or .255 host. */
function addressOf(n: number): string {
  const host = n % 250;
  const rest = Math.floor(n / 250);
  return `10.${(rest >> 8) & 255}.${rest & 255}.${host + 1}`;
}

export function browser(ip = addressOf(nextAddress++), base: string = inject('baseUrl')) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const store = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim())) || value === '';
      if (expired) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const headers = () => ({ 'user-agent': BROWSER_UA, cookie: cookieHeader(), 'x-forwarded-for': ip });
  return {
    ip,
    jar,
    cookieHeader,
    async get(path: string) {
      const res = await fetch(base + path, { redirect: 'manual', headers: headers() });
      store(res);
      return res;
    },
    async post(path: string, form: Record<string, string>, origin = base) {
      const res = await fetch(base + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...headers(), origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      store(res);
      return res;
    },
    async whoami(): Promise<WhoAmI> {
      return (await this.get('/api/is-logged-in')).json() as Promise<WhoAmI>;
    },
  };
}

export type Browser = ReturnType<typeof browser>;
