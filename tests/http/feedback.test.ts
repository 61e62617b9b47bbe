// Feedback a member can see (docs/product/site.md, "Feedback"): the flash message of a completed
// action is set once, shown once on the next page and then gone; marking sold and deleting ask
// first, and a post without the confirmation changes nothing.
import { describe, expect, it } from 'vitest';
import { adStatus, member, placeToyota, publish } from '../support/ads.ts';
import { browser } from '../support/http-browser.ts';

const flashCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('souq.flash='));

describe('flash messages', () => {
  it('are set by the action, shown once by the next page, privately, then gone', async () => {
    const b = await member('flash');
    const ad = await placeToyota(b, 'Toyota Yaris 2018 flash');
    publish(ad.id, 8);
    const sold = await b.post('/en/profile/posts', { id: String(ad.id), intent: 'mark-sold', confirmed: '1' });
    expect(sold.status).toBe(302);
    expect(sold.headers.get('location')).toBe('/en/profile/posts');
    const set = flashCookie(sold) ?? '';
    expect(set).toMatch(/^souq\.flash=ad-sold;/);
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/Max-Age=60/i);

    const next = await b.get('/en/profile/posts');
    const html = await next.text();
    expect(html).toMatch(/<div role="status" aria-live="polite"[^>]*>.*Marked as sold\./s);
    expect(flashCookie(next)).toMatch(/^souq\.flash=;.*Max-Age=0/i);
    expect(next.headers.get('cache-control')).toBe('private, no-store');
    expect(b.jar.has('souq.flash')).toBe(false);
    expect(await (await b.get('/en/profile/posts')).text()).not.toContain('Marked as sold.');
  });

  it('speak the page’s language, and a code that is not ours shows nothing and is cleared', async () => {
    const b = await member('flash-ar');
    const ad = await placeToyota(b, 'Toyota Yaris 2017 flash ar');
    publish(ad.id, 8);
    await b.post('/profile/posts', { id: String(ad.id), intent: 'delete', confirmed: '1' });
    expect(await (await b.get('/profile/posts')).text()).toContain('حُذف الإعلان.');

    const forged = browser();
    forged.jar.set('souq.flash', '<script>alert(1)</script>');
    const page = await forged.get('/en/faq');
    expect(page.status).toBe(200);
    expect(flashCookie(page)).toMatch(/Max-Age=0/i);
    expect(await page.text()).not.toContain('alert(1)');
  });

  it('say goodbye after signing out', async () => {
    const b = await member('flash-out');
    const out = await b.post('/en/logout', {});
    expect(out.headers.get('location')).toBe('/en');
    expect(flashCookie(out)).toMatch(/^souq\.flash=signed-out;/);
    const home = await b.get('/en');
    expect(await home.text()).toContain('You are logged out.');
    expect(home.headers.get('cache-control')).toBe('private, no-store');
    expect(await (await b.get('/en')).text()).not.toContain('You are logged out.');
  });
});

describe('marking sold and deleting ask first', () => {
  it('without the confirmation: a confirmation form, and nothing changes', async () => {
    const b = await member('confirm');
    const ad = await placeToyota(b, 'Toyota Prado 2012 confirm me');
    publish(ad.id, 8);
    for (const intent of ['mark-sold', 'delete']) {
      const res = await b.post('/en/profile/posts?status=active', { id: String(ad.id), intent });
      expect(res.status).toBe(200);
      expect(flashCookie(res)).toBeUndefined();
      const html = await res.text();
      expect(html).toContain(intent === 'delete' ? 'Delete this ad?' : 'Mark this ad as sold?');
      expect(html).toContain('Toyota Prado 2012 confirm me');
      expect(html).toContain('name="confirmed" value="1"');
      expect(html).toContain(`name="intent" value="${intent}"`);
      expect(adStatus(ad.id)).toBe('published');
    }
    // A confirmation that is not "1" is a bad request: nothing changes either.
    const odd = await b.post('/en/profile/posts', { id: String(ad.id), intent: 'delete', confirmed: 'yes' });
    expect(odd.status).toBe(422);
    expect(adStatus(ad.id)).toBe('published');
    // Someone else's ad: the same 404 as a missing one, with or without the confirmation.
    const stranger = await member('confirm');
    expect((await stranger.post('/en/profile/posts', { id: String(ad.id), intent: 'mark-sold' })).status).toBe(404);
    expect(adStatus(ad.id)).toBe('published');
    const sold = await b.post('/en/profile/posts', { id: String(ad.id), intent: 'mark-sold', confirmed: '1' });
    expect(sold.status).toBe(302);
    expect(adStatus(ad.id)).toBe('sold');
  });
});
