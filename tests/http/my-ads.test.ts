// /profile/posts and the own-ad page over real HTTP: tabs with counts, the owner's actions, and
// nobody else's ads.
import { describe, expect, it } from 'vitest';
import { adRef, adStatus, member, placeToyota, publish, toyotaForm } from '../support/ads.ts';
import { type Browser, browser } from '../support/http-browser.ts';
import { serverSql as sql } from '../support/server-db.ts';

const seller = () => member('mine');
const placeAd = (b: Browser, title: string) => placeToyota(b, title);
const status = adStatus;

describe('my ads', () => {
  it('lists the member’s ads by status with counts, and only theirs', async () => {
    const b = await seller();
    const a = await placeAd(b, 'Toyota Camry 2016 first');
    const c = await placeAd(b, 'Toyota Camry 2016 second');
    sql(
      "update ads set status = 'published', published_at = ?, bumped_at = ?, expires_at = ?, updated_at = ? where id = ? returning id",
      new Date().toISOString(),
      new Date(Date.now() - 8 * 86_400_000).toISOString(),
      new Date(Date.now() + 20 * 86_400_000).toISOString(),
      new Date().toISOString(),
      a.id,
    );
    const active = await (await b.get('/en/profile/posts')).text();
    expect(active).toContain('Toyota Camry 2016 first');
    expect(active).not.toContain('Toyota Camry 2016 second');
    const pending = await (await b.get('/en/profile/posts?status=pending')).text();
    expect(pending).toContain('Toyota Camry 2016 second');
    expect(pending).toContain('In review');
    const other = await (await (await seller()).get('/en/profile/posts?status=pending')).text();
    expect(other).not.toContain('Toyota Camry 2016 second');
    expect((await browser().get('/en/profile/posts')).status).toBe(302);
    expect(c.id).toBeGreaterThan(0);
  });

  it('lands on the tab holding a newly placed ad, with its confirmation', async () => {
    const b = await seller();
    const res = await b.post('/en/place-your-ad/motors/cars/toyota', toyotaForm('Toyota Avalon 2018 just placed'));
    expect(res.status).toBe(302);
    const location = res.headers.get('location') ?? '';
    // The test server moderates before publishing: the new ad waits on the pending tab.
    expect(location).toMatch(/^\/en\/profile\/posts\?status=pending&placed=\d+$/);
    const page = await (await b.get(location)).text();
    expect(page).toContain('Your ad has been sent');
    expect(page).toContain('Our team will review it shortly');
    expect(page).toContain('Toyota Avalon 2018 just placed');
    expect(page).toMatch(/aria-selected="true"[^>]*>.*?In review/s);
    // Someone else's id shows no confirmation.
    const stranger = await (await (await seller()).get(location)).text();
    expect(stranger).not.toContain('Your ad has been sent');
  });

  it('offers a repost only when it is possible, and says from when a bump will be', async () => {
    const b = await seller();
    const fresh = await placeAd(b, 'Toyota Prado 2012 bumped lately');
    const due = await placeAd(b, 'Toyota Prado 2012 bumped long ago');
    publish(fresh.id, 2);
    publish(due.id, 8);
    const html = await (await b.get('/en/profile/posts')).text();
    const card = (title: string) => html.slice(html.indexOf(title), html.indexOf('</li>', html.indexOf(title)));
    expect(card('bumped long ago')).toContain(`href="${due.own}/repost"`);
    expect(card('bumped long ago')).not.toContain('data-testid="repost-later"');
    expect(card('bumped lately')).not.toContain(`href="${fresh.own}/repost"`);
    const from = new Date(Date.now() + 5 * 86_400_000);
    // Dates are written with the month's name and Western digits (docs/product/site.md).
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'Africa/Tripoli' }).format(from);
    expect(card('bumped lately')).toContain(`Repost to the top from ${date}`);
    const arabic = await (await b.get('/profile/posts')).text();
    const day = from.toLocaleDateString('en-GB', { day: 'numeric', timeZone: 'Africa/Tripoli' });
    expect(arabic).toMatch(new RegExp(`الرفع إلى الأعلى متاح من ${day} [^ <]+ ${from.getUTCFullYear()}`));
  });

  it('lets the owner mark sold and delete; others get 404 and nothing changes', async () => {
    const b = await seller();
    const ad = await placeAd(b, 'Toyota Yaris 2019 city car');
    publish(ad.id, 8);
    const stranger = await seller();
    expect((await stranger.post('/en/profile/posts', { id: String(ad.id), intent: 'delete' })).status).toBe(404);
    expect(status(ad.id)).toBe('published');
    const sold = await b.post('/en/profile/posts?status=active', {
      id: String(ad.id),
      intent: 'mark-sold',
      confirmed: '1',
    });
    expect(sold.headers.get('location')).toBe('/en/profile/posts?status=active');
    expect(await (await b.get('/en/profile/posts?status=active')).text()).toContain('Marked as sold.');
    expect(await (await b.get('/en/profile/posts?status=sold')).text()).toContain('Toyota Yaris 2019 city car');
    await b.post('/en/profile/posts', { id: String(ad.id), intent: 'delete', confirmed: '1' });
    expect(status(ad.id)).toBe('deleted');
    expect((await b.get(ad.own)).status).toBe(404);
  });

  it('confirms a bump on the repost page, then refuses it inside the cool-down with the date', async () => {
    const b = await seller();
    const ad = await placeAd(b, 'Toyota Hilux 2014 pickup');
    expect(await (await b.get(`${ad.own}/repost`)).text()).toContain('Only active or expired ads can be reposted.');
    expect((await b.post(`${ad.own}/repost`, {})).status).toBe(422);
    publish(ad.id, 8);
    const page = await (await b.get(`${ad.own}/repost`)).text();
    expect(page).toContain('Bump your ad to the top');
    expect(page).toContain('once every 7 days');
    expect((await (await seller()).get(`${ad.own}/repost`)).status).toBe(404);
    expect((await (await seller()).post(`${ad.own}/repost`, {})).status).toBe(404);
    const bumped = await b.post(`${ad.own}/repost`, {});
    expect(bumped.headers.get('location')).toBe(ad.own);
    expect(await (await b.get(ad.own)).text()).toContain('Done: your ad is back at the top.');
    const later = await (await b.get(`${ad.own}/repost`)).text();
    expect(later).toContain('You can repost this ad again in 7 days.');
    expect(later).toContain('Next possible on');
    const again = await b.post(`${ad.own}/repost`, {});
    expect(again.status).toBe(422);
    expect((await b.get(`/en/profile/posts/motors/cars/x-${ad.id}/repost`)).headers.get('location')).toBe(
      `${ad.own}/repost`,
    );
  });

  it('renews an expired ad on the repost page, showing its cost against the allowance', async () => {
    const b = await seller();
    const ad = await placeAd(b, 'Toyota Avalon 2013 sedan');
    sql("update ads set status = 'expired', updated_at = ? where id = ? returning id", new Date().toISOString(), ad.id);
    const page = await (await b.get(`${ad.own}/repost`)).text();
    expect(page).toContain('Renew your ad');
    expect(page).toContain('It takes one of your 5 active ad places; you have 0 active now.');
    const renewed = await b.post(`${ad.own}/repost`, {});
    expect(renewed.headers.get('location')).toBe(ad.own);
    expect(status(ad.id)).toBe('published');
  });

  it('edits an ad with the same form, opened with its values; a material edit waits for review while the ad stays live', async () => {
    const b = await seller();
    const ad = await placeAd(b, 'Toyota Corolla 2015 for a family');
    publish(ad.id, 1);
    const form = await (await b.get(`${ad.own}/edit`)).text();
    expect(form).toContain('Edit your ad');
    expect(form).toContain('value="Toyota Corolla 2015 for a family"');
    expect(form).toContain('Clean car, one owner, full service history in Tripoli.');
    expect(form).toMatch(/<option value="corolla" selected="">/);
    expect(form).toContain('Save changes');
    expect(form).toContain('your ad stays online as it is meanwhile');

    // Someone else's ad: 404 for the page and the post, and nothing changes.
    const stranger = await seller();
    expect((await stranger.get(`${ad.own}/edit`)).status).toBe(404);
    expect((await stranger.post(`${ad.own}/edit`, toyotaForm('Stolen Toyota title'))).status).toBe(404);

    // Bad input: a field error, nothing saved.
    const bad = await b.post(
      `${ad.own}/edit`,
      toyotaForm('Toyota Corolla 2015 for a family', { 'attrs.year': '1800' }),
    );
    expect(bad.status).toBe(422);
    expect(status(ad.id)).toBe('published');

    // Details only: stays published.
    const details = await b.post(
      `${ad.own}/edit`,
      toyotaForm('Toyota Corolla 2015 for a family', { 'attrs.year': '2016', contact_whatsapp: 'on' }),
    );
    expect(details.headers.get('location')).toBe(ad.own);
    expect(status(ad.id)).toBe('published');

    // A new title waits for review as a pending change: the ad, its slug and its URL stay as approved.
    const titled = await b.post(`${ad.own}/edit`, toyotaForm('Toyota Corolla 2016 low mileage'));
    expect(titled.headers.get('location')).toBe(ad.own);
    expect(status(ad.id)).toBe('published');
    expect(adRef(ad.id).slug).toBe(ad.slug);
    const revision = sql<{ changes: string }>(
      "select changes from revisions where subject_type = 'ad' and subject_id = ? and action = 'propose-change' order by id desc",
      String(ad.id),
    )[0];
    expect(JSON.parse(revision?.changes ?? '{}')).toEqual({
      title: ['Toyota Corolla 2015 for a family', 'Toyota Corolla 2016 low mileage'],
    });
  });

  it('resubmits a rejected ad for review after an edit', async () => {
    const b = await seller();
    const ad = await placeAd(b, 'Toyota Land Cruiser 2010 rejected');
    // A reason chosen from the moderators' list is stored as its code and shown in words.
    sql(
      "update ads set status = 'rejected', rejection_reason = 'poor-photos', updated_at = ? where id = ? returning id",
      new Date().toISOString(),
      ad.id,
    );
    const own = await (await b.get(ad.own)).text();
    expect(own).toContain('Poor photos');
    expect(own).toContain('Edit the ad to fix it');
    expect(await (await b.get(`${ad.own}/edit`)).text()).toContain('Save and send for review');
    const res = await b.post(`${ad.own}/edit`, toyotaForm('Toyota Land Cruiser 2010 with photos'));
    expect(res.status).toBe(302);
    expect(status(ad.id)).toBe('pending');
  });

  it('shows one own ad with its history and views per day, to its owner only', async () => {
    const b = await seller();
    const ad = await placeAd(b, 'Toyota Prado 2012 diesel');
    const page = await b.get(ad.own);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Status history');
    expect(html).toContain('Waiting for review');
    expect(html).toContain('Views in the last 30 days');
    expect((await (await seller()).get(ad.own)).status).toBe(404);
    const stale = await b.get(`/en/profile/posts/motors/cars/x-${ad.id}`);
    expect(stale.status).toBe(301);
  });
});
