import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_RATE_LIMIT, submitContactMessage } from '../../server/domain/contact.ts';
import { Invalid, TooManyRequests } from '../../server/domain/errors.ts';
import { hitRateLimit, pruneRateLimits } from '../../server/domain/rate-limit.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const valid = {
  name: 'Amal',
  email: 'amal@example.ly',
  subject: 'ad',
  message: 'My ad has been pending for two days.',
};

describe.each(dialects)('contact messages and rate limits on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
  });
  afterAll(() => t.drop());

  const count = async () =>
    Number(
      (
        await t.db
          .selectFrom('contact_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores a valid message with its locale and sender address', async () => {
    const id = await submitContactMessage(t.db, valid, { ip: '10.0.0.1', userAgent: 'test', locale: 'en' });
    const row = await t.db.selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: 'Amal',
      email: 'amal@example.ly',
      phone: null,
      subject: 'ad',
      status: 'new',
      locale: 'en',
      ip: '10.0.0.1',
    });
  });

  it('refuses bad input with field errors and stores nothing', async () => {
    const before = await count();
    await expect(
      submitContactMessage(
        t.db,
        { ...valid, email: 'nope', message: 'x' },
        { ip: '10.0.0.2', userAgent: '', locale: 'ar' },
      ),
    ).rejects.toSatisfy(
      (e) => e instanceof Invalid && e.errors.email?.[0] === 'email' && e.errors.message?.[0] === 'min:10',
    );
    expect(await count()).toBe(before);
  });

  it('limits one address to five messages an hour and stores nothing more', async () => {
    const meta = { ip: '10.0.0.3', userAgent: '', locale: 'ar' };
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) await submitContactMessage(t.db, valid, meta);
    const before = await count();
    await expect(submitContactMessage(t.db, valid, meta)).rejects.toSatisfy(
      (e) => e instanceof TooManyRequests && e.retryAfter > 0 && e.retryAfter <= 3600,
    );
    expect(await count()).toBe(before);
    // Another address is not affected.
    await submitContactMessage(t.db, valid, { ...meta, ip: '10.0.0.4' });
  });

  it('opens a new window once the old one has passed', async () => {
    const rule = { name: 'window-test', limit: 1, windowSeconds: 60 };
    await hitRateLimit(t.db, rule, 'a', 1_000_000);
    await expect(hitRateLimit(t.db, rule, 'a', 1_000_000 + 30_000)).rejects.toBeInstanceOf(TooManyRequests);
    await hitRateLimit(t.db, rule, 'a', 1_000_000 + 61_000);
    await pruneRateLimits(t.db, 1_000_000 + 200_000);
    const left = await t.db.selectFrom('rate_limits').select('key').where('key', '=', 'window-test:a').execute();
    expect(left).toEqual([]);
  });
});
