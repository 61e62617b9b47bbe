// The counters of migration 0028 (server/domain/ads/counts.ts) on every dialect: after each path
// that inserts, deletes or moves ads or members — placing (pre- and post-moderation), approving,
// rejecting, resubmitting, marking sold, expiring (the job), renewing, deleting, a ban and its
// undoing, a member's account deletion, a category moved to another taxonomy, a city merged into
// another, a member joining and leaving — the stored counts equal a fresh count of the rows. And
// the check itself can fail: with one trigger gone, the counters fall behind and it says so.
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import * as catalogue from '../../server/domain/admin/catalogue.ts';
import { mergeCity } from '../../server/domain/admin/places.ts';
import { banUser, unbanUser } from '../../server/domain/admin/users.ts';
import { adStatusCounts, countAfresh, recountAll, storedCounts } from '../../server/domain/ads/counts.ts';
import { createAd, resolveCategoryPath, updateAd } from '../../server/domain/ads/placing.ts';
import { expireAds, moveAd } from '../../server/domain/ads/status.ts';
import { listCategoryAttributes } from '../../server/domain/catalog.ts';
import { listModerationQueue } from '../../server/domain/moderation.ts';
import { releaseAccountData } from '../../server/domain/profile.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const DAY = 86_400_000;

const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();

