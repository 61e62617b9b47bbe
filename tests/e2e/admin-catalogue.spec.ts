import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expectAccessible, open, signUpMember } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

// The catalogue editor end to end (docs/product/back-office.md, "Catalogue"): a catalog editor adds
// a category with a select attribute, a member places an ad in it with the new attribute, and once
// the ad is approved the attribute is a filter on /posts that finds it.

test('a catalog editor adds a category with a select attribute; a member posts in it; the filter appears on /posts', async ({
  browser,
  baseURL,
}) => {
  const run = Date.now().toString(36);
  const slug = `drones-${run}`;

  // The editor: a member holding the seeded catalog-editor role.
  const editorContext = await browser.newContext({ baseURL });
  const editorEmail = await signUpMember(editorContext, baseURL, 'Catalog Editor');
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR as string, 'souq.db'));
  try {
    db.exec('pragma busy_timeout = 5000');
    db.prepare(
      "insert into user_roles (user_id, role_id) select u.id, r.id from users u, roles r where u.email = ? and r.name = 'catalog-editor'",
    ).run(editorEmail);
  } finally {
    db.close();
  }
  const editor = await editorContext.newPage();
  await open(editor, '/en/admin/categories/electronics');
  await expect(editor.getByRole('heading', { name: 'Electronics', level: 1 })).toBeVisible();
  await editor.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await expectAccessible(editor);

  const add = editor.locator('form').filter({ has: editor.getByRole('button', { name: 'Add category' }) });
  await add.getByLabel('Name in Arabic').fill('طائرات مسيّرة');
  await add.getByLabel('Name in English').fill(`Drones ${run}`);
  await add.getByLabel('Slug (in the address)').fill(slug);
  await add.getByLabel('Icon').selectOption('camera');
  await add.getByRole('button', { name: 'Add category' }).click();
  await expect(editor.getByRole('status').filter({ hasText: 'Created.' })).toBeVisible();
  await editor.getByRole('link', { name: `Drones ${run}` }).click();
  await expect(editor.getByRole('heading', { name: `Drones ${run}`, level: 1 })).toBeVisible();
  await editor.getByRole('link', { name: 'Attributes of this category' }).click();
  await expect(editor.getByRole('heading', { name: `Attributes: Drones ${run}`, level: 1 })).toBeVisible();
  await editor.locator('html[data-hydrated]').waitFor({ state: 'attached' });

  const form = editor.locator('form').filter({ has: editor.getByRole('button', { name: 'Add attribute' }) });
  await form.getByLabel('Key').fill('rotors');
  await form.getByLabel('Type').selectOption('select');
  await form.getByLabel('Name in Arabic').fill('عدد المراوح');
  await form.getByLabel('Name in English').fill('Rotors');
  await form.getByLabel('Value 1', { exact: true }).fill('quad');
  await form.getByLabel('Arabic label 1', { exact: true }).fill('رباعية');
  await form.getByLabel('English label 1', { exact: true }).fill('Quadcopter');
  await form.getByLabel('Value 2', { exact: true }).fill('hexa');
  await form.getByLabel('Arabic label 2', { exact: true }).fill('سداسية');
  await form.getByLabel('English label 2', { exact: true }).fill('Hexacopter');
  await form.getByLabel('Filter on listings').check();
  await form.getByLabel('Required').check();
  await form.getByRole('button', { name: 'Add attribute' }).click();
  await expect(editor.getByRole('status').filter({ hasText: 'Created.' })).toBeVisible();
  await expect(editor.getByRole('heading', { name: 'Rotors', level: 3 })).toBeVisible();
  await expectAccessible(editor);
  await editorContext.close();

  // A member places an ad in the new category, with the new attribute.
  const memberContext = await browser.newContext({ baseURL });
  await signUpMember(memberContext, baseURL, 'Drone Seller');
  const member = await memberContext.newPage();
  await open(member, `/en/place-your-ad/electronics/${slug}`);
  await member.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  const title = `Hexacopter with camera ${run}`;
  await member.getByLabel('Title').fill(title);
  await member.getByLabel('Description').fill('Six rotors, 4K camera, two batteries, flown twice. Pick up in Tripoli.');
  await member.getByLabel('Amount').fill('2500');
  await member.locator('select[name="attrs.rotors"]').selectOption('hexa');
  await member.locator('select[name="city"]').selectOption({ label: 'Tripoli' });
  await member.getByRole('button', { name: 'Send for review' }).click();
  await expect(member.getByRole('status').filter({ hasText: 'Our team will review it shortly' })).toBeVisible();
  const adId = Number(/placed=(\d+)/.exec(member.url())?.[1]);
  expect(adId).toBeGreaterThan(0);
  await memberContext.close();

  // Approved by staff (the super admin), so it is listed.
  const admin = await browser.newContext({ baseURL });
  const headers = { origin: baseURL as string };
  expect(
    (
      await admin.request.post('/en/login', {
        form: { login: 'admin@souq.test', password: 'password123' },
        headers,
        maxRedirects: 0,
      })
    ).status(),
  ).toBe(302);
  expect(
    (
      await admin.request.post('/en/admin/posts', { form: { intent: `approve:${adId}` }, headers, maxRedirects: 0 })
    ).status(),
  ).toBeLessThan(400);
  await admin.close();

  // A visitor: the listing of the category offers the new attribute as a filter, and it finds the ad.
  const visitor = await browser.newContext({ baseURL });
  const page = await visitor.newPage();
  await open(page, `/en/posts?category=${slug}`);
  const filter = page.getByRole('group', { name: 'Rotors' });
  await expect(filter).toBeVisible();
  await expect(filter.getByLabel('Hexacopter')).toBeVisible();
  await expect(page.getByRole('link', { name: title }).first()).toBeVisible();
  await open(page, `/en/posts?category=${slug}&f.rotors=quad`);
  await expect(page.getByRole('link', { name: title })).toHaveCount(0);
  await open(page, `/en/posts?category=${slug}&f.rotors=hexa`);
  await expect(page.getByRole('link', { name: title }).first()).toBeVisible();
  await visitor.close();
});
