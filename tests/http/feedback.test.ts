// Feedback a member can see (docs/product/site.md, "Feedback"): the flash message of a completed
// action is set once, shown once on the next page and then gone; marking sold and deleting ask
// first, and a post without the confirmation changes nothing.
import { describe, expect, inject, it } from 'vitest';
import { adStatus, member, placeToyota, publish } from '../support/ads.ts';
import { browser } from '../support/http-browser.ts';
import { serverSql } from '../support/server-db.ts';
import { waitForMails } from '../support/smtp-capture.ts';

const mailDir = inject('mailDir');
const unique = () => `check-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;

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

describe('after registering by email', () => {
  it('shows "check your email" with the address, a resend limited to one a minute, and the ways on', async () => {
    const b = browser();
    const email = unique();
    const res = await b.post('/en/register', {
      name: 'Salma',
      login: email,
      password: 'a-good-passphrase',
      password_confirmation: 'a-good-passphrase',
      terms: 'on',
    });
    const location = res.headers.get('location') ?? '';
    expect(location).toBe(`/en/account/email-verification?registered=${encodeURIComponent(email)}`);
    const page = await b.get(location);
    const html = await page.text();
    expect(html).toContain('Check your email');
    expect(html).toContain('We have sent a link to');
    expect(html).toContain(`<bdi dir="ltr">${email}</bdi>`);
    expect(html).toContain(`name="email" value="${email}"`);
    expect(html).toContain('href="/en/register"');
    expect(html).toContain('href="/en/login"');
    expect(await (await b.get(`/account/email-verification?registered=${encodeURIComponent(email)}`)).text()).toContain(
      'تحقّق من بريدك الإلكتروني',
    );

    // The first resend goes out; a second within the minute is refused with the wait, and no mail.
    const first = await b.post(location, { email });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('the link is on its way');
    await waitForMails(mailDir, email, /Confirm your email/, 2);
    const second = await b.post(location, { email });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await second.text()).toContain('1 minute');
    await new Promise((r) => setTimeout(r, 1500));
    expect((await waitForMails(mailDir, email, /Confirm your email/, 2)).length).toBe(2);
    // A malformed address is a field error, nothing sent.
    expect((await b.post(location, { email: 'not-an-address' })).status).toBe(422);
  });
});

describe('the verification pages know a signed-in member', () => {
  it('email: confirmed says so and leads on; not confirmed offers the link to their address', async () => {
    const b = await member('verified');
    const confirmed = await (await b.get('/en/account/email-verification')).text();
    expect(confirmed).toContain('Your email is confirmed');
    expect(confirmed).toContain('href="/en/profile/posts"');
    expect(confirmed).not.toContain('name="email"');

    const me = (await b.whoami()).user as { email: string };
    serverSql('update users set email_verified = 0 where email = ? returning id', me.email);
    const pending = await (await b.get('/en/account/email-verification')).text();
    expect(pending).toContain('Your email is not confirmed yet');
    expect(pending).toContain(`<bdi dir="ltr">${me.email}</bdi>`);
    expect(pending).toContain(`name="email" value="${me.email}"`);
  });

  it('phone: a confirmed number says so and leads on', async () => {
    const b = await member('phone-known');
    const html = await (await b.get('/en/account/phone-verification?redirect=%2Fen%2Fprofile%2Fposts')).text();
    expect(html).toContain('Your phone number is confirmed');
    expect(html).toContain('href="/en/profile/posts"');
    const none = await member('phone-none', { phone: false });
    expect(await (await none.get('/en/account/phone-verification')).text()).not.toContain(
      'Your phone number is confirmed',
    );
  });
});
