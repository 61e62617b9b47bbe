import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeholderEmail } from '../../server/auth/placeholder-email.ts';
import { pruneUnconfirmedPhoneSignups } from '../../server/domain/account-cleanup.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

describe.each(dialects)('unconfirmed phone sign-ups on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
  });
  afterAll(() => t.drop());

  const DAY = 86_400_000;
  const now = Date.parse('2026-11-21T12:00:00Z');
  async function user(
    id: string,
    fields: { email?: string; phone?: string | null; ageDays: number; provider?: string; image?: string },
  ) {
    const created = new Date(now - fields.ageDays * DAY).toISOString();
    await t.db
      .insertInto('users')
      .values({
        id,
        name: id,
        email: fields.email ?? placeholderEmail(),
        phone_number: fields.phone ?? null,
        image: fields.image ?? null,
        created_at: created,
        updated_at: created,
      } as never)
      .execute();
    await t.db
      .insertInto('accounts')
      .values({
        id: `${id}-acc`,
        user_id: id,
        account_id: id,
        provider_id: fields.provider ?? 'credential',
        created_at: created,
        updated_at: created,
      } as never)
      .execute();
  }

  it('removes only old accounts with neither a confirmed phone, a real email nor another way in', async () => {
    await user('stale', { ageDays: 8 });
    await user('recent', { ageDays: 2 });
    await user('confirmed-phone', { ageDays: 30, phone: '+218911111111' });
    await user('real-email', { ageDays: 30, email: 'someone@example.ly' });
    await user('firebase-phone-only', { ageDays: 30, provider: 'firebase' });
    expect(await pruneUnconfirmedPhoneSignups(t.db, now)).toBe(1);
    const left = (await t.db.selectFrom('users').select('id').orderBy('id').execute()).map((u) => u.id);
    expect(left).toEqual(['confirmed-phone', 'firebase-phone-only', 'real-email', 'recent']);
    expect(await t.db.selectFrom('accounts').select('id').where('user_id', '=', 'stale').execute()).toEqual([]);
    expect(await pruneUnconfirmedPhoneSignups(t.db, now)).toBe(0);
  });

  it("deletes a removed account's own files only", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'souq-cleanup-'));
    try {
      const storage = createLocalStorage(path.join(dir, 'uploads'));
      const file = (key: string) => path.join(dir, 'uploads', key);
      const bytes = Buffer.from('webp bytes');
      const keys = {
        own: ['avatars/gone/0123456789abcdef-large.webp', 'avatars/gone/0123456789abcdef-small.webp'],
        theirs: ['avatars/kept/fedcba9876543210-large.webp', 'avatars/kept/fedcba9876543210-small.webp'],
        photo: ['ads/2026/11/aaaaaaaaaaaaaaaa-thumb.webp'],
      };
      for (const key of Object.values(keys).flat()) await storage.put(key, bytes, 'image/webp');
      await user('gone', { ageDays: 9, image: `/uploads/${keys.own[0]}` });
      // An unconfirmed sign-up whose photo column names someone else's photo.
      await user('gone-too', { ageDays: 9, image: `/uploads/${keys.theirs[0]}` });
      await user('kept', { ageDays: 9, email: 'kept@example.ly', image: `/uploads/${keys.theirs[0]}` });
      await t.db
        .insertInto('ad_images')
        .values({ user_id: 'gone', key: 'ads/2026/11/aaaaaaaaaaaaaaaa', width: 8, height: 8, variants: '[]' })
        .execute();
      expect(await pruneUnconfirmedPhoneSignups(t.db, now, storage)).toBe(2);
      for (const key of [...keys.own, ...keys.photo]) expect(existsSync(file(key))).toBe(false);
      for (const key of keys.theirs) expect(existsSync(file(key))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
