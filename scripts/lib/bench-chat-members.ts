// Members of the realtime section's chat figure (scripts/bench-realtime.ts), made through the app's
// own HTTP API as an app would: each signs in with a Firebase ID token
// (`POST /api/auth/sign-in/firebase`, server/auth/firebase-plugin.ts: a new member and a session
// cookie), the tokens signed by a key the bench serves as the server's FIREBASE_JWKS_URL. No
// password is hashed: a password sign-in costs two scrypt hashes a member (the sign-in figures of
// `npm run bench` measure those), which for a hundred members would take the section a minute on
// a busy two-core machine. The seller (a confirmed phone number, from the token) places a Toyota
// ad through the page form, published at once (the server runs with MODERATION=post); each buyer
// starts a chat about it with `POST /api/chats`. Every write after the sign-in carries the session
// cookie and the anti-forgery header (`GET /api/csrf-cookie`, docs/api.md), and each member speaks
// from an address of their own (the Firebase exchange allows 30 a client address in 15 minutes).
import http from 'node:http';
import { importJWK, type JWK, SignJWT } from 'jose';

export interface FirebaseKey {
  projectId: string;
  kid: string;
  /** The private half of the key the server's FIREBASE_JWKS_URL publishes. */
  privateJwk: JWK;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A member's HTTP client: their cookies, their keep-alive connections, their client address. */
export class Member {
  id = '';
  readonly cookies = new Map<string, string>();
  readonly base: string;
  readonly agent: http.Agent;

  constructor(base: string, address: string) {
    this.base = base;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: address });
  }

  /** One request with the member's cookies (kept from every answer's Set-Cookie). */
  request(
    method: string,
    pathname: string,
    opts: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const url = new URL(pathname, this.base);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'souq-bench', ...opts.headers };
    let body: string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    } else if (opts.form) {
      body = new URLSearchParams(opts.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
      // Page forms are checked by their Origin (docs/api.md): the site's own.
      headers.origin = url.origin;
    }
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (method !== 'GET' && xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise((resolve, reject) => {
      const req = http.request(url, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const pair = line.split(';')[0] ?? '';
            const i = pair.indexOf('=');
            if (i <= 0) continue;
            const value = pair.slice(i + 1);
            if (value === '' || /max-age=0\b/i.test(line)) this.cookies.delete(pair.slice(0, i));
            else this.cookies.set(pair.slice(0, i), value);
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Signs the member in with a Firebase ID token for `uid` (a phone number when given, confirmed). */
  async signIn(key: FirebaseKey, uid: string, name: string, phone?: string): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({
      name,
      auth_time: now - 5,
      firebase: { sign_in_provider: 'phone' },
      ...(phone ? { phone_number: phone } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuer(`https://securetoken.google.com/${key.projectId}`)
      .setAudience(key.projectId)
      .setSubject(uid)
      .setIssuedAt(now - 5)
      .setExpirationTime(now + 3600)
      .sign(await signingKey(key));
    const res = await this.request('POST', '/api/auth/sign-in/firebase', { json: { idToken } });
    await this.expect(res, 200, 'POST /api/auth/sign-in/firebase');
    this.id = (JSON.parse(res.body) as { user: { id: string } }).user.id;
    // Then the anti-forgery cookie that the API's writes echo.
    await this.expect(await this.request('GET', '/api/csrf-cookie'), 204, 'GET /api/csrf-cookie');
  }

  /** Signs a subscription to `channel` for socket `socketId` (`POST /api/broadcasting/auth`). */
  async authorize(socketId: string, channel: string): Promise<{ auth: string; channel_data?: string }> {
    const res = await this.request('POST', '/api/broadcasting/auth', {
      json: { socket_id: socketId, channel_name: channel },
    });
    await this.expect(res, 200, `POST /api/broadcasting/auth for ${channel}`);
    return JSON.parse(res.body) as { auth: string; channel_data?: string };
  }

  async expect(res: Answer, status: number, what: string) {
    if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${res.body.slice(0, 300)}`);
  }

  close() {
    this.agent.destroy();
  }
}

let imported: { jwk: JWK; key: CryptoKey | Uint8Array } | null = null;
async function signingKey(key: FirebaseKey) {
  if (imported?.jwk !== key.privateJwk)
    imported = { jwk: key.privateJwk, key: await importJWK(key.privateJwk, 'RS256') };
  return imported.key;
}

/** The first words of a buyer, and of every bench message (no digits: the safety flags stay quiet). */
export const CHAT_TEXT = 'السلام عليكم، هل السيارة ما زالت متوفرة؟ وكم آخر سعر؟';

/**
 * The seller's ad: a Toyota Corolla in Tripoli through the place-an-ad form, published at once
 * (MODERATION=post). Returns its id.
 */
export async function placeAd(seller: Member): Promise<number> {
  const cities = await seller.request('GET', '/api/cities');
  await seller.expect(cities, 200, 'GET /api/cities');
  const tripoli = (JSON.parse(cities.body) as { data: { id: number; slug: string }[] }).data.find(
    (c) => c.slug === 'tripoli',
  );
  if (!tripoli) throw new Error('no city "tripoli" in GET /api/cities');
  const res = await seller.request('POST', '/en/place-your-ad/motors/cars/toyota', {
    form: {
      title: 'Toyota Corolla 2015 clean',
      description: 'Clean car, one owner, full service history in Tripoli.',
      price_type: 'fixed',
      price: '45000',
      currency: 'LYD',
      city: String(tripoli.id),
      'attrs.year': '2015',
      'attrs.model': 'corolla',
      contact_phone: 'on',
      submission_key: `bench-${Date.now()}`,
    },
  });
  const id = Number(/placed=(\d+)/.exec(String(res.headers.location ?? ''))?.[1] ?? 0);
  if (!id) throw new Error(`placing the ad answered ${res.status} ${res.headers.location ?? res.body.slice(0, 300)}`);
  const card = await seller.request('GET', `/api/posts/${id}/card`);
  await seller.expect(card, 200, `the placed ad ${id} (published?)`);
  return id;
}

/** The buyer starts a chat about `adId` with a first message: its id. */
export async function startChat(buyer: Member, adId: number, clientKey: string): Promise<number> {
  const res = await buyer.request('POST', '/api/chats', {
    json: { ad_id: adId, body: CHAT_TEXT, client_key: clientKey },
  });
  await buyer.expect(res, 201, 'POST /api/chats');
  return (JSON.parse(res.body) as { data: { chat_id: number } }).data.chat_id;
}
