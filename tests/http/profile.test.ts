// Profile settings (`/profile`) over real HTTP against the built server: every section's success
// and refusal, uploads served from /uploads, and what deleting an account does.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { BROWSER_UA, type Browser, browser } from '../support/http-browser.ts';
import { registerAndSignIn } from '../support/members.ts';
import { type CapturedMail, readMails, waitForMail, waitForMails } from '../support/smtp-capture.ts';

const base = inject('baseUrl');
const mailDir = inject('mailDir');
const dataDir = inject('dataDir');

const unique = (what = 'profile') => `${what}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
const PASSWORD = 'profile-passphrase';

/** A new member, signed in (English pages). */
async function member(): Promise<{ b: Browser; email: string }> {
  const b = browser();
  const email = unique();
  await registerAndSignIn(b, { name: 'Hana', email, password: PASSWORD });
  return { b, email };
}

/** One query on the server's own SQLite database. */
function query<T>(sql: string, ...params: (string | number | null)[]): T[] {
  const db = new DatabaseSync(path.join(dataDir, 'souq.db'), { timeout: 5000 });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const userRow = (email: string) =>
  query<{ id: string; name: string; city_id: number | null; bio: string | null; locale: string; image: string | null }>(
    'select id, name, city_id, bio, locale, image from users where email = ?',
    email,
  )[0];

/** A multipart post of the avatar form, as a browser sends it. */
async function upload(
  b: Browser,
  bytes: Uint8Array<ArrayBuffer>,
  filename: string,
  type: string,
  page = '/en/profile',
) {
  const body = new FormData();
  body.set('intent', 'avatar');
  body.set('image', new Blob([bytes], { type }), filename);
  const res = await fetch(base + page, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'user-agent': BROWSER_UA, cookie: b.cookieHeader(), 'x-forwarded-for': b.ip, origin: base },
    body,
  });
  // The browser keeps what the answer sets (the flash saying the photo is up).
  for (const cookie of res.headers.getSetCookie()) {
    const [pair = ''] = cookie.split(';');
    const i = pair.indexOf('=');
    b.jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return res;
}

/** A 1200×900 phone photo with camera and GPS EXIF. */
const photo = () =>
  sharp({
    create: {
      width: 1200,
      height: 900,
      channels: 3,
      background: '#2d9c68',
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .jpeg()
    .withExif({
      IFD0: { Make: 'Acme', Model: 'Phone 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '32/1 53/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '13/1 11/1 0/1' },
    })
    .toBuffer();

describe('guard', () => {
  it('sends visitors to log in, for the page and its form posts', async () => {
    const page = await browser().get('/en/profile');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/en/login?redirect=%2Fen%2Fprofile');
    const ar = await browser().get('/profile');
    expect(ar.headers.get('location')).toBe('/login?redirect=%2Fprofile');
    const post = await browser().post('/en/profile', { intent: 'profile', name: 'Nobody', locale: 'en' });
    expect(post.status).toBe(302);
    expect(post.headers.get('location')).toMatch(/^\/en\/login\?redirect=/);
  });

  it('refuses posts from another origin', async () => {
    const { b } = await member();
    const res = await b.post('/en/profile', { intent: 'profile', name: 'Evil', locale: 'en' }, 'https://evil.example');
    expect(res.status).toBe(419);
  });
});

describe('the page', () => {
  it('shows every section in English and in Arabic, right to left', async () => {
    const { b, email } = await member();
    const en = await b.get('/en/profile');
    expect(en.status).toBe(200);
    const html = await en.text();
    for (const text of ['Account settings', 'Profile', 'Photo', 'Phone number', 'Password', 'Notifications']) {
      expect(html).toContain(text);
    }
    expect(html).toContain(email);
    expect(html).toContain('Tripoli');
    expect(html).toContain('Delete my account');
    expect(html).toMatch(/<form id="avatar-form"[^>]*enctype="multipart\/form-data"/i);
    expect(html).toContain('href="/en/account/phone-verification?redirect=%2Fen%2Fprofile"');
    // Each section is its own form with its intent.
    for (const intent of ['profile', 'avatar', 'email', 'password', 'notifications', 'delete']) {
      expect(html).toContain(`name="intent" value="${intent}"`);
    }
    const ar = await (await b.get('/profile')).text();
    expect(ar).toMatch(/<html[^>]+dir="rtl"/);
    expect(ar).toContain('إعدادات الحساب');
    expect(ar).toContain('طرابلس');
    expect(ar).toContain('href="/account/phone-verification?redirect=%2Fprofile"');
  });

  it('links to the settings from the header', async () => {
    const { b } = await member();
    const html = await (await b.get('/en/faq')).text();
    expect(html).toMatch(/href="\/en\/profile"/);
    expect(html).toContain('Account settings');
  });
});

describe('profile section', () => {
  it('saves name, city, bio and language', async () => {
    const { b, email } = await member();
    const [tripoli] = query<{ id: number }>("select id from cities where slug = 'tripoli'");
    const res = await b.post('/en/profile', {
      intent: 'profile',
      name: 'Hana Salem',
      city: String(tripoli.id),
      bio: 'Selling family cars. Call after 5 pm.\nأبيع سيارات العائلة.',
      locale: 'en',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/profile#profile');
    expect(userRow(email)).toMatchObject({
      name: 'Hana Salem',
      city_id: tripoli.id,
      bio: 'Selling family cars. Call after 5 pm.\nأبيع سيارات العائلة.',
      locale: 'en',
    });
    const page = await (await b.get('/en/profile')).text();
    expect(page).toContain('Your profile has been saved.');
    expect((await b.whoami()).user).toMatchObject({ name: 'Hana Salem' });
  });

  it('refuses bad input with translated errors and changes nothing', async () => {
    const { b, email } = await member();
    const before = userRow(email);
    const res = await b.post('/en/profile', {
      intent: 'profile',
      name: 'H',
      bio: 'x'.repeat(1001),
      locale: 'fr',
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('The name field must be at least 2 characters');
    expect(html).toContain('The about you field must not be longer than 1,000 characters');
    expect(html).toContain('The selected language is invalid');
    const city = await b.post('/en/profile', { intent: 'profile', name: 'Hana', city: '999999', locale: 'en' });
    expect(city.status).toBe(422);
    expect(await city.text()).toContain('The selected city is invalid');
    // Showing a phone number needs a confirmed one.
    const phone = await b.post('/en/profile', { intent: 'profile', name: 'Hana', show_phone: 'on', locale: 'en' });
    expect(phone.status).toBe(422);
    expect(await phone.text()).toContain('Confirm a phone number before showing it on your ads.');
    expect(userRow(email)).toEqual(before);
    // In Arabic too.
    const ar = await b.post('/profile', { intent: 'profile', name: 'H', locale: 'ar' });
    expect(ar.status).toBe(422);
    expect(await ar.text()).toContain('يجب ألا يقل حقل الاسم عن حرفين');
  });

  it('makes a new language the account’s and the site’s', async () => {
    const { b, email } = await member();
    const res = await b.post('/en/profile', { intent: 'profile', name: 'Hana', locale: 'ar' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/locale/ar?redirect=%2Fprofile#profile');
    expect(userRow(email).locale).toBe('ar');
    const next = await b.get('/locale/ar?redirect=%2Fprofile');
    expect(next.headers.get('location')).toBe('/profile');
    expect(next.headers.get('set-cookie')).toMatch(/locale=ar/);
    expect(await (await b.get('/profile')).text()).toContain('تم حفظ ملفك الشخصي.');
  });
});

describe('avatar', () => {
  it('resizes a photo to WebP without EXIF, serves it from /uploads and replaces the previous one', async () => {
    const { b, email } = await member();
    const jpeg = await photo();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const res = await upload(b, jpeg, 'IMG_0001.jpg', 'image/jpeg');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/profile#avatar');
    const page = await b.get('/en/profile');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Your new photo is up.');

    const image = userRow(email).image as string;
    expect(image).toMatch(/^\/uploads\/avatars\/[a-z0-9_-]+\/[a-f0-9]{16}-large\.webp$/);
    expect(html).toContain(image);
    expect((await b.whoami()).user?.image).toBe(image);

    const served = await fetch(base + image);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toMatch(/max-age=31536000/);
    expect(served.headers.get('cache-control')).toMatch(/immutable/);
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    const small = await fetch(base + image.replace('-large.webp', '-small.webp'));
    expect(small.status).toBe(200);
    expect(await sharp(Buffer.from(await small.arrayBuffer())).metadata()).toMatchObject({ width: 64, height: 64 });

    // A new photo replaces the old one, whose files are deleted.
    const png = await sharp({ create: { width: 300, height: 500, channels: 4, background: '#ff0000' } })
      .png()
      .toBuffer();
    expect((await upload(b, png, 'me.png', 'image/png')).status).toBe(302);
    const next = userRow(email).image as string;
    expect(next).not.toBe(image);
    expect((await fetch(base + next)).status).toBe(200);
    expect((await fetch(base + image)).status).toBe(404);
    expect((await fetch(base + image.replace('-large.webp', '-small.webp'))).status).toBe(404);

    // Remove photo: back to initials, files gone.
    const removed = await b.post('/en/profile', { intent: 'avatar-remove' });
    expect(removed.status).toBe(302);
    expect(removed.headers.get('location')).toBe('/en/profile#avatar');
    expect(userRow(email).image).toBeNull();
    expect((await fetch(base + next)).status).toBe(404);
  });

  it('refuses a text file named .jpg, a file over 10 MB and a missing file; the photo stays', async () => {
    const { b, email } = await member();
    expect((await upload(b, await photo(), 'a.jpg', 'image/jpeg')).status).toBe(302);
    const image = userRow(email).image;

    const text = await upload(
      b,
      new TextEncoder().encode('this is not a photo at all\n'.repeat(20)),
      'cat.jpg',
      'image/jpeg',
    );
    expect(text.status).toBe(422);
    expect(await text.text()).toContain('This file is not a photo we can use.');
    expect(userRow(email).image).toBe(image);

    const huge = new Uint8Array(10 * 1024 * 1024 + 1);
    huge.set([0xff, 0xd8, 0xff, 0xe0]);
    const big = await upload(b, huge, 'big.jpg', 'image/jpeg');
    expect(big.status).toBe(422);
    expect(await big.text()).toContain('This photo is larger than 10 MB.');
    expect(userRow(email).image).toBe(image);

    const none = await upload(b, new Uint8Array(0), '', 'application/octet-stream');
    expect(none.status).toBe(422);
    expect(await none.text()).toContain('The photo field is required');

    const ar = await upload(
      b,
      new TextEncoder().encode('not an image, just some text'),
      'x.jpg',
      'image/jpeg',
      '/profile',
    );
    expect(ar.status).toBe(422);
    expect(await ar.text()).toContain('هذا الملف ليس صورة يمكننا استخدامها');
    expect(userRow(email).image).toBe(image);
  });

  it('serves only storage keys', async () => {
    for (const bad of [
      '/uploads/souq.db',
      '/uploads/../souq.db',
      '/uploads/%2e%2e/souq.db',
      '/uploads/avatars/x/.hidden.webp',
      '/uploads/avatars/x.png',
      '/uploads/avatars/none/0000000000000000-large.webp',
    ]) {
      const res = await fetch(base + bad);
      expect(res.status, bad).toBe(404);
      expect(res.headers.get('content-type'), bad).not.toMatch(/image/);
    }
  });
});

/** The path and query of a mailed link. */
const localPart = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};

/** The password reset mail's subject, in either language. */
const RESET = /Reset your Souq password|إعادة تعيين كلمة المرور في سوق/;

describe('email', () => {
  it('mails a link to the new address and changes the email only when it is opened', async () => {
    const { b, email } = await member();
    const next = unique('new');
    const res = await b.post('/en/profile', { intent: 'email', email: next.toUpperCase() });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/profile#email');
    expect(await (await b.get('/en/profile')).text()).toContain('We have sent a confirmation link to the new address.');
    const mail = await waitForMail(mailDir, next, /Confirm your new email address/);
    expect(mail.body).toContain('your account keeps its old address until you do');
    expect((await b.whoami()).user?.email).toBe(email);

    const link = mail.links.find((l) => l.includes('/en/account/email-verification')) as string;
    expect(link).toBeDefined();
    const opened = await browser().get(localPart(link));
    expect(opened.status).toBe(200);
    // The link proved the new address: it is confirmed even though the old one never was.
    expect((await b.whoami()).user).toMatchObject({ email: next, email_verified: true });
    // The old address no longer signs in; the new one does.
    expect((await browser().post('/en/login', { login: email, password: PASSWORD })).status).toBe(422);
    expect((await browser().post('/en/login', { login: next, password: PASSWORD })).status).toBe(302);
  });

  it('answers the same for a taken address and mails nothing to its owner', async () => {
    const { b, email } = await member();
    const owner = 'moderator@souq.test';
    const notReset = (mails: CapturedMail[]) => mails.filter((m) => m.to === owner && !RESET.test(m.subject));
    const before = notReset(readMails(mailDir)).length;
    const res = await b.post('/en/profile', { intent: 'email', email: owner });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/profile#email');
    // A reset the owner asks for afterwards is mailed: a mail about the change would have come before it.
    const resets = readMails(mailDir).filter((m) => m.to === owner && RESET.test(m.subject)).length;
    expect((await browser().post('/en/account/forget-password', { login: owner })).status).toBe(200);
    await waitForMails(mailDir, owner, RESET, resets + 1);
    expect(notReset(readMails(mailDir))).toHaveLength(before);
    expect((await b.whoami()).user?.email).toBe(email);
  });

  it('refuses a bad or unchanged address, and limits how often links are sent', async () => {
    const { b, email } = await member();
    const bad = await b.post('/en/profile', { intent: 'email', email: 'not-an-email' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('The email field must be a valid email');
    const same = await b.post('/en/profile', { intent: 'email', email });
    expect(same.status).toBe(422);
    expect(await same.text()).toContain('This is already your email address.');
    for (let i = 0; i < 5; i++) {
      expect((await b.post('/en/profile', { intent: 'email', email: unique('many') })).status).toBe(302);
    }
    const limited = await b.post('/en/profile', { intent: 'email', email: unique('many') });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.text()).toContain('Too many attempts.');
  });
});

describe('password', () => {
  it('needs the current password', async () => {
    const { b } = await member();
    const wrong = await b.post('/en/profile', {
      intent: 'password',
      current_password: 'not-my-password',
      password: 'a-new-passphrase',
      password_confirmation: 'a-new-passphrase',
    });
    expect(wrong.status).toBe(422);
    const html = await wrong.text();
    expect(html).toContain('The password is not correct.');
    expect(html).not.toContain('not-my-password');
    const mismatch = await b.post('/en/profile', {
      intent: 'password',
      current_password: PASSWORD,
      password: 'a-new-passphrase',
      password_confirmation: 'another-one',
    });
    expect(mismatch.status).toBe(422);
    expect(await mismatch.text()).toContain('The password confirmation does not match');
    const missing = await b.post('/en/profile', {
      intent: 'password',
      current_password: '',
      password: 'short',
      password_confirmation: '',
    });
    expect(missing.status).toBe(422);
    const text = await missing.text();
    expect(text).toContain('The current password field is required');
    expect(text).toContain('The password field must be at least 8 characters');
  });

  it('changes the password and logs out every other session', async () => {
    const { b, email } = await member();
    const other = browser();
    expect((await other.post('/en/login', { login: email, password: PASSWORD })).status).toBe(302);
    expect((await other.whoami()).logged_in).toBe(true);

    const res = await b.post('/en/profile', {
      intent: 'password',
      current_password: PASSWORD,
      password: 'a-new-passphrase',
      password_confirmation: 'a-new-passphrase',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/profile#password');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('souq.session_token='))).toBe(true);
    expect((await b.whoami()).logged_in).toBe(true);
    expect((await other.whoami()).logged_in).toBe(false);
    expect((await browser().post('/en/login', { login: email, password: PASSWORD })).status).toBe(422);
    expect((await browser().post('/en/login', { login: email, password: 'a-new-passphrase' })).status).toBe(302);
  });

  it('lets a member without a password set one', async () => {
    const { b, email } = await member();
    const { id } = userRow(email);
    query("update accounts set password = null where user_id = ? and provider_id = 'credential'", id);
    const page = await (await b.get('/en/profile')).text();
    expect(page).toContain('Set password');
    expect(page).toContain('Type DELETE to confirm.');
    const res = await b.post('/en/profile', {
      intent: 'password-set',
      password: 'a-first-passphrase',
      password_confirmation: 'a-first-passphrase',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/profile#password');
    expect((await browser().post('/en/login', { login: email, password: 'a-first-passphrase' })).status).toBe(302);
  });
});

describe('notification preferences', () => {
  it('starts from the defaults and saves the member’s choice', async () => {
    const { b, email } = await member();
    const html = await (await b.get('/en/profile')).text();
    expect(html).toContain('New chat message');
    const inputs = html.match(/<input[^>]*>/g) ?? [];
    const checked = (type: string, channel: string) => {
      const input = inputs.find((i) => i.includes(`name="${channel}"`) && i.includes(`value="${type}"`));
      expect(input, `${channel} ${type}`).toBeDefined();
      return / checked=""/.test(input as string);
    };
    expect(checked('ad-approved', 'email')).toBe(true);
    expect(checked('chat-message', 'email')).toBe(false);

    const res = await b.post('/en/profile', { intent: 'notifications', email: 'chat-message' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en/profile#notifications');
    const { id } = userRow(email);
    const rows = query<{ type: string; channel: string; enabled: number }>(
      'select type, channel, enabled from notification_preferences where user_id = ? order by type, channel',
      id,
    );
    expect(rows).toHaveLength(11);
    expect(rows.filter((r) => r.enabled).map((r) => `${r.type}:${r.channel}`)).toEqual(['chat-message:email']);
    // Without a confirmed phone the SMS column is not offered and nothing is stored for it.
    expect(rows.some((r) => r.channel === 'sms')).toBe(false);

    const bad = await b.post('/en/profile', { intent: 'notifications', email: 'not-a-type' });
    expect(bad.status).toBe(422);
    expect(query('select 1 from notification_preferences where user_id = ?', id)).toHaveLength(11);
  });
});

describe('deleting the account', () => {
  it('keeps everything on a wrong password', async () => {
    const { b, email } = await member();
    const res = await b.post('/en/profile', { intent: 'delete', password: 'not-my-password' });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('The password is not correct.');
    expect(userRow(email)).toBeDefined();
    expect((await b.whoami()).logged_in).toBe(true);
  });

  it('deletes the account, its photo and every session, and sends the member home', async () => {
    const { b, email } = await member();
    const other = browser();
    await other.post('/en/login', { login: email, password: PASSWORD });
    expect((await upload(b, await photo(), 'a.jpg', 'image/jpeg')).status).toBe(302);
    const { id, image } = userRow(email);
    const token = b.jar.get('souq.session_token') as string;

    const res = await b.post('/en/profile', { intent: 'delete', password: PASSWORD });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/en?account-deleted=1');
    expect(res.headers.getSetCookie().some((c) => /^souq\.session_token=;/.test(c) || /Max-Age=0/i.test(c))).toBe(true);
    expect((await b.whoami()).logged_in).toBe(false);
    expect((await other.whoami()).logged_in).toBe(false);
    const replay = browser();
    replay.jar.set('souq.session_token', token);
    expect((await replay.whoami()).logged_in).toBe(false);
    expect((await replay.get('/en/profile')).status).toBe(302);

    expect(userRow(email)).toBeUndefined();
    expect(query('select 1 from sessions where user_id = ?', id)).toHaveLength(0);
    expect(query('select 1 from accounts where user_id = ?', id)).toHaveLength(0);
    expect((await fetch(base + image)).status).toBe(404);
    expect((await browser().post('/en/login', { login: email, password: PASSWORD })).status).toBe(422);
  });

  it('asks a member without a password to type the word', async () => {
    const { b, email } = await member();
    const { id } = userRow(email);
    query("update accounts set password = null where user_id = ? and provider_id = 'credential'", id);
    const wrong = await b.post('/en/profile', { intent: 'delete', confirm: 'yes' });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('Type the confirmation word exactly as shown.');
    // A password does not stand in for the word.
    expect((await b.post('/en/profile', { intent: 'delete', password: PASSWORD })).status).toBe(422);
    expect(userRow(email)).toBeDefined();
    const ok = await b.post('/profile', { intent: 'delete', confirm: 'حذف' });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/?account-deleted=1');
    expect(userRow(email)).toBeUndefined();
  });
});
