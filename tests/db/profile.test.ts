// The profile domain on both dialects: profile fields, notification preferences (defaults and
// upserts), avatars in local storage, and account deletion through Better Auth.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../server/auth/index.ts';
import { loadConfig } from '../../server/config.ts';
import type { AuthMeta } from '../../server/domain/accounts.ts';
import { Invalid } from '../../server/domain/errors.ts';
import {
  AVATAR_UPLOAD_LIMIT,
  avatarKeys,
  avatarVariantUrl,
  changePassword,
  deleteAccount,
  loadProfileSettings,
  notificationPreferences,
  ownAvatarKeys,
  releaseAccountData,
  removeAvatar,
  saveNotificationPreferences,
  updateAvatar,
  updateProfile,
  wantsNotification,
} from '../../server/domain/profile.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const PASSWORD = 'profile-passphrase';
const fieldErrors = (error: unknown) => (error instanceof Invalid ? error.errors : undefined);

describe.each(dialects)('profile settings on %s', (dialect) => {
  let t: TestDatabase;
  let dir: string;
  let auth: ReturnType<typeof createAuth>;
  const storage = () => createLocalStorage(path.join(dir, 'uploads'));
  const file = (key: string) => path.join(dir, 'uploads', key);

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    dir = mkdtempSync(path.join(tmpdir(), 'souq-profile-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      AUTH_SECRET: 'profile-test-secret-0123456789-abcdefghijklmnop',
    });
    auth = createAuth(config, t);
    await t.db
      .insertInto('cities')
      .values({ slug: 'tripoli', name_ar: 'طرابلس', name_en: 'Tripoli', lat: 32.8872, lng: 13.1913, position: 1 })
      .execute();
  });
  afterAll(async () => {
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A new member and the request meta of their session (cookie header). */
  async function member(): Promise<{ id: string; meta: AuthMeta }> {
    const email = `m-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.ly`;
    await auth.api.signUpEmail({ body: { name: 'Hana', email, password: PASSWORD } });
    // Registration signs nobody in, and an email signs in once confirmed (docs/accounts.md).
    await t.db.updateTable('users').set({ email_verified: true }).where('email', '=', email).execute();
    const { headers, response } = await auth.api.signInEmail({
      body: { email, password: PASSWORD },
      returnHeaders: true,
    });
    const cookie = headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { id: response.user.id, meta: { ip: '10.9.0.1', headers: new Headers({ cookie }) } };
  }

  it('saves the profile, checks the city and refuses to show an unconfirmed phone', async () => {
    const { id } = await member();
    const city = await t.db.selectFrom('cities').select('id').executeTakeFirstOrThrow();
    const base = { name: 'Hana Salem', city: String(city.id), bio: 'Cars.', show_phone: false, locale: 'ar' as const };
    expect(await updateProfile(t.db, id, base)).toEqual({ localeChanged: false });
    expect(await updateProfile(t.db, id, { ...base, locale: 'en' })).toEqual({ localeChanged: true });
    expect(await loadProfileSettings(t.db, id)).toMatchObject({
      name: 'Hana Salem',
      city_id: city.id,
      bio: 'Cars.',
      show_phone: false,
      locale: 'en',
      has_password: true,
      phone: null,
    });

    const bad = await updateProfile(t.db, id, { ...base, name: 'Changed', city: '987654', show_phone: true }).catch(
      (e) => e,
    );
    expect(fieldErrors(bad)).toEqual({ city: ['in'], show_phone: ['phone-required-to-show'] });
    expect((await loadProfileSettings(t.db, id)).name).toBe('Hana Salem');

    await t.db
      .updateTable('users')
      .set({ phone_number: `+2189${Date.now() % 1e8}` })
      .where('id', '=', id)
      .execute();
    await updateProfile(t.db, id, { ...base, city: undefined, bio: undefined, show_phone: true });
    expect(await loadProfileSettings(t.db, id)).toMatchObject({ show_phone: true, city_id: null, bio: null });
  });

  it('keeps notification defaults until saved, then upserts the whole form', async () => {
    const { id } = await member();
    const defaults = await notificationPreferences(t.db, id);
    expect(defaults['ad-approved']).toEqual({ email: true, sms: false });
    expect(defaults['chat-message']).toEqual({ email: false, sms: false });
    expect(await wantsNotification(t.db, id, 'saved-search-match', 'email')).toBe(true);
    expect(await wantsNotification(t.db, id, 'chat-message', 'in-app')).toBe(true);

    await saveNotificationPreferences(t.db, id, { email: ['chat-message'], sms: ['ad-approved'] });
    let prefs = await notificationPreferences(t.db, id);
    expect(prefs['chat-message'].email).toBe(true);
    expect(prefs['ad-approved'].email).toBe(false);
    // No confirmed phone: SMS choices are not stored.
    expect(prefs['ad-approved'].sms).toBe(false);
    expect(await wantsNotification(t.db, id, 'ad-approved', 'email')).toBe(false);

    await t.db
      .updateTable('users')
      .set({ phone_number: `+2189${(Date.now() + 7) % 1e8}` })
      .where('id', '=', id)
      .execute();
    await saveNotificationPreferences(t.db, id, { email: ['ad-approved'], sms: ['ad-approved'] });
    prefs = await notificationPreferences(t.db, id);
    expect(prefs['ad-approved']).toEqual({ email: true, sms: true });
    expect(prefs['chat-message']).toEqual({ email: false, sms: false });
    const rows = await t.db.selectFrom('notification_preferences').selectAll().where('user_id', '=', id).execute();
    expect(rows).toHaveLength(22);
  });

  it('stores avatars under random keys, replaces and removes them', async () => {
    const { id } = await member();
    const jpeg = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#2d9c68' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Acme' } })
      .toBuffer();
    const first = await updateAvatar(t.db, storage(), id, jpeg);
    expect(first).toMatch(/^\/uploads\/avatars\/[a-z0-9_-]+\/[a-f0-9]{16}-large\.webp$/);
    const keys = avatarKeys(first);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(existsSync(file(key))).toBe(true);
    expect(avatarVariantUrl(first, 'small')).toBe(first.replace('-large.webp', '-small.webp'));
    expect(avatarVariantUrl('https://example.com/me.png', 'small')).toBe('https://example.com/me.png');
    expect(avatarKeys('https://example.com/uploads/avatars/x/0000000000000000-large.webp')).toEqual([]);

    const bad = await updateAvatar(t.db, storage(), id, Buffer.from('not an image, only text here')).catch((e) => e);
    expect(fieldErrors(bad)).toEqual({ image: ['image-unsupported-type'] });
    expect((await loadProfileSettings(t.db, id)).image).toBe(first);

    const second = await updateAvatar(t.db, storage(), id, jpeg);
    expect(second).not.toBe(first);
    for (const key of keys) expect(existsSync(file(key))).toBe(false);
    expect(await releaseAccountData(t.db, id)).toEqual({ files: avatarKeys(second), ads: [] });

    await removeAvatar(t.db, storage(), id);
    expect((await loadProfileSettings(t.db, id)).image).toBeNull();
    for (const key of avatarKeys(second)) expect(existsSync(file(key))).toBe(false);
  });

  it("never deletes another member's photo, whatever the image column names", async () => {
    const victim = await member();
    const actor = await member();
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#c0392b' } })
      .jpeg()
      .toBuffer();
    const theirs = await updateAvatar(t.db, storage(), victim.id, jpeg);
    const theirKeys = avatarKeys(theirs);
    expect(theirKeys).toHaveLength(2);
    // What Better Auth's update-user endpoint lets a member write into their own row.
    const pointAtTheirs = () => t.db.updateTable('users').set({ image: theirs }).where('id', '=', actor.id).execute();

    await pointAtTheirs();
    expect(ownAvatarKeys(actor.id, theirs)).toEqual([]);
    expect(ownAvatarKeys(victim.id, theirs)).toEqual(theirKeys);
    await removeAvatar(t.db, storage(), actor.id);
    for (const key of theirKeys) expect(existsSync(file(key))).toBe(true);

    await pointAtTheirs();
    const mine = await updateAvatar(t.db, storage(), actor.id, jpeg);
    for (const key of theirKeys) expect(existsSync(file(key))).toBe(true);
    for (const key of avatarKeys(mine)) expect(existsSync(file(key))).toBe(true);

    await pointAtTheirs();
    expect((await releaseAccountData(t.db, actor.id)).files).toEqual([]);
    expect((await loadProfileSettings(t.db, victim.id)).image).toBe(theirs);
  });

  it('limits avatar uploads per member', async () => {
    const { id } = await member();
    const junk = Buffer.from('still not an image, but every try counts');
    for (let i = 0; i < AVATAR_UPLOAD_LIMIT.limit; i++) {
      await expect(updateAvatar(t.db, storage(), id, junk)).rejects.toBeInstanceOf(Invalid);
    }
    await expect(updateAvatar(t.db, storage(), id, junk)).rejects.toMatchObject({ name: 'TooManyRequests' });
  });

  it('refuses a wrong current password', async () => {
    const { id, meta } = await member();
    const wrong = await changePassword(
      auth,
      t.db,
      id,
      { current_password: 'not-it-at-all', password: 'a-new-passphrase' },
      meta,
    ).catch((e) => e);
    expect(fieldErrors(wrong)).toEqual({ current_password: ['wrong-password'] });
    const cookies = await changePassword(
      auth,
      t.db,
      id,
      { current_password: PASSWORD, password: 'a-new-passphrase' },
      meta,
    );
    expect(cookies.some((c) => c.startsWith('souq.session_token='))).toBe(true);
    // The session the change was made from was replaced too.
    expect(await auth.api.getSession({ headers: meta.headers })).toBeNull();
  });

  it('deletes an account only with its password, and with it everything that hangs on it', async () => {
    const { id, meta } = await member();
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    const image = await updateAvatar(t.db, storage(), id, jpeg);
    await saveNotificationPreferences(t.db, id, { email: [], sms: [] });
    // An ad with a photo file: the ad is soft-deleted (kept for staff, no owner), the photo removed.
    const taxonomy = await t.db
      .insertInto('taxonomies')
      .values({ slug: `tx-${id.slice(0, 8).toLowerCase()}`, name_ar: 'قسم', name_en: 'Section' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const category = await t.db
      .insertInto('categories')
      .values({
        taxonomy_id: taxonomy.id,
        slug: `cat-${id.slice(0, 8).toLowerCase()}`,
        name_ar: 'فئة',
        name_en: 'Category',
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const city = await t.db.selectFrom('cities').select('id').executeTakeFirstOrThrow();
    const ad = await t.db
      .insertInto('ads')
      .values({
        user_id: id,
        taxonomy_id: taxonomy.id,
        category_id: category.id,
        slug: 'x',
        title: 'An ad',
        description: 'Its text',
        city_id: city.id,
        status: 'published',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const photoKey = `ads/2026/11/${id.slice(0, 8).toLowerCase()}photo`;
    await storage().put(`${photoKey}-thumb.webp`, jpeg, 'image/webp');
    await t.db
      .insertInto('ad_images')
      .values({
        ad_id: ad.id,
        user_id: id,
        key: photoKey,
        width: 64,
        height: 64,
        variants: JSON.stringify([{ name: 'thumb', width: 64, height: 64 }]),
      })
      .execute();

    const wrong = await deleteAccount(auth, t.db, storage(), id, { password: 'wrong-password' }, meta).catch((e) => e);
    expect(fieldErrors(wrong)).toEqual({ password: ['wrong-password'] });
    expect(await t.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()).toBeDefined();
    for (const key of avatarKeys(image)) expect(existsSync(file(key))).toBe(true);

    const cookies = await deleteAccount(auth, t.db, storage(), id, { password: PASSWORD }, meta);
    expect(cookies.some((c) => c.startsWith('souq.session_token=;') || /max-age=0/i.test(c))).toBe(true);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    for (const table of ['sessions', 'accounts', 'notification_preferences'] as const) {
      expect(await t.db.selectFrom(table).select('user_id').where('user_id', '=', id).execute()).toEqual([]);
    }
    for (const key of avatarKeys(image)) expect(existsSync(file(key))).toBe(false);
    expect(
      await t.db.selectFrom('ads').select(['user_id', 'status']).where('id', '=', ad.id).executeTakeFirst(),
    ).toEqual({
      user_id: null,
      status: 'deleted',
    });
    expect(existsSync(file(`${photoKey}-thumb.webp`))).toBe(false);
    expect(await auth.api.getSession({ headers: meta.headers })).toBeNull();
  });
});
