// Editing a live ad over real HTTP (docs/product/ads.md, "Editing a live ad"): the owner's edit that
// needs review waits as a pending change while the approved version stays on the site; the owner
// sees it, edits it again or withdraws it; moderators find it in the queue's "Changes" tab,
// compare it and approve or reject it. Every action is guarded on the server.
import { beforeAll, describe, expect, it } from 'vitest';
import { adRef, adStatus, member, type PlacedTestAd, placeToyota, publish, toyotaForm } from '../support/ads.ts';
import { type Browser, browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';

const RUN = Date.now().toString(36);
const title = (id: number) => sql<{ title: string }>('select title from ads where id = ?', id)[0]?.title;
const price = (id: number) => Number(sql<{ price: number }>('select price from ads where id = ?', id)[0]?.price);
const pendingChange = (id: number) =>
  sql<{ changes: string }>('select changes from ad_pending_changes where ad_id = ?', id).map((r) =>
    JSON.parse(r.changes),
  )[0] ?? null;

async function signIn(login: string, password = 'password123'): Promise<Browser> {
  const b = browser();
  const res = await b.post('/en/login', { login, password });
  expect(res.status).toBe(302);
  return b;
}

let moderator: Browser;
let owner: Browser;
let stranger: Browser;

/** A published Toyota ad of the owner with a fresh title. */
async function liveAd(name: string): Promise<PlacedTestAd> {
  const ad = await placeToyota(owner, `Toyota Corolla ${name} ${RUN}`);
  publish(ad.id, 2);
  return adRef(ad.id);
}

beforeAll(async () => {
  moderator = await signIn('moderator@souq.test');
  owner = await member('live-edit');
  stranger = await member('live-edit-stranger');
});

describe('the owner’s edit of a live ad', () => {
  it('keeps the approved version on the site while the change waits, and shows the owner it waits', async () => {
    const ad = await liveAd('waiting');
    const res = await owner.post(`${ad.own}/edit`, toyotaForm(`Toyota Corolla mint ${RUN}`, { price: '48000' }));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(ad.own);
    expect(await (await owner.get(ad.own)).text()).toContain('Your ad stays online as it was');
    expect(adStatus(ad.id)).toBe('published');
    expect(title(ad.id)).toBe(`Toyota Corolla waiting ${RUN}`);
    expect(price(ad.id)).toBe(45000);
    expect(pendingChange(ad.id)).toEqual({
      title: [`Toyota Corolla waiting ${RUN}`, `Toyota Corolla mint ${RUN}`],
      price: [45000, 48000],
    });

    // Visitors see the approved version.
    const pub = await (await browser().get(ad.url)).text();
    expect(pub).toContain(`Toyota Corolla waiting ${RUN}`);
    expect(pub).not.toContain(`Toyota Corolla mint ${RUN}`);
    expect(pub).not.toContain('Changes waiting for review');
    expect(await (await owner.get(ad.url)).text()).toContain('Changes waiting for review');

    // The owner sees it waiting: in the list, on the ad's page, and the form opens on the change.
    expect(await (await owner.get('/en/profile/posts')).text()).toContain('Changes waiting for review');
    const own = await (await owner.get(ad.own)).text();
    expect(own).toContain('Withdraw changes');
    const form = await (await owner.get(`${ad.own}/edit`)).text();
    expect(form).toContain(`value="Toyota Corolla mint ${RUN}"`);
    expect(form).toContain('The form shows your changes waiting for review.');
    const arabic = await (await owner.get(ad.own.replace('/en/', '/'))).text();
    expect(arabic).toContain('تغييرات بانتظار المراجعة');
  });

  it('applies a price drop at once', async () => {
    const ad = await liveAd('cheaper');
    const res = await owner.post(`${ad.own}/edit`, toyotaForm(`Toyota Corolla cheaper ${RUN}`, { price: '41000' }));
    expect(res.headers.get('location')).toBe(ad.own);
    expect(price(ad.id)).toBe(41000);
    expect(pendingChange(ad.id)).toBeNull();
  });

  it('lets only the owner withdraw the change; a bad id is a 4xx', async () => {
    const ad = await liveAd('withdrawn');
    await owner.post(`${ad.own}/edit`, toyotaForm(`Toyota Corolla second thoughts ${RUN}`));
    expect((await stranger.post('/en/profile/posts', { id: String(ad.id), intent: 'withdraw-change' })).status).toBe(
      404,
    );
    expect((await browser().post('/en/profile/posts', { id: String(ad.id), intent: 'withdraw-change' })).status).toBe(
      302,
    );
    expect(pendingChange(ad.id)).not.toBeNull();
    const bad = await owner.post('/en/profile/posts', { id: 'abc', intent: 'withdraw-change' });
    expect(bad.status).toBe(422);
    const done = await owner.post('/en/profile/posts', { id: String(ad.id), intent: 'withdraw-change' });
    expect(done.headers.get('location')).toBe('/en/profile/posts');
    expect(pendingChange(ad.id)).toBeNull();
    expect(title(ad.id)).toBe(`Toyota Corolla withdrawn ${RUN}`);
    // Nothing left to withdraw: the same 404 as a missing ad.
    expect((await owner.post('/en/profile/posts', { id: String(ad.id), intent: 'withdraw-change' })).status).toBe(404);
  });
});

describe('moderating a pending change', () => {
  let ad: PlacedTestAd;
  beforeAll(async () => {
    ad = await liveAd('moderated');
    await owner.post(`${ad.own}/edit`, toyotaForm(`Toyota Corolla reviewed ${RUN}`));
  });

  it('lists the ad in the Changes tab and compares the fields on the review page', async () => {
    const queue = await (await moderator.get('/en/admin/posts?changes=1')).text();
    expect(queue).toContain(`Toyota Corolla moderated ${RUN}`);
    expect(queue).toContain('Change waiting');
    expect(queue).not.toContain('Approve selected');
    const review = await (await moderator.get(`/en/admin/posts/${ad.id}?changes=1`)).text();
    expect(review).toContain('Changes waiting for review');
    expect(review).toContain('Live now');
    expect(review).toContain(`Toyota Corolla reviewed ${RUN}`);
    expect(review).toContain('Approve the changes');
    const arabic = await (await moderator.get(`/admin/posts/${ad.id}`)).text();
    expect(arabic).toContain('الموافقة على التعديلات');
  });

  it('refuses visitors, members and staff without approve-ads, and changes nothing', async () => {
    const visitor = await browser().post(`/en/admin/posts/${ad.id}`, { intent: 'approve-change' });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toContain('/en/login');
    expect((await owner.post(`/en/admin/posts/${ad.id}`, { intent: 'approve-change' })).status).toBe(404);
    const viewer = await member('live-edit-viewer');
    const viewerId = sql<{ id: string }>(
      "select id from users where email like 'live-edit-viewer-%' order by created_at desc limit 1",
    )[0]?.id;
    expect(viewerId).toBeTruthy();
    sql(
      "insert into user_permissions (user_id, permission_id) select ?, id from permissions where name = 'view-ads' returning user_id",
      viewerId as string,
    );
    const review = await viewer.get(`/en/admin/posts/${ad.id}`);
    expect(review.status).toBe(200);
    expect(await review.text()).not.toContain('Approve the changes');
    const forms: Record<string, string>[] = [
      { intent: 'approve-change' },
      { intent: 'reject-change', reason: 'duplicate' },
    ];
    for (const form of forms) {
      expect((await viewer.post(`/en/admin/posts/${ad.id}`, form)).status, form.intent).toBe(403);
    }
    expect(title(ad.id)).toBe(`Toyota Corolla moderated ${RUN}`);
    expect(pendingChange(ad.id)).not.toBeNull();
  });

  it('needs a reason to reject (a translated 422), then keeps the live version and tells the owner', async () => {
    const bad = await moderator.post(`/en/admin/posts/${ad.id}`, { intent: 'reject-change' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Choose a reason');
    const rejected = await moderator.post(`/en/admin/posts/${ad.id}`, {
      intent: 'reject-change',
      reason: 'misleading-price',
    });
    expect(rejected.status).toBe(302);
    expect(rejected.headers.get('location')).toContain('done=change-rejected');
    expect(pendingChange(ad.id)).toBeNull();
    expect(title(ad.id)).toBe(`Toyota Corolla moderated ${RUN}`);
    const note = sql<{ type: string; data: string }>(
      "select type, data from notifications where type = 'ad-rejected' and data like ?",
      `%"ad_id":${ad.id},%`,
    )[0];
    expect(JSON.parse(note?.data ?? '{}')).toMatchObject({ reason: 'misleading-price', change: true });
    // No change left to decide: a translated 404, not a server error.
    expect((await moderator.post(`/en/admin/posts/${ad.id}`, { intent: 'approve-change' })).status).toBe(404);
  });

  it('approves a change: the new version goes live at once', async () => {
    await owner.post(`${ad.own}/edit`, toyotaForm(`Toyota Corolla approved ${RUN}`));
    const approved = await moderator.post(`/en/admin/posts/${ad.id}`, { intent: 'approve-change' });
    expect(approved.status).toBe(302);
    expect(approved.headers.get('location')).toContain('done=change-approved');
    expect(title(ad.id)).toBe(`Toyota Corolla approved ${RUN}`);
    expect(adStatus(ad.id)).toBe('published');
    const moved = adRef(ad.id);
    expect(await (await browser().get(moved.url)).text()).toContain(`Toyota Corolla approved ${RUN}`);
  });
});
