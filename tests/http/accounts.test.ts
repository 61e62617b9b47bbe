// Accounts over real HTTP against the built server (demo accounts seeded).
import { describe, expect, inject, it } from 'vitest';
import { type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn, withoutAddress } from '../support/members.ts';
import { serverSql } from '../support/server-db.ts';
import { mailsUntil, readMails, waitForMail, waitForMails } from '../support/smtp-capture.ts';

const mailDir = inject('mailDir');
const unique = () => `member-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;

/** A registration form post; `login` is the email. */
const registration = (login: string, extra: Record<string, string> = {}) => ({
  name: 'Nour',
  login,
  password: 'a-good-passphrase',
  password_confirmation: 'a-good-passphrase',
  terms: 'on',
  ...extra,
});
const sessionCookies = (res: Response) => res.headers.getSetCookie().filter((c) => c.startsWith('souq.session_token='));

describe('registration', () => {
  it('signs nobody in: the link mailed to the new address confirms it, then the member logs in', async () => {
    const b = browser();
    const email = unique();
    const res = await b.post('/en/register', registration(email, { redirect: '/en/faq' }));
    expect(res.status).toBe(302);
    const location = res.headers.get('location') ?? '';
    expect(location).toBe(`/en/account/email-verification?registered=${encodeURIComponent(email)}`);
    expect(sessionCookies(res)).toEqual([]);
    expect(await b.whoami()).toEqual({ logged_in: false, user: null });
    const page = await b.get(location);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('We have sent a link to');
    expect(html).toContain(`<bdi dir="ltr">${email}</bdi>`);

    // Before the link is opened the password opens nothing: the same answer as a wrong one, and the
    // link is mailed again.
    const early = await browser().post('/en/login', { login: email, password: 'a-good-passphrase' });
    expect(early.status).toBe(422);
    expect(await early.text()).toContain('The email, phone number or password is not correct.');
    expect(sessionCookies(early)).toEqual([]);
    const mail = await waitForMail(mailDir, email, /Confirm your email/);
    expect(mail.body).toContain('Hello Nour,');
    const link = mail.links.find((l) => l.includes('/en/account/email-verification?token=')) as string;
    expect((await browser().get(localPart(link))).status).toBe(200);
    // The early sign-in mailed the link again: two links, and opening one sends no third (the
    // reset mail asked for afterwards arrives with nothing else before it).
    await waitForMails(mailDir, email, /Confirm your email/, 2);
    expect((await browser().post('/en/account/forget-password', { login: email })).status).toBe(200);
    const mails = await mailsUntil(mailDir, { to: email, subject: /Reset your Souq password/ });
    expect(mails.filter((m) => m.to === email && /Confirm your email/.test(m.subject))).toHaveLength(2);

    const member = browser();
    const login = await member.post('/en/login', { login: email, password: 'a-good-passphrase', redirect: '/en/faq' });
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe('/en/faq');
    const me = await member.whoami();
    expect(me.user).toMatchObject({ email, name: 'Nour', email_verified: true, permissions: [], locale: 'en' });
    expect(JSON.stringify(me)).not.toMatch(/password|scrypt|hash/i);
  });

  it('refuses bad input with translated errors and creates nothing', async () => {
    const b = browser();
    const email = unique();
    const res = await b.post('/en/register', {
      name: 'N',
      login: email,
      password: 'short',
      password_confirmation: 'other',
      terms: '',
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('The name field must be at least 2 characters');
    expect(html).toContain('The password field must be at least 8 characters');
    expect(html).toContain('You must accept the terms of use');
    expect(serverSql('select id from users where email = ?', email)).toEqual([]);
  });

  it('answers a taken email exactly like a new one, and tells the owner in the owner’s language', async () => {
    // The owner: an English-speaking member with a confirmed address.
    const owner = unique();
    await registerMember(browser(), 'en', owner);
    const fresh = unique();
    // Both from Arabic pages, each from its own address.
    const taken = await browser().post('/register', registration(owner));
    const created = await browser().post('/register', registration(fresh));
    expect(taken.status).toBe(302);
    expect(created.status).toBe(taken.status);
    const placeholder = (res: Response, email: string) =>
      (res.headers.get('location') ?? '').replace(encodeURIComponent(email), 'ADDRESS');
    expect(placeholder(taken, owner)).toBe('/account/email-verification?registered=ADDRESS');
    expect(placeholder(created, fresh)).toBe(placeholder(taken, owner));
    expect(taken.headers.getSetCookie()).toEqual([]);
    expect(created.headers.getSetCookie()).toEqual([]);
    // The page each lands on says the same, but for the address.
    const visible = async (res: Response, email: string) => {
      const page = await browser().get(res.headers.get('location') ?? '');
      expect(page.status).toBe(200);
      return withoutAddress(await page.text(), email);
    };
    const takenPage = await visible(taken, owner);
    expect(takenPage).toContain('أرسلنا رابطًا إلى');
    expect(await visible(created, fresh)).toBe(takenPage);

    // The owner is told, in English, with a way in; the new address gets its confirmation link.
    const notice = await waitForMail(mailDir, owner, /Someone tried to create a Souq account/);
    expect(notice.body).toContain('It already belongs to your account');
    expect(notice.links.some((l) => localPart(l) === '/en/login')).toBe(true);
    expect(notice.links.some((l) => localPart(l) === '/en/account/forget-password')).toBe(true);
    await waitForMail(mailDir, fresh, /أكّد بريدك الإلكتروني/);
    // Nothing changed for the owner: one account, the old password.
    expect(serverSql('select id from users where email = ?', owner)).toHaveLength(1);
    expect((await browser().post('/en/login', { login: owner, password: 'a-good-passphrase' })).status).toBe(422);
    expect((await browser().post('/en/login', { login: owner, password: 'first-passphrase' })).status).toBe(302);

    // At most one notice an hour: a second try gets the same answer and sends nothing.
    const again = await browser().post('/register', registration(owner));
    expect(placeholder(again, owner)).toBe(placeholder(taken, owner));
    // A reset asked for afterwards is mailed; a second notice would have come before it.
    expect((await browser().post('/en/account/forget-password', { login: owner })).status).toBe(200);
    const mails = await mailsUntil(mailDir, { to: owner, subject: /Reset your Souq password/ });
    expect(mails.filter((m) => m.to === owner && /Someone tried/.test(m.subject))).toHaveLength(1);
    expect(mails.filter((m) => m.to === owner && /Confirm your email/.test(m.subject))).toHaveLength(1);
  });
});

describe('sign-in and sign-out', () => {
  it('gives the same answer for an unknown email and a wrong password', async () => {
    const a = await browser().post('/en/login', { login: 'nobody@example.ly', password: 'password123' });
    const b = await browser().post('/en/login', { login: 'user@souq.test', password: 'not-the-password' });
    expect(a.status).toBe(422);
    expect(b.status).toBe(422);
    const message = 'The email, phone number or password is not correct.';
    expect(await a.text()).toContain(message);
    expect(await b.text()).toContain(message);
  });

  it('signs in with a new session id each time and signs out server-side', async () => {
    const b = browser();
    const first = await b.post('/en/login', { login: 'moderator@souq.test', password: 'password123', remember: 'on' });
    expect(first.status).toBe(302);
    const firstToken = b.jar.get('souq.session_token');
    const me = await b.whoami();
    expect(me.user).toMatchObject({ email: 'moderator@souq.test', roles: ['moderator'] });
    expect(me.user?.permissions).toContain('approve-ads');

    const second = browser();
    second.jar.set('souq.session_token', firstToken as string);
    await second.post('/en/logout', {});
    const again = browser();
    await again.post('/en/login', { login: 'moderator@souq.test', password: 'password123' });
    expect(again.jar.get('souq.session_token')).not.toBe(firstToken);

    // The first session was ended on the server: its cookie no longer works anywhere.
    const replay = browser();
    replay.jar.set('souq.session_token', firstToken as string);
    expect((await replay.whoami()).logged_in).toBe(false);
  });

  it('knows the super admin', async () => {
    const b = browser();
    await b.post('/login', { login: 'admin@souq.test', password: 'password123' });
    expect((await b.whoami()).user).toMatchObject({ is_super_admin: true });
  });

  it('goes back to a local redirect target only', async () => {
    const b = browser();
    const ok = await b.post('/en/login', { login: 'user@souq.test', password: 'password123', redirect: '/en/contact' });
    expect(ok.headers.get('location')).toBe('/en/contact');
    for (const evil of ['//evil.example/x', 'https://evil.example', '/\\evil.example']) {
      const res = await browser().post('/en/login', {
        login: 'user@souq.test',
        password: 'password123',
        redirect: evil,
      });
      expect(res.headers.get('location')).toBe('/en');
    }
  });

  it('sends signed-in users away from the login and register pages', async () => {
    const b = browser();
    await b.post('/en/login', { login: 'user@souq.test', password: 'password123' });
    expect((await b.get('/en/login')).headers.get('location')).toBe('/en');
    expect((await b.get('/register')).headers.get('location')).toBe('/');
  });

  it('refuses sign-in posts from another origin', async () => {
    const res = await browser().post(
      '/en/login',
      { login: 'user@souq.test', password: 'password123' },
      'https://evil.example',
    );
    expect(res.status).toBe(419);
  });

  it('limits sign-in attempts per account with 429, Retry-After and a translated message', async () => {
    const email = unique();
    await registerMember(browser(), 'en', email);
    for (let i = 0; i < 10; i++) {
      expect((await browser().post('/en/login', { login: email, password: 'wrong-passphrase' })).status).toBe(422);
    }
    // Even the right password waits now: the limit is per account, whatever the address.
    const limited = await browser().post('/en/login', { login: email, password: 'first-passphrase' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(await limited.text()).toMatch(/Too many attempts\. Try again in \d+ minutes\./);
    const arabic = await browser().post('/login', { login: email, password: 'first-passphrase' });
    expect(await arabic.text()).toContain('محاولات كثيرة جدًا');
  });

  it('counts failures only: many successful sign-ins are never limited', async () => {
    const email = unique();
    await registerMember(browser(), 'en', email);
    // One address, one account, twelve separate sign-ins (past both limits if successes counted).
    for (let i = 0; i < 12; i++) {
      const res = await browser('10.200.0.1').post('/en/login', { login: email, password: 'first-passphrase' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/en');
    }
  });

  it('never signs out on a GET', async () => {
    const b = browser();
    await b.post('/en/login', { login: 'user@souq.test', password: 'password123' });
    await b.get('/en/logout');
    expect((await b.whoami()).logged_in).toBe(true);
  });
});

/** The path and query of a mailed link (the server's own origin in tests is localhost:PORT). */
const localPart = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};

/** Registers through the form; the address stays unconfirmed and nobody is signed in. */
async function registerOnly(locale: 'en' | 'ar' = 'en', email = unique()) {
  const res = await browser().post(locale === 'en' ? '/en/register' : '/register', {
    name: 'Huda',
    login: email,
    password: 'first-passphrase',
    password_confirmation: 'first-passphrase',
    terms: 'on',
  });
  expect(res.status).toBe(302);
  return email;
}

/** A confirmed member signed in on `b` (the confirmation done in the database). */
async function registerMember(b: Browser, locale: 'en' | 'ar' = 'en', email = unique()) {
  await registerAndSignIn(b, { name: 'Huda', email, password: 'first-passphrase', locale });
  return email;
}

describe('email verification', () => {
  it('mails a link in the member’s language that confirms the email without signing anyone in', async () => {
    const email = await registerOnly();
    const mail = await waitForMail(mailDir, email, /Confirm your email/);
    expect(mail.body).toContain('Hello Huda,');
    const link = mail.links.find((l) => l.includes('/en/account/email-verification?token='));
    expect(link).toBeDefined();

    const visitor = browser();
    const res = await visitor.get(localPart(link as string));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Your email is confirmed');
    // The link confirms; it does not sign in whoever holds it.
    expect((await visitor.whoami()).logged_in).toBe(false);
    expect(serverSql('select email_verified from users where email = ?', email)).toEqual([{ email_verified: 1 }]);

    const forged = await browser().get(`/en/account/email-verification?token=${'x'.repeat(40)}`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('This link or code is not valid or was already used.');
  });

  it('resends at most once a minute and never for unknown or verified emails', async () => {
    const email = await registerOnly();
    await waitForMail(mailDir, email, /Confirm your email/);
    const links = (mails = readMails(mailDir)) =>
      mails.filter((m) => m.to === email && /Confirm your email/.test(m.subject)).length;
    const before = links();
    const first = await browser().post('/en/account/email-verification', { email });
    expect(first.status).toBe(200);
    await waitForMails(mailDir, email, /Confirm your email/, before + 1);
    const second = await browser().post('/en/account/email-verification', { email });
    expect(second.status).toBe(429);
    expect(await second.text()).toMatch(/Too many attempts\. Try again in 1 minute\./);
    const unknown = await browser().post('/en/account/email-verification', { email: 'nobody-here@example.ly' });
    expect(unknown.status).toBe(200);
    // A reset asked for afterwards is mailed: a link for the refused or the unknown request would
    // have come before it.
    expect((await browser().post('/en/account/forget-password', { login: email })).status).toBe(200);
    const mails = await mailsUntil(mailDir, { to: email, subject: /Reset your Souq password/ });
    expect(links(mails)).toBe(before + 1);
    expect(mails.some((m) => m.to === 'nobody-here@example.ly')).toBe(false);
  });
});

describe('password reset', () => {
  it('resets by mailed link, ends every session, and the link works once', async () => {
    const member = browser();
    const email = await registerMember(member);
    const res = await browser().post('/en/account/forget-password', { login: email });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('If an account uses this email, we have sent it a link');
    const mail = await waitForMail(mailDir, email, /Reset your Souq password/);
    const link = mail.links.find((l) => l.includes('/en/account/reset-password?token=')) as string;
    const token = new URL(link).searchParams.get('token') as string;

    const page = await browser().get(localPart(link));
    expect(page.status).toBe(200);
    const mismatch = await browser().post(localPart(link), {
      token,
      password: 'second-passphrase',
      password_confirmation: 'other',
    });
    expect(mismatch.status).toBe(422);
    expect(await mismatch.text()).toContain('The password confirmation does not match');

    const done = await browser().post(localPart(link), {
      token,
      password: 'second-passphrase',
      password_confirmation: 'second-passphrase',
    });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/en/login?reset=1');
    expect((await member.whoami()).logged_in).toBe(false);

    expect((await browser().post('/en/login', { login: email, password: 'first-passphrase' })).status).toBe(422);
    expect((await browser().post('/en/login', { login: email, password: 'second-passphrase' })).status).toBe(302);

    const reused = await browser().post(localPart(link), {
      token,
      password: 'third-passphrase',
      password_confirmation: 'third-passphrase',
    });
    expect(reused.status).toBe(422);
    expect(await reused.text()).toContain('This link or code is not valid or was already used.');
  });

  it('answers an unknown email exactly like a known one and sends nothing', async () => {
    const member = await registerMember(browser());
    const res = await browser().post('/en/account/forget-password', { login: 'no-such-member@example.ly' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('If an account uses this email, we have sent it a link');
    // The same request for a member, made afterwards, is mailed: one for the unknown address would
    // have come before it.
    expect((await browser().post('/en/account/forget-password', { login: member })).status).toBe(200);
    const mails = await mailsUntil(mailDir, { to: member, subject: /Reset your Souq password/ });
    expect(mails.some((m) => m.to === 'no-such-member@example.ly')).toBe(false);
  });
});
