import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import sharp from 'sharp';
import { codeOf, waitForSms } from '../../support/sms-outbox.ts';
import { waitForMail } from '../../support/smtp-capture.ts';

/** Opens a page and waits until React has hydrated it. */
export async function open(page: Page, path: string) {
  const res = await page.goto(path);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  return res;
}

/**
 * No serious or critical accessibility violation on the page as it settles: short animations and
 * transitions running now (a toast fading in, a menu opening) end first, since axe would measure the
 * contrast of a half-transparent frame. Long ones (a toast's leaving after 10 s) are not waited for.
 */
export async function expectAccessible(page: Page) {
  await page.evaluate(() => {
    const short = document.getAnimations().filter((a) => {
      const end = Number(a.effect?.getComputedTiming().endTime);
      return a.playState === 'running' && Number.isFinite(end) && end <= 2000;
    });
    return Promise.all(short.map((a) => a.finished.catch(() => undefined)));
  });
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * Registers by email through the form, opens the mailed confirmation link and logs in, ending on
 * `target` (registration itself signs nobody in: docs/accounts.md). The e2e server has no SMTP_URL,
 * so its mails are files in DATA_DIR/mail.
 */
export async function registerByEmail(
  page: Page,
  input: { name: string; email: string; password: string; target: string },
) {
  const localPart = (link: string) => {
    const u = new URL(link);
    return u.pathname + u.search;
  };
  await open(page, `/en/register?redirect=${encodeURIComponent(input.target)}`);
  await page.getByLabel('Name').fill(input.name);
  await page.getByLabel('Email or phone number').fill(input.email);
  await page.locator('input[name="password"]').fill(input.password);
  await page.getByLabel('Confirm password').fill(input.password);
  await page.locator('input[name="terms"]').evaluate((el: HTMLInputElement) => el.click());
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/en\/account\/email-verification\?registered=/);
  const mail = await waitForMail(
    path.join(process.env.E2E_DATA_DIR as string, 'mail'),
    input.email,
    /Confirm your email/,
  );
  await open(page, localPart(mail.links.find((l) => l.includes('email-verification')) as string));
  await expect(page.getByRole('heading', { name: 'Your email is confirmed' })).toBeVisible();
  await open(page, `/en/login?redirect=${encodeURIComponent(input.target)}`);
  await page.getByLabel('Email or phone number').fill(input.email);
  await page.locator('input[name="password"]').fill(input.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(new RegExp(`${input.target}$`));
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

/**
 * On the ad form of a member without a confirmed phone number (English pages): follows the form's
 * link to add one, confirms it with the SMS code (the e2e server writes texts to DATA_DIR/sms) and
 * comes back to the form, whose contact options are then open. Returns the number (E.164).
 */
export async function confirmPhoneFromAdForm(page: Page): Promise<string> {
  const form = new URL(page.url()).pathname;
  await expect(page.getByText('A confirmed phone number is needed')).toBeVisible();
  await expect(page.locator('input[name="contact_phone"]')).toBeDisabled();
  await page.getByRole('link', { name: 'Add and confirm your phone number' }).first().click();
  await expect(page).toHaveURL(/\/en\/account\/phone-verification\?/);
  const rest = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  // The URL changes before the page does: wait for the verification form itself.
  const send = page.getByRole('button', { name: 'Send the code' });
  await expect(send).toBeVisible();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(`+21892${rest}`);
  await send.click();
  const sms = await waitForSms(process.env.E2E_DATA_DIR as string, `+21892${rest}`, /Souq/);
  await page.getByLabel('6-digit code').fill(codeOf(sms));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(new RegExp(`${form}(\\?.*)?$`));
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(page.locator('input[name="contact_phone"]')).toBeEnabled();
  return `+21892${rest}`;
}

/**
 * A worker's specs run one after another on its database (./test.ts), and many place ads as the admin: before the
 * admin reaches the free allowance (server/domain/ads/rules.ts), the ads earlier specs left are
 * archived in the database (the two newest stay, for a spec that placed them just before).
 */
function keepRoomInAdminAllowance() {
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'));
  try {
    db.exec('pragma busy_timeout = 5000');
    const active = `select a.id from ads a join users u on u.id = a.user_id
      where u.email = 'admin@souq.test' and a.status in ('pending', 'published') and a.deleted_at is null`;
    const ids = (db.prepare(`${active} order by a.id desc`).all() as { id: number }[]).map((r) => r.id);
    if (ids.length < 4) return;
    const older = ids.slice(2);
    db.prepare(`update ads set status = 'archived' where id in (${older.map(() => '?').join(',')})`).run(...older);
  } finally {
    db.close();
  }
}

/**
 * Posts the Toyota ad form in `context` (signed in) as a browser without JavaScript does, with
 * photos of plain colours uploaded as the form's uploader does. Returns the ad's id and the status
 * it was placed with (pending until approved).
 */
async function postToyotaAd(
  context: BrowserContext,
  baseURL: string | undefined,
  options: { title: string; whatsapp?: boolean; photos?: number },
): Promise<{ id: number; status: string }> {
  const headers = { origin: baseURL as string };
  const cities = (await (await context.request.get('/api/cities')).json()) as { data: { id: number; slug: string }[] };
  // Photos of plain colours, uploaded as the form's uploader does (with the anti-forgery token
  // its pages' cookie carries).
  if (options.photos) await context.request.get('/api/csrf-cookie');
  const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const photoIds: string[] = [];
  for (let i = 0; i < (options.photos ?? 0); i++) {
    const buffer = await sharp({
      create: { width: 800, height: 600, channels: 3, background: { r: 40 * i, g: 120, b: 200 - 30 * i } },
    })
      .jpeg()
      .toBuffer();
    const uploaded = await context.request.post('/api/ad-images', {
      headers: { ...headers, 'x-xsrf-token': decodeURIComponent(xsrf) },
      multipart: { photo: { name: `photo-${i}.jpg`, mimeType: 'image/jpeg', buffer } },
    });
    expect(uploaded.status()).toBe(201);
    photoIds.push(String(((await uploaded.json()) as { id: number }).id));
  }
  const form = new FormData();
  for (const id of photoIds) form.append('photos', id);
  for (const [key, value] of Object.entries({
    title: options.title,
    description: 'Clean car, one owner, full service history; seen in Souq al-Juma.',
    price_type: 'fixed',
    price: '45000',
    currency: 'LYD',
    city: String(cities.data.find((c) => c.slug === 'tripoli')?.id),
    'attrs.year': '2015',
    'attrs.model': 'corolla',
    contact_phone: 'on',
    ...(options.whatsapp ? { contact_whatsapp: 'on' } : {}),
    submission_key: `e2e-${options.title}`,
  })) {
    form.append(key, value);
  }
  const placed = await context.request.post('/en/place-your-ad/motors/cars/toyota', { form, headers, maxRedirects: 0 });
  expect(placed.status()).toBe(302);
  const location = placed.headers().location ?? '';
  const id = Number(/placed=(\d+)/.exec(location)?.[1]);
  // My ads' tab of the new ad: pending under pre-moderation, else the active tab (no status).
  return { id, status: /status=pending/.test(location) ? 'pending' : 'published' };
}

/**
 * The demo super admin places a Toyota ad by posting the ad form as a browser without JavaScript
 * does (other specs use the member account's free allowance), in a context of its own. Returns the
 * ad's id and the status it was placed with (pending until approved).
 */
export async function placeAdAsAdmin(
  browser: Browser,
  baseURL: string | undefined,
  options: { title: string; whatsapp?: boolean; approve?: boolean; photos?: number },
): Promise<{ id: number; status: string; path: string }> {
  keepRoomInAdminAllowance();
  const admin = await browser.newContext({ baseURL });
  const headers = { origin: baseURL as string };
  const post = (url: string, form: Record<string, string>) =>
    admin.request.post(url, { form, headers, maxRedirects: 0 });
  expect((await post('/en/login', { login: 'admin@souq.test', password: 'password123' })).status()).toBe(302);
  const placed = await postToyotaAd(admin, baseURL, options);
  const { id } = placed;
  let { status } = placed;
  if (options.approve) {
    expect((await post('/en/admin/posts', { intent: `approve:${id}` })).status()).toBeLessThan(400);
    status = 'published';
  }
  const card = (await (await admin.request.get(`/api/posts/${id}/card`)).json()) as {
    data?: { slug: string; taxonomy_slug: string; category_slug: string };
  };
  await admin.close();
  const path = card.data ? `/${card.data.taxonomy_slug}/${card.data.category_slug}/${card.data.slug}-${id}` : '';
  return { id, status, path };
}

/**
 * A new member, signed in in `context`: registered by posting the form, the email and a phone
 * number confirmed in the e2e database (what the mailed link and the SMS code do; placing an ad
 * needs the phone). Returns the email.
 */
export async function signUpMember(context: BrowserContext, baseURL: string | undefined, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now().toString(36)}@example.ly`;
  // Each new member comes from an address of its own (the e2e server trusts one proxy hop), as
  // different people do: the registrations of the suite's journeys stay within the per-address limit.
  const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  const headers = { origin: baseURL as string, 'x-forwarded-for': address };
  const password = 'member-passphrase';
  const post = (url: string, form: Record<string, string>) =>
    context.request.post(url, { form, headers, maxRedirects: 0 });
  const registered = await post('/en/register', {
    name,
    login: email,
    password,
    password_confirmation: password,
    terms: 'on',
  });
  expect(registered.status()).toBe(302);
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'));
  try {
    db.exec('pragma busy_timeout = 5000');
    const phone = `+21894${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    db.prepare('update users set email_verified = 1, phone_number = ?, phone_number_verified = 1 where email = ?').run(
      phone,
      email,
    );
  } finally {
    db.close();
  }
  expect((await post('/en/login', { login: email, password })).status()).toBe(302);
  return email;
}

/** A member places a Toyota ad (pending review) by posting the ad form in `context`. */
export async function placeAdAsMember(
  context: BrowserContext,
  baseURL: string | undefined,
  options: { title: string },
): Promise<{ id: number; status: string }> {
  return postToyotaAd(context, baseURL, options);
}
