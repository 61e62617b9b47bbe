// The photos of the ad form (docs/product/ads.md): real images uploaded from the file picker, made smaller
// and turned upright in the browser, with progress; reordered by dragging and by the keyboard;
// kept through a reload and a refused submission; a file that is not a photo shows the server's
// words with a retry button; the placed ad holds the photos in the chosen order (read from the
// server's database).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import sharp from 'sharp';
import { confirmPhoneFromAdForm, expectAccessible, open, registerByEmail } from './support/helpers.ts';
import { expect, type Locator, type Page, test } from './support/test.ts';

const FORM = '/en/place-your-ad/motors/cars/toyota';

function database() {
  return new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'), { readOnly: true });
}

/** Photos written to a temporary folder, as a member's phone would have them. */
async function photoFiles() {
  const dir = mkdtempSync(path.join(tmpdir(), 'souq-photos-'));
  // A 3000×2000 camera photo stored sideways (EXIF orientation 6): upright it is 2000×3000.
  const camera = path.join(dir, 'camera.jpg');
  await sharp({ create: { width: 3000, height: 2000, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .toFile(camera);
  // A small screenshot: sent as it is.
  const screenshot = path.join(dir, 'screenshot.png');
  await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 30, g: 90, b: 200 } } })
    .png()
    .toFile(screenshot);
  // Not a photo at all, whatever its name says.
  const notes = path.join(dir, 'notes.jpg');
  writeFileSync(notes, 'These are my notes, not a photo.\n');
  return { camera, screenshot, notes };
}

/**
 * Keeps a copy of every `photo` the page uploads (the browser does not show multipart file bodies
 * to the test), to read back with `sentPhotos`.
 */
async function recordUploads(page: Page) {
  await page.addInitScript(() => {
    const sent: Promise<{ name: string; data: string }>[] = [];
    (window as unknown as { sentPhotos: typeof sent }).sentPhotos = sent;
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (body) {
      const photo = body instanceof FormData ? body.get('photo') : null;
      if (photo instanceof File) {
        sent.push(
          photo.arrayBuffer().then((buffer) => {
            const bytes = new Uint8Array(buffer);
            let text = '';
            for (let i = 0; i < bytes.length; i += 0x8000)
              text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
            return { name: photo.name, data: btoa(text) };
          }),
        );
      }
      return send.call(this, body);
    };
  });
}

/** What the page uploaded so far: each file's name and image metadata. */
async function sentPhotos(page: Page) {
  const sent = await page.evaluate(() =>
    Promise.all((window as unknown as { sentPhotos: Promise<{ name: string; data: string }>[] }).sentPhotos),
  );
  return Promise.all(
    sent.map(async (s) => ({ name: s.name, ...(await sharp(Buffer.from(s.data, 'base64')).metadata()) })),
  );
}

const photoIds = (page: Page) =>
  page
    .locator('input[type="hidden"][name="photos"]')
    .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));

const card = (page: Page, n: number): Locator => page.locator('#ad-photos li').nth(n - 1);

