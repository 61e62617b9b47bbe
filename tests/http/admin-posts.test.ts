import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { testPhoneNumber } from '../support/ad-fixtures.ts';
import { BROWSER_UA, type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn } from '../support/members.ts';
import { serverSql as query, withServerDb } from '../support/server-db.ts';

const base = inject('baseUrl');

const run = (sql: string, ...args: (string | number)[]) => withServerDb((db) => db.prepare(sql).run(...args));
const status = (id: number) => query<{ status: string }>('select status from ads where id = ?', id)[0]?.status;

/** Cities nobody else's tests post in: the queue filtered by them holds only this file's ads. */
const CITY = 'ghat';
const OTHER_CITY = 'qatrun';
const RUN = `r${Date.now().toString(36)}`;

async function signIn(login: string, password = 'password123'): Promise<Browser> {
  const b = browser();
  const res = await b.post('/en/login', { login, password });
  expect(res.status).toBe(302);
  return b;
}

async function register(name: string): Promise<{ b: Browser; email: string; id: string }> {
  const b = browser();
  const email = `${name.toLowerCase()}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await registerAndSignIn(b, { name: name, email, password: 'moderation-passphrase' });
  const id = query<{ id: string }>('select id from users where email = ?', email)[0]?.id as string;
  // Placing an ad needs a confirmed phone number.
  query(
    'update users set phone_number = ?, phone_number_verified = 1 where id = ? returning id',
    testPhoneNumber(),
    id,
  );
  return { b, email, id };
}

/** A form post with repeated names (`ids=1&ids=2`), as a browser sends ticked checkboxes. */
function postEntries(b: Browser, pathname: string, entries: [string, string][]) {
  return fetch(base + pathname, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'user-agent': BROWSER_UA,
      cookie: b.cookieHeader(),
      'x-forwarded-for': b.ip,
      origin: base,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(entries).toString(),
  });
}

const cityId = (slug: string) => query<{ id: number }>('select id from cities where slug = ?', slug)[0]?.id as number;

const TOYOTA = '/en/place-your-ad/motors/cars/toyota';
const IPHONE = '/en/place-your-ad/electronics/mobile-phones/iphone';

async function placeAd(b: Browser, form: string, title: string, over: Record<string, string> = {}): Promise<number> {
  const attrs: Record<string, string> =
    form === TOYOTA
      ? { 'attrs.year': '2015', 'attrs.model': 'corolla' }
      : { 'attrs.model': 'iphone-15-pro-max', 'attrs.condition': 'used' };
  const res = await b.post(form, {
    title,
    description: `${title}: clean, one owner, seen in the south. Call or write.`,
    price_type: 'fixed',
    price: '45000',
    currency: 'LYD',
    city: String(cityId(CITY)),
    contact_phone: 'on',
    submission_key: `k-${Math.random()}`,
    ...attrs,
    ...over,
  });
  expect(res.status, await res.clone().text()).toBe(302);
  const id = Number(/placed=(\d+)/.exec(res.headers.get('location') ?? '')?.[1]);
  expect(status(id)).toBe('pending');
  return id;
}

/** A photo uploaded through the API as the member's pending photo; its id. */
async function uploadPhoto(b: Browser): Promise<number> {
  expect((await b.get('/api/csrf-cookie')).status).toBe(204);
  const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2d9c68' } })
    .jpeg()
    .toBuffer();
  const body = new FormData();
  body.set('photo', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'car.jpg');
  const res = await fetch(`${base}/api/ad-images`, {
    method: 'POST',
    headers: {
      'user-agent': BROWSER_UA,
      cookie: b.cookieHeader(),
      'x-forwarded-for': b.ip,
      accept: 'application/json',
      'x-xsrf-token': b.jar.get('XSRF-TOKEN') ?? '',
    },
    body,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** Today in Libya (UTC+2) plus `days`, `YYYY-MM-DD`. */
const libyaDay = (days: number) => new Date(Date.now() + 2 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

const titles = {
  first: `Queue Toyota first ${RUN}`,
  second: `Queue Toyota second ${RUN}`,
  phone: `Queue iPhone ${RUN}`,
  reported: `Queue reported ${RUN}`,
  other: `Queue other city ${RUN}`,
};

const page = async (b: Browser, pathname: string) => {
  const res = await b.get(pathname);
  return { status: res.status, html: await res.text() };
};
/** The result count the queue states ("12 ads"). */
const resultCount = (html: string) => Number(/>(\d+) ads?</.exec(html)?.[1]);

let moderator: Browser;
let moderatorId: string;
let seller: Awaited<ReturnType<typeof register>>;
let buyer: Awaited<ReturnType<typeof register>>;
const ads: Record<keyof typeof titles, number> = { first: 0, second: 0, phone: 0, reported: 0, other: 0 };
/** What the filtered views held before this file placed its ads (demo data may live there too). */
const before = { city: 0, phones: 0, reported: 0 };

beforeAll(async () => {
  moderator = await signIn('moderator@souq.test');
  moderatorId = query<{ id: string }>("select id from users where email = 'moderator@souq.test'")[0]?.id as string;
  seller = await register('Seller');
  buyer = await register('Buyer');
  before.city = resultCount((await page(moderator, `/en/admin/posts?city=${CITY}`)).html);
  before.phones = resultCount((await page(moderator, `/en/admin/posts?city=${CITY}&taxonomy=electronics`)).html);
  before.reported = resultCount((await page(moderator, `/en/admin/posts?city=${CITY}&reported=1`)).html);
  const photo = await uploadPhoto(seller.b);
  ads.first = await placeAd(seller.b, TOYOTA, titles.first, { photos: String(photo) });
  ads.second = await placeAd(seller.b, TOYOTA, titles.second);
  ads.phone = await placeAd(buyer.b, IPHONE, titles.phone);
  ads.reported = await placeAd(buyer.b, TOYOTA, titles.reported);
  ads.other = await placeAd(buyer.b, TOYOTA, titles.other, { city: String(cityId(OTHER_CITY)) });
  // An abuse report (members file them from the ad page; written here directly).
  run(
    "insert into reports (reporter_id, ad_id, reason, note, status) values (?, ?, 'scam', 'Asks for a deposit by transfer', 'open')",
    seller.id,
    ads.reported,
  );
});

describe('the moderation queue', () => {
  it('lists the pending ads oldest first, with photo, category path, city, price, owner, status and reports', async () => {
    const { status: code, html } = await page(moderator, `/en/admin/posts?city=${CITY}`);
    expect(code).toBe(200);
    const order = [titles.first, titles.second, titles.phone, titles.reported].map((t) => html.indexOf(t));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).not.toContain(titles.other);
    expect(html).toContain('Motors › Cars › Toyota');
    expect(html).toContain('Electronics › Mobile Phones › iPhone (Apple)');
    expect(html).toContain('Ghat');
    expect(html).toMatch(/LYD\s?45,000|45,000\s?LYD/);
    expect(html).toContain('Seller');
    expect(html).toContain('Pending review');
    expect(html).toContain('1 open report');
    expect(html).toMatch(/\/uploads\/ads\/[^"]+-thumb\.webp/);
    expect(html).toContain('No photo');
    expect(html).toMatch(/<time dateTime="[^"]+"[^>]*>[^<]*(ago|now)/i);
    expect(resultCount(html)).toBe(before.city + 4);
    // The sidebar offers the queue.
    expect(html).toContain('href="/en/admin/posts"');

    const arabic = await page(moderator, `/admin/posts?city=${CITY}`);
    expect(arabic.status).toBe(200);
    expect(arabic.html).toContain('مراجعة الإعلانات');
    expect(arabic.html).toContain('قيد المراجعة');
    expect(arabic.html).toContain('سيارات ومركبات › سيارات › تويوتا');
  });

  it('narrows by section, city and open reports; ignores invalid parameters', async () => {
    const phones = await page(moderator, `/en/admin/posts?city=${CITY}&taxonomy=electronics`);
    expect(phones.html).toContain(titles.phone);
    expect(phones.html).not.toContain(titles.first);
    expect(resultCount(phones.html)).toBe(before.phones + 1);

    const reported = await page(moderator, `/en/admin/posts?city=${CITY}&reported=1`);
    expect(reported.html).toContain(titles.reported);
    expect(reported.html).not.toContain(titles.phone);
    expect(resultCount(reported.html)).toBe(before.reported + 1);

    const other = await page(moderator, `/en/admin/posts?city=${OTHER_CITY}`);
    expect(other.html).toContain(titles.other);
    expect(other.html).not.toContain(titles.first);

    const plain = await page(moderator, '/en/admin/posts');
    const junk = await page(
      moderator,
      '/en/admin/posts?status=bogus&taxonomy=no-such-thing&city=%3Cscript%3E&reported=maybe&after=%3Cscript%3E',
    );
    expect(junk.status).toBe(200);
    expect(resultCount(junk.html)).toBe(resultCount(plain.html));
    expect(resultCount(plain.html)).toBeGreaterThanOrEqual(5);
    expect(junk.html).not.toContain('<script>');
    // A cursor that is not one of ours (base64url of "not-a-cursor") shows the first page.
    const stray = await page(moderator, `/en/admin/posts?city=${CITY}&after=bm90LWEtY3Vyc29y`);
    expect(stray.status).toBe(200);
    expect(stray.html).toContain(titles.first);
  });

  it('shows one ad in full: description, localised details, photos, owner, history and open reports', async () => {
    const phone = await page(moderator, `/en/admin/posts/${ads.phone}`);
    expect(phone.status).toBe(200);
    expect(phone.html).toContain(`${titles.phone}: clean, one owner`);
    expect(phone.html).toContain('iPhone 15 Pro Max');
    expect(phone.html).toContain('Condition');
    expect(phone.html).toContain('Used');
    expect(phone.html).toContain('Buyer');
    expect(phone.html).toContain('Status history');
    expect(phone.html).toContain('Placed: Pending review');
    expect(phone.html).toContain('Approve and publish');

    const arabic = await page(moderator, `/admin/posts/${ads.phone}`);
    expect(arabic.html).toContain('آيفون 15 برو ماكس');
    expect(arabic.html).toContain('مستعمل');

    const first = await page(moderator, `/en/admin/posts/${ads.first}`);
    expect(first.html).toMatch(/\/uploads\/ads\/[^"]+-medium\.webp/);
    expect(first.html).toContain('Photo 1 of 1');

    const reported = await page(moderator, `/en/admin/posts/${ads.reported}`);
    expect(reported.html).toContain('Scam');
    expect(reported.html).toContain('Asks for a deposit by transfer');
    expect(reported.html).toContain('Reported by Seller');

    expect((await moderator.get('/en/admin/posts/999999999')).status).toBe(404);
    expect((await moderator.get('/en/admin/posts/abc')).status).toBe(404);
  });

  it('approves: published, with history, revision and a notification for the owner', async () => {
    const res = await moderator.post(`/en/admin/posts/${ads.first}?city=${CITY}`, { intent: 'approve' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/en/admin/posts?city=${CITY}&done=approved&count=1`);
    expect(status(ads.first)).toBe('published');
    expect(
      query(
        'select type from notifications where user_id = ? and type = ? and data like ?',
        seller.id,
        'ad-approved',
        `%"ad_id":${ads.first}%`,
      ),
    ).toHaveLength(1);
    expect(
      query<{ actor_id: string; changes: string }>(
        "select actor_id, changes from revisions where subject_type = 'ad' and subject_id = ? and action = 'approve'",
        String(ads.first),
      ),
    ).toEqual([{ actor_id: moderatorId, changes: JSON.stringify({ status: ['pending', 'published'] }) }]);
    expect(
      query('select to_status from ad_status_history where ad_id = ? and actor_id = ?', ads.first, moderatorId),
    ).toEqual([{ to_status: 'published' }]);
    const after = await page(moderator, `/en/admin/posts?city=${CITY}&done=approved&count=1`);
    expect(after.html).toContain('1 ad approved and published.');
    expect(after.html).not.toContain(titles.first);
    expect((await page(moderator, `/en/admin/posts?city=${CITY}&status=published`)).html).toContain(titles.first);
    // Approving again is refused: the status machine has moved on.
    const again = await moderator.post(`/en/admin/posts/${ads.first}`, { intent: 'approve' });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain('status has changed');
  });

  it('rejects only with a reason, in the visitor’s language, and stores its code or the text', async () => {
    const bare = await moderator.post(`/en/admin/posts/${ads.second}`, { intent: 'reject' });
    expect(bare.status).toBe(422);
    expect(await bare.text()).toContain('Choose a reason for the rejection');
    const arabic = await moderator.post(`/admin/posts/${ads.second}`, { intent: 'reject', reason: '' });
    expect(arabic.status).toBe(422);
    expect(await arabic.text()).toContain('اختر سبب الرفض');
    const other = await moderator.post(`/en/admin/posts/${ads.second}`, { intent: 'reject', reason: 'other' });
    expect(other.status).toBe(422);
    expect(await other.text()).toContain('it is needed when the reason is “Other”');
    const unknown = await moderator.post(`/en/admin/posts/${ads.second}`, { intent: 'reject', reason: 'ugly' });
    expect(unknown.status).toBe(422);
    expect(status(ads.second)).toBe('pending');

    const res = await moderator.post(`/en/admin/posts/${ads.second}`, { intent: 'reject', reason: 'duplicate' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/admin/posts?done=rejected&count=1');
    expect(query('select status, rejection_reason from ads where id = ?', ads.second)).toEqual([
      { status: 'rejected', rejection_reason: 'duplicate' },
    ]);
    const note = query<{ data: string }>(
      "select data from notifications where user_id = ? and type = 'ad-rejected'",
      seller.id,
    );
    expect(note.map((n) => JSON.parse(n.data))).toContainEqual(
      expect.objectContaining({ ad_id: ads.second, reason: 'duplicate' }),
    );
    const shown = await page(moderator, `/en/admin/posts/${ads.second}`);
    expect(shown.html).toContain('Duplicate ad');

    // "Other" stores the moderator's words.
    const words = 'The photos show a different car';
    const withText = await moderator.post(`/en/admin/posts/${ads.phone}`, {
      intent: 'reject',
      reason: 'other',
      reason_text: words,
    });
    expect(withText.status).toBe(302);
    expect(query('select rejection_reason from ads where id = ?', ads.phone)).toEqual([{ rejection_reason: words }]);
  });

  it('approves and rejects in bulk, skipping ads whose status changed', async () => {
    const a = await placeAd(seller.b, TOYOTA, `Bulk one ${RUN}`);
    const b = await placeAd(seller.b, TOYOTA, `Bulk two ${RUN}`);
    const none = await postEntries(moderator, `/en/admin/posts?city=${CITY}`, [['intent', 'bulk-approve']]);
    expect(none.status).toBe(422);
    expect(await none.text()).toContain('Select at least one ad');

    const res = await postEntries(moderator, `/en/admin/posts?city=${CITY}`, [
      ['intent', 'bulk-approve'],
      ['ids', String(a)],
      ['ids', String(b)],
      ['ids', String(ads.first)], // already published: skipped
    ]);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/en/admin/posts?city=${CITY}&done=approved&count=2&skipped=1`);
    expect([status(a), status(b)]).toEqual(['published', 'published']);
    const notice = await page(moderator, res.headers.get('location') as string);
    expect(notice.html).toContain('2 ads approved and published.');
    expect(notice.html).toContain('1 ad was left as it was');

    const noReason = await postEntries(moderator, '/en/admin/posts', [
      ['intent', 'bulk-reject'],
      ['ids', String(a)],
    ]);
    expect(noReason.status).toBe(422);
    expect(await noReason.text()).toContain('Choose a reason for the rejection');
    const rejected = await postEntries(moderator, '/en/admin/posts?status=published', [
      ['intent', 'bulk-reject'],
      ['ids', String(a)],
      ['ids', String(b)],
      ['reason', 'poor-photos'],
    ]);
    expect(rejected.status).toBe(302);
    expect(query('select distinct rejection_reason from ads where id in (?, ?)', a, b)).toEqual([
      { rejection_reason: 'poor-photos' },
    ]);

    // A row's own approve button.
    const c = await placeAd(buyer.b, TOYOTA, `Row approve ${RUN}`);
    const row = await moderator.post('/en/admin/posts', { intent: `approve:${c}` });
    expect(row.status).toBe(302);
    expect(status(c)).toBe('published');
  });

  it('features an ad until the end of a Libyan day, with a revision, and stops featuring it', async () => {
    const past = await moderator.post(`/en/admin/posts/${ads.reported}`, { intent: 'feature', until: libyaDay(-1) });
    expect(past.status).toBe(422);
    expect(await past.text()).toContain('Choose today or a later day');
    const day = libyaDay(10);
    const res = await moderator.post(`/en/admin/posts/${ads.reported}`, { intent: 'feature', until: day });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/en/admin/posts/${ads.reported}?done=featured`);
    expect(query('select featured_until from ads where id = ?', ads.reported)).toEqual([
      { featured_until: new Date(`${day}T23:59:59.999+02:00`).toISOString() },
    ]);
    expect(
      query<{ changes: string }>(
        "select changes from revisions where subject_type = 'ad' and subject_id = ? and action = 'feature'",
        String(ads.reported),
      ).map((r) => JSON.parse(r.changes)),
    ).toEqual([{ featured_until: [null, new Date(`${day}T23:59:59.999+02:00`).toISOString()] }]);
    expect((await page(moderator, res.headers.get('location') as string)).html).toContain('The ad is featured.');

    const stop = await moderator.post(`/en/admin/posts/${ads.reported}`, { intent: 'unfeature' });
    expect(stop.status).toBe(302);
    expect(query('select featured_until from ads where id = ?', ads.reported)).toEqual([{ featured_until: null }]);
  });

  it('deletes an ad after confirmation; it stays visible to staff under "Deleted"', async () => {
    const unconfirmed = await moderator.post(`/en/admin/posts/${ads.other}`, { intent: 'delete' });
    expect(unconfirmed.status).toBe(422);
    expect(await unconfirmed.text()).toContain('Tick the box to confirm');
    expect(status(ads.other)).toBe('pending');
    const res = await moderator.post(`/en/admin/posts/${ads.other}?city=${OTHER_CITY}`, {
      intent: 'delete',
      confirm: 'on',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/en/admin/posts?city=${OTHER_CITY}&done=deleted&count=1`);
    expect(
      query<{ status: string; gone: number }>(
        'select status, deleted_at is not null as gone from ads where id = ?',
        ads.other,
      ),
    ).toEqual([{ status: 'deleted', gone: 1 }]);
    expect(
      query('select from_status, to_status from ad_status_history where ad_id = ? order by id desc limit 1', ads.other),
    ).toEqual([{ from_status: 'pending', to_status: 'deleted' }]);
    expect((await page(moderator, `/en/admin/posts?city=${OTHER_CITY}&status=deleted`)).html).toContain(titles.other);
    expect((await moderator.get(`/en/admin/posts/${ads.other}`)).status).toBe(200);
  });
});

describe('who may do what', () => {
  it('sends visitors to log in and answers 404 to members, for pages and actions', async () => {
    const visitor = await browser().get('/en/admin/posts?city=ghat');
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toBe('/en/login?redirect=%2Fen%2Fadmin%2Fposts%3Fcity%3Dghat');
    expect((await seller.b.get('/en/admin/posts')).status).toBe(404);
    expect((await seller.b.get(`/admin/posts/${ads.reported}`)).status).toBe(404);
    const approve = await seller.b.post(`/en/admin/posts/${ads.reported}`, { intent: 'approve' });
    expect(approve.status).toBe(404);
    const bulk = await postEntries(seller.b, '/en/admin/posts', [
      ['intent', 'bulk-approve'],
      ['ids', String(ads.reported)],
    ]);
    expect(bulk.status).toBe(404);
    expect(status(ads.reported)).toBe('pending');
  });

  it('lets staff with only view-ads look, without buttons, and answers 403 to their actions', async () => {
    const staff = await register('Viewer');
    run(
      "insert into user_permissions (user_id, permission_id) select ?, id from permissions where name = 'view-ads'",
      staff.id,
    );
    const viewer = await signIn(staff.email, 'moderation-passphrase');
    const list = await page(viewer, `/en/admin/posts?city=${CITY}`);
    expect(list.status).toBe(200);
    expect(list.html).toContain(titles.reported);
    expect(list.html).not.toContain('Approve selected');
    expect(list.html).not.toContain('name="intent"');
    const detail = await page(viewer, `/en/admin/posts/${ads.reported}`);
    expect(detail.status).toBe(200);
    expect(detail.html).toContain('You may look at ads but not change them.');
    expect(detail.html).not.toContain('name="intent"');

    const forms: Record<string, string>[] = [
      { intent: 'approve' },
      { intent: 'reject', reason: 'duplicate' },
      { intent: 'feature', until: libyaDay(3) },
      { intent: 'delete', confirm: 'on' },
    ];
    for (const form of forms) {
      const res = await viewer.post(`/en/admin/posts/${ads.reported}`, form);
      expect(res.status, form.intent).toBe(403);
    }
    const bulk = await postEntries(viewer, '/en/admin/posts', [
      ['intent', 'bulk-approve'],
      ['ids', String(ads.reported)],
    ]);
    expect(bulk.status).toBe(403);
    expect(query('select status, featured_until from ads where id = ?', ads.reported)).toEqual([
      { status: 'pending', featured_until: null },
    ]);
    expect(
      query(
        "select id from revisions where subject_type = 'ad' and subject_id = ? and actor_id = ?",
        String(ads.reported),
        staff.id,
      ),
    ).toEqual([]);
  });

  it('lets a super admin do everything', async () => {
    const admin = await signIn('admin@souq.test');
    const detail = await page(admin, `/en/admin/posts/${ads.reported}`);
    for (const label of ['Approve and publish', 'Reject', 'Feature', 'Delete the ad'])
      expect(detail.html).toContain(label);
    const res = await admin.post(`/en/admin/posts/${ads.reported}`, { intent: 'approve' });
    expect(res.status).toBe(302);
    expect(status(ads.reported)).toBe('published');
  });
});