describe.each(dialects)('the ad and member counters on %s', (dialect) => {
  let t: TestDatabase;
  let tripoli: number;
  let misrata: number;
  let staff: { id: string; ip: string; userAgent: string; superAdmin: boolean };
  let owner: { id: string; ip: string; userAgent: string };

  const city = async (slug: string) =>
    (await t.db.selectFrom('cities').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;

  /** The stored counters against the rows, counted afresh. */
  const expectInStep = async () => {
    const [stored, fresh] = await Promise.all([storedCounts(t.db), countAfresh(t.db, dialect)]);
    expect(sorted(stored.ads)).toEqual(sorted(fresh.ads));
    expect(sorted(stored.days)).toEqual(sorted(fresh.days));
  };

  const place = async (title: string, moderation: 'pre' | 'post', cityId = tripoli, who = owner, now = new Date()) => {
    const path = await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']);
    return (
      await createAd(
        t.db,
        { moderation, now },
        who,
        path,
        await listCategoryAttributes(t.db, 'toyota'),
        toyotaAdInput(cityId, { title, submission_key: `${title}-${Math.random()}` }),
      )
    ).id;
  };

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    tripoli = await city('tripoli');
    misrata = await city('misrata');
    staff = { ...(await insertMember(t.db, { name: 'Staff' })), superAdmin: true };
    owner = await insertMember(t.db, { name: 'Owner' });
  });
  afterAll(() => t.drop());
  beforeEach(async () => {
    await expectInStep();
  });

  it('follows placing, approving, rejecting, resubmitting, selling, deleting', async () => {
    const waiting = await place('Waiting', 'pre');
    const live = await place('Live at once', 'post');
    await expectInStep();
    expect(await adStatusCounts(t.db)).toMatchObject({ pending: 1, published: 1 });
    await moveAd(t.db, staff, waiting, 'approve');
    await expectInStep();
    await moveAd(t.db, staff, waiting, 'reject', { reason: 'duplicate' });
    await expectInStep();
    // The owner's edit sends a rejected ad back to review.
    await updateAd(
      t.db,
      { moderation: 'pre' },
      owner,
      waiting,
      await listCategoryAttributes(t.db, 'toyota'),
      toyotaAdInput(tripoli, { title: 'Waiting', description: 'Clean car, one owner, edited after the rejection.' }),
    );
    await expectInStep();
    expect((await adStatusCounts(t.db)).pending).toBe(1);
    await moveAd(t.db, owner, live, 'mark-sold', { owner: owner.id });
    await expectInStep();
    await moveAd(t.db, owner, waiting, 'delete', { owner: owner.id });
    await expectInStep();
    expect(await adStatusCounts(t.db)).toMatchObject({ pending: 0, published: 0, sold: 1, deleted: 1 });
  });

  it('fails when a write leaves the counters behind, and a recount puts them right', async () => {
    const ad = await place('Unwatched', 'pre');
    // The trigger that follows status moves, set aside as a forgetful path would be (SQLite: dropped,
    // then created again from its own definition).
    const definition =
      dialect === 'sqlite'
        ? (
            await sql<{
              sql: string;
            }>`select sql from sqlite_schema where type = 'trigger' and name = 'ad_counts_move'`.execute(t.db)
          ).rows[0]?.sql
        : undefined;
    if (dialect === 'postgres') await sql`alter table ads disable trigger ad_counts_move`.execute(t.db);
    else await sql`drop trigger ad_counts_move`.execute(t.db);
    try {
      await moveAd(t.db, staff, ad, 'approve');
      const [stored, fresh] = await Promise.all([storedCounts(t.db), countAfresh(t.db, dialect)]);
      expect(sorted(stored.ads)).not.toEqual(sorted(fresh.ads));
    } finally {
      if (dialect === 'postgres') await sql`alter table ads enable trigger ad_counts_move`.execute(t.db);
      else await sql.raw(definition as string).execute(t.db);
    }
    await recountAll(t.db, dialect);
    await expectInStep();
  });

  it('follows the expiry job and a renewal', async () => {
    const ad = await place('Expiring', 'post');
    const later = new Date(Date.now() + 400 * DAY);
    expect(await expireAds(t.db, later)).toBeGreaterThanOrEqual(1);
    await expectInStep();
    expect((await adStatusCounts(t.db)).expired).toBeGreaterThanOrEqual(1);
    await moveAd(t.db, owner, ad, 'renew', { owner: owner.id, now: later });
    await expectInStep();
  });

  it('follows a ban and its undoing, and a member’s account deletion', async () => {
    const member = await insertMember(t.db, { name: 'Leaving' });
    await place('Leaving live', 'post', tripoli, member);
    await place('Leaving waiting', 'pre', misrata, member);
    await expectInStep();
    await banUser(t.db, staff, member.id, 'spam');
    await expectInStep();
    await unbanUser(t.db, staff, member.id);
    await expectInStep();
    // What deleting an account does: the ads leave (soft-deleted), then the member's row goes (the
    // ads keep no owner).
    await releaseAccountData(t.db, member.id);
    await expectInStep();
    await t.db.deleteFrom('users').where('id', '=', member.id).execute();
    await expectInStep();
    const counts = await adStatusCounts(t.db, { cityId: misrata });
    expect(counts.pending).toBe(0);
  });

  it('follows a category moved to another taxonomy and a city merged into another', async () => {
    await place('Moving car', 'post');
    await place('Moving car 2', 'pre', misrata);
    const toyota = await t.db
      .selectFrom('categories')
      .select('id')
      .where('slug', '=', 'toyota')
      .executeTakeFirstOrThrow();
    const other = await t.db
      .selectFrom('taxonomies')
      .select('id')
      .where('slug', '=', 'electronics')
      .executeTakeFirstOrThrow();
    const impact = await catalogue.moveImpact(t.db, toyota.id);
    const moved = await catalogue.moveCategory(
      t,
      staff,
      toyota.id,
      { taxonomyId: other.id, parentId: null },
      impact.ads,
    );
    expect(moved.done).toBe(true);
    await expectInStep();
    expect((await adStatusCounts(t.db, { taxonomyId: other.id })).published).toBeGreaterThanOrEqual(1);
    await mergeCity(t.db, dialect, staff, misrata, tripoli);
    await expectInStep();
    expect(Object.values(await adStatusCounts(t.db, { cityId: misrata })).every((n) => n === 0)).toBe(true);
  });

  it('counts members per day as they join and leave', async () => {
    const at = (iso: string) => (dialect === 'postgres' ? new Date(iso) : iso);
    await t.db
      .insertInto('users')
      .values([
        { id: 'day-1', name: 'a', email: 'day-1@example.ly', created_at: at('2026-03-01T23:59:59.000Z') },
        { id: 'day-2', name: 'b', email: 'day-2@example.ly', created_at: at('2026-03-02T00:00:00.000Z') },
      ] as never)
      .execute();
    await expectInStep();
    const row = await t.db
      .selectFrom('daily_counts')
      .select('n')
      .where('kind', '=', 'users')
      .where('day', '=', '2026-03-01')
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(1);
    await t.db.deleteFrom('users').where('id', 'in', ['day-1', 'day-2']).execute();
    await expectInStep();
  });

  it('the queue’s tab counts are the counters', async () => {
    const page = await listModerationQueue(t.db, { status: 'pending' });
    const fresh = await t.db
      .selectFrom('ads')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('status')
      .execute();
    for (const r of fresh) expect(page.counts[r.status]).toBe(Number(r.n));
  });
});