async function register(page: Page) {
  const email = `photos-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
  await registerByEmail(page, { name: 'Nuri', email, password: 'photos-passphrase', target: FORM });
  await confirmPhoneFromAdForm(page);
}

test('photos: uploaded resized with progress, reordered, kept through a reload and a refusal, placed in order @phone', async ({
  page,
}, info) => {
  test.setTimeout(90_000);
  const files = await photoFiles();
  await recordUploads(page);
  await register(page);

  const input = page.locator('#ad-photos input[type="file"]');
  await expect(input).toHaveAttribute('accept', 'image/*');
  await expect(input).toHaveAttribute('multiple', '');
  // The uploads are held until the progress bars have been seen, then let through.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/ad-images', async (route) => {
    await released;
    await route.continue();
  });
  await input.setInputFiles([files.camera, files.screenshot]);
  await expect(page.locator('#ad-photos li')).toHaveCount(2);
  // (A bar at 0 % has no width: attached, not "visible".)
  await expect(page.getByRole('progressbar', { name: 'Upload of photo 1' })).toBeAttached();
  await expect(page.getByRole('progressbar', { name: 'Upload of photo 2' })).toBeAttached();
  await expect(page.locator('#ad-photos li[data-status="done"]')).toHaveCount(0);
  release();
  await expect(page.locator('#ad-photos li[data-status="done"]')).toHaveCount(2, { timeout: 20_000 });
  await expect(page.locator('#ad-photos [role="progressbar"]')).toHaveCount(0);
  await page.unroute('**/api/ad-images');
  await expect(page.getByRole('status').filter({ hasText: 'is uploaded' })).toBeAttached();
  await expect(card(page, 1).getByText('Cover')).toBeVisible();
  await expect(card(page, 1).getByRole('img', { name: 'Photo 1' })).toHaveJSProperty('complete', true);
  const [camera, screenshot] = await photoIds(page);
  expect(camera).toMatch(/^\d+$/);
  expect(screenshot).toMatch(/^\d+$/);

  // The camera photo went up upright and at most 2048 px long, as a JPEG; the small PNG unchanged.
  const sent = await sentPhotos(page);
  expect(sent).toHaveLength(2);
  const big = sent.find((m) => m.name === 'camera.jpg');
  expect(big).toMatchObject({ format: 'jpeg', width: 1365, height: 2048 });
  expect(big?.orientation ?? 1).toBe(1);
  expect(sent.find((m) => m.name === 'screenshot.png')).toMatchObject({ format: 'png', width: 800, height: 600 });
  await expectAccessible(page);

  // Reordered by dragging (desktop) or with the buttons, which keep the keyboard focus.
  if (info.project.name === 'desktop') {
    await card(page, 2).dragTo(card(page, 1));
    await expect.poll(() => photoIds(page)).toEqual([screenshot, camera]);
    await page.getByRole('button', { name: 'Move photo 1 later' }).click();
    await expect.poll(() => photoIds(page)).toEqual([camera, screenshot]);
    // The moved photo is now last: the focus moves to its other button.
    await expect(page.getByRole('button', { name: 'Move photo 2 earlier' })).toBeFocused();
    await page.keyboard.press('Enter');
  } else {
    await page.getByRole('button', { name: 'Move photo 2 earlier' }).click();
  }
  await expect.poll(() => photoIds(page)).toEqual([screenshot, camera]);
  await expect(card(page, 1)).toHaveAttribute('data-photo-id', screenshot);
  await expect(card(page, 1).getByText('Cover')).toBeVisible();
  await expect(card(page, 2).getByText('Cover')).toHaveCount(0);

  // A text file named .jpg: the server's translated words, and a retry button.
  await input.setInputFiles(files.notes);
  const bad = card(page, 3);
  await expect(bad).toHaveAttribute('data-status', 'error', { timeout: 15_000 });
  const refusal = 'This file is not a photo we can use. Choose a JPEG, PNG, WebP, GIF or AVIF image.';
  await expect(bad.getByText(refusal)).toBeVisible();
  await expect(bad.getByRole('button', { name: 'Retry photo 3' })).toBeVisible();
  await bad.getByRole('button', { name: 'Retry photo 3' }).click();
  await expect(bad).toHaveAttribute('data-status', 'error', { timeout: 15_000 });
  await expectAccessible(page);

  // The draft keeps the photos, in their order, through a reload (the failed file is not kept).
  await page.getByLabel('Title').fill(`Toyota Yaris with photos ${Date.now()}`);
  await page.reload();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(page.locator('#ad-photos li[data-status="done"]')).toHaveCount(2);
  await expect(page.locator('#ad-photos li')).toHaveCount(2);
  expect(await photoIds(page)).toEqual([screenshot, camera]);
  await expect(card(page, 1).getByRole('img', { name: 'Photo 1' })).toHaveJSProperty('naturalWidth', 320);

  // A failed photo stops the form from being sent until it is retried or removed.
  await input.setInputFiles(files.notes);
  await expect(card(page, 3)).toHaveAttribute('data-status', 'error', { timeout: 15_000 });
  await page.getByLabel('Description').fill('Small city car, new tyres, air conditioning works well. Seen in Tripoli.');
  await page.getByLabel('Amount').fill('28000');
  await page.locator('input[name="attrs.year"]').fill('2016');
  await page.locator('select[name="attrs.model"]').selectOption('yaris');
  await page.locator('select[name="city"]').selectOption({ label: 'Tripoli' });
  await page.getByRole('button', { name: 'Send for review' }).click();
  await expect(page.getByText('Some photos could not be uploaded. Retry them or remove them')).toBeVisible();
  await card(page, 3).getByRole('button', { name: 'Remove photo 3' }).click();
  await expect(page.locator('#ad-photos li')).toHaveCount(2);
  await expect(page.getByText('Some photos could not be uploaded')).toHaveCount(0);

  // Refused by the server (an area of another city, which only the server checks): the photos stay.
  const db = database();
  const otherArea = db
    .prepare(
      `select a.id from areas a join cities c on c.id = a.city_id where c.name_en <> 'Tripoli' order by a.id limit 1`,
    )
    .get() as { id: number };
  db.close();
  await page.locator('select[name="area"]').evaluate((el: HTMLSelectElement, id: string) => {
    el.add(new Option('Elsewhere', id));
    el.value = id;
  }, String(otherArea.id));
  await page.getByRole('button', { name: 'Send for review' }).click();
  await expect(page.locator('select[name="area"]')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#ad-photos li[data-status="done"]')).toHaveCount(2);
  expect(await photoIds(page)).toEqual([screenshot, camera]);
  // …and are still in the draft.
  await page.reload();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expect(page.locator('#ad-photos li[data-status="done"]')).toHaveCount(2);
  expect(await photoIds(page)).toEqual([screenshot, camera]);

  await page.locator('select[name="city"]').selectOption({ label: 'Tripoli' });
  await page.locator('select[name="area"]').selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Send for review' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Our team will review it shortly' })).toBeVisible();
  const placed = Number(new URL(page.url()).searchParams.get('placed'));
  expect(placed).toBeGreaterThan(0);

  const check = database();
  const rows = check.prepare('select id, position from ad_images where ad_id = ? order by position').all(placed) as {
    id: number;
    position: number;
  }[];
  check.close();
  expect(rows.map((r) => String(r.id))).toEqual([screenshot, camera]);
  expect(rows.map((r) => r.position)).toEqual([0, 1]);

  // Placed: the draft and its photos are gone.
  await open(page, FORM);
  await expect(page.locator('#ad-photos li')).toHaveCount(0);
});

test('photos in Arabic, right to left, in dark mode', async ({ page }) => {
  const files = await photoFiles();
  await register(page);
  await page.evaluate(() => localStorage.setItem('nuxt-color-mode', 'dark'));
  await open(page, '/place-your-ad/motors/cars/toyota');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'أضف صورًا' })).toBeEnabled();
  await page.locator('#ad-photos input[type="file"]').setInputFiles([files.screenshot, files.notes]);
  await expect(page.locator('#ad-photos li[data-status="done"]')).toHaveCount(1, { timeout: 20_000 });
  await expect(card(page, 2)).toHaveAttribute('data-status', 'error', { timeout: 15_000 });
  await expect(card(page, 1).getByText('الغلاف')).toBeVisible();
  await expect(card(page, 2).getByText('هذا الملف ليس صورة', { exact: false })).toBeVisible();
  await expect(card(page, 2).getByRole('button', { name: 'أعد المحاولة للصورة 2' })).toBeVisible();
  await expectAccessible(page);
});

test('photos without JavaScript: a note says so, the rest of the form is still there', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/en/login?redirect=%2Fen%2Fplace-your-ad%2Fmotors%2Fcars%2Ftoyota');
  await page.getByLabel('Email or phone number').fill('user@souq.test');
  await page.locator('input[name="password"]').fill('password123');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/en\/place-your-ad\/motors\/cars\/toyota$/);
  // Chromium with scripts turned off by the test does not show <noscript> (it keeps it as text),
  // so the note is checked as sent rather than as shown.
  expect(await page.locator('#ad-photos noscript').evaluate((el) => el.textContent)).toContain(
    'Photos can be added when JavaScript is turned on in your browser.',
  );
  await expect(page.getByRole('button', { name: 'Add photos' })).toBeDisabled();
  await expect(page.getByLabel('Title')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send for review' })).toBeVisible();
  await context.close();
});
