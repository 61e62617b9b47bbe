// Sign-up, sign-in and password reset by phone number over real HTTP; codes are read from the
// console SMS adapter's outbox in the server's DATA_DIR.
import { describe, expect, inject, it } from 'vitest';
import { browser } from '../support/http-browser.ts';
import { registerAndSignIn, withoutAddress } from '../support/members.ts';
import { serverSql } from '../support/server-db.ts';
import { codeOf, readSms, smsUntil, waitForSms } from '../support/sms-outbox.ts';

const dataDir = inject('dataDir');

/** A fresh Libyan mobile number, as members type it (local form) and as it is stored. */
function newNumber() {
  const rest = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  return { local: `092${rest}`, e164: `+21892${rest}` };
}

async function registerByPhone(locale: 'en' | 'ar' = 'en') {
  const b = browser();
  const phone = newNumber();
  const res = await b.post(locale === 'en' ? '/en/register' : '/register', {
    name: 'Salem',
    login: phone.local,
    password: 'phone-passphrase',
    password_confirmation: 'phone-passphrase',
    terms: 'on',
    redirect: locale === 'en' ? '/en/faq' : '/faq',
  });
  expect(res.status).toBe(302);
  return { b, phone, location: res.headers.get('location') ?? '' };
}

describe('sign-up by phone', () => {
  it('sends a code, confirms the number, then signs in with it', async () => {
    const { b, phone, location } = await registerByPhone();
    const url = new URL(location, 'http://x');
    expect(url.pathname).toBe('/en/account/phone-verification');
    expect(url.searchParams.get('phone')).toBe(phone.e164);
    expect(url.searchParams.get('redirect')).toBe('/en/faq');
    const sms = await waitForSms(dataDir, phone.e164, /Souq code/);
    expect(sms.text).toMatch(/expires in 10 minutes/);

    // Signed in, but the number is not the account's until confirmed; no email is shown.
    expect((await b.whoami()).user).toMatchObject({ name: 'Salem', phone: null, email: null, email_verified: false });
    const page = await b.get(location);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('We have sent a 6-digit code by SMS to');

    const wrong = await b.post(location, {
      intent: 'verify',
      phone: phone.e164,
      code: codeOf(sms) === '000000' ? '111111' : '000000',
      redirect: '/en/faq',
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('This code is not right');
    const badShape = await b.post(location, {
      intent: 'verify',
      phone: phone.e164,
      code: '12',
    });
    expect(badShape.status).toBe(422);
    expect(await badShape.text()).toContain('The code field must be 6 digits');

    const ok = await b.post(location, {
      intent: 'verify',
      phone: phone.e164,
      code: codeOf(sms),
      redirect: '/en/faq',
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/en/faq');
    expect(await (await b.get('/en/faq')).text()).toContain('Your phone number is confirmed.');
    expect((await b.whoami()).user).toMatchObject({ phone: phone.e164 });

    // The code is spent.
    const again = await b.post(location, {
      intent: 'verify',
      phone: phone.e164,
      code: codeOf(sms),
    });
    expect(again.status).toBe(422);

    await b.post('/en/logout', {});
    expect((await b.whoami()).logged_in).toBe(false);
    const wrongPassword = await browser().post('/en/login', { login: phone.local, password: 'not-the-one' });
    expect(wrongPassword.status).toBe(422);
    expect(await wrongPassword.text()).toContain('The email, phone number or password is not correct.');
    const c = browser();
    const login = await c.post('/en/login', { login: `+218 92 ${phone.e164.slice(6)}`, password: 'phone-passphrase' });
    expect(login.status).toBe(302);
    expect((await c.whoami()).user).toMatchObject({ phone: phone.e164 });
  });

  it('writes the code in Arabic for an Arabic page', async () => {
    const { phone } = await registerByPhone('ar');
    const sms = await waitForSms(dataDir, phone.e164, /رمزك في سوق/);
    expect(sms.text).toContain('صالح لمدة 10 دقائق');
  });

  it('keeps unconfirmed numbers from signing in', async () => {
    const { phone } = await registerByPhone();
    const unconfirmed = await browser().post('/en/login', { login: phone.local, password: 'phone-passphrase' });
    expect(unconfirmed.status).toBe(422);
  });

  it('answers a number another account has confirmed like a new one, and texts its owner instead', async () => {
    // The owner: a member whose confirmed number is `taken` and who reads Arabic.
    const owner = browser();
    const email = `phone-owner-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
    await registerAndSignIn(owner, { name: 'Owner', email, password: 'owner-passphrase', locale: 'ar' });
    const taken = newNumber();
    serverSql(
      'update users set phone_number = ?, phone_number_verified = 1 where email = ? returning id',
      taken.e164,
      email,
    );
    const fresh = newNumber();
    const before = readSms(dataDir).length;
    const form = (login: string) => ({
      name: 'Other',
      login,
      password: 'other-passphrase',
      password_confirmation: 'other-passphrase',
      terms: 'on',
      redirect: '/en/faq',
    });
    const a = browser();
    const b = browser();
    const takenRes = await a.post('/en/register', form(taken.local));
    const freshRes = await b.post('/en/register', form(fresh.local));
    expect(takenRes.status).toBe(302);
    expect(freshRes.status).toBe(takenRes.status);
    const shape = (res: Response, number: string) => ({
      location: (res.headers.get('location') ?? '').replace(encodeURIComponent(number), 'NUMBER'),
      cookies: res.headers
        .getSetCookie()
        .map((c) => c.replace(/=[^;]*/, '=VALUE').replace(/Expires=[^;]*/i, 'Expires=DATE')),
    });
    expect(shape(takenRes, taken.e164)).toEqual(shape(freshRes, fresh.e164));
    expect(shape(takenRes, taken.e164).location).toBe(
      '/en/account/phone-verification?phone=NUMBER&sent=1&redirect=%2Fen%2Ffaq',
    );
    expect(shape(takenRes, taken.e164).cookies.some((c) => c.startsWith('souq.session_token=VALUE'))).toBe(true);
    // Both are signed in to a new account without a number, and see the same code page.
    expect((await a.whoami()).user).toMatchObject({ name: 'Other', phone: null, email: null });
    expect((await b.whoami()).user).toMatchObject({ name: 'Other', phone: null, email: null });
    // Each page names its own member's id (their realtime channel): the one difference allowed.
    const page = async (who: typeof a, res: Response, number: string) =>
      withoutAddress(await (await who.get(res.headers.get('location') ?? '')).text(), number).replaceAll(
        String((await who.whoami()).user?.id),
        'MEMBER',
      );
    expect(await page(a, takenRes, taken.e164)).toBe(await page(b, freshRes, fresh.e164));

    // The new number gets its code; the owner gets a notice in Arabic, with no code in it.
    await waitForSms(dataDir, fresh.e164, /Souq code/);
    const notice = await waitForSms(dataDir, taken.e164, /حاول أحدهم استخدام رقمك/);
    expect(notice.text).toContain('/login');
    expect(codeOf(notice)).toBe('');
    expect(
      readSms(dataDir)
        .slice(before)
        .filter((m) => m.to === taken.e164),
    ).toHaveLength(1);

    // On the code page every code is wrong, and the number stays the owner's.
    const wrong = await a.post(takenRes.headers.get('location') ?? '', {
      intent: 'verify',
      phone: taken.e164,
      code: '123456',
      redirect: '/en/faq',
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('This code is not right');
    expect((await a.whoami()).user).toMatchObject({ phone: null });
    expect((await owner.whoami()).user).toMatchObject({ phone: taken.e164 });
  });

  it('voids a code after five wrong tries and limits how often codes are sent', async () => {
    const { b, phone, location } = await registerByPhone();
    const sms = await waitForSms(dataDir, phone.e164, /Souq code/);
    const wrong = codeOf(sms) === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++) {
      const res = await b.post(location, { intent: 'verify', phone: phone.e164, code: wrong });
      expect(res.status).toBe(422);
    }
    const voided = await b.post(location, {
      intent: 'verify',
      phone: phone.e164,
      code: codeOf(sms),
    });
    expect(voided.status).toBe(422);
    expect(await voided.text()).toMatch(/Too many wrong codes|This code is not right/);

    // A new code within the minute is refused with Retry-After.
    const resend = await b.post(location, { intent: 'send', phone: phone.e164 });
    expect(resend.status).toBe(429);
    expect(Number(resend.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('keeps visitors out of the verification page', async () => {
    const res = await browser().get('/en/account/phone-verification');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/login?redirect=%2Fen%2Faccount%2Fphone-verification');
  });
});

describe('password reset by phone', () => {
  it('texts a code that sets a new password and ends every session', async () => {
    const { b, phone, location } = await registerByPhone();
    const signup = await waitForSms(dataDir, phone.e164, /Souq code/);
    await b.post(location, { intent: 'verify', phone: phone.e164, code: codeOf(signup) });
    expect((await b.whoami()).logged_in).toBe(true);

    const ask = await browser().post('/en/account/forget-password', { login: phone.local });
    expect(ask.status).toBe(302);
    expect(ask.headers.get('location')).toBe(`/en/account/reset-password?phone=${encodeURIComponent(phone.e164)}`);
    const sms = await waitForSms(dataDir, phone.e164, /password reset code/);

    const resetPage = ask.headers.get('location') ?? '';
    const mismatch = await browser().post(resetPage, {
      phone: phone.e164,
      code: codeOf(sms),
      password: 'new-phone-passphrase',
      password_confirmation: 'different',
    });
    expect(mismatch.status).toBe(422);
    const done = await browser().post(resetPage, {
      phone: phone.e164,
      code: codeOf(sms),
      password: 'new-phone-passphrase',
      password_confirmation: 'new-phone-passphrase',
    });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/en/login?reset=1');
    expect((await b.whoami()).logged_in).toBe(false);
    expect((await browser().post('/en/login', { login: phone.e164, password: 'phone-passphrase' })).status).toBe(422);
    expect((await browser().post('/en/login', { login: phone.e164, password: 'new-phone-passphrase' })).status).toBe(
      302,
    );
  });

  it('answers an unknown number exactly like a known one and sends nothing', async () => {
    const phone = newNumber();
    const ask = await browser().post('/en/account/forget-password', { login: phone.e164 });
    expect(ask.status).toBe(302);
    expect(ask.headers.get('location')).toBe(`/en/account/reset-password?phone=${encodeURIComponent(phone.e164)}`);
    // A sign-up by phone afterwards is texted its code: a code for the unknown number would be there first.
    const canary = await registerByPhone();
    const texts = await smsUntil(dataDir, { to: canary.phone.e164, text: /Souq code/ });
    expect(texts.filter((m) => m.to === phone.e164)).toEqual([]);
    const guess = await browser().post(ask.headers.get('location') ?? '', {
      phone: phone.e164,
      code: '123456',
      password: 'new-phone-passphrase',
      password_confirmation: 'new-phone-passphrase',
    });
    expect(guess.status).toBe(422);
    const html = await guess.text();
    expect(html).toContain('This code is not right');
  });
});
