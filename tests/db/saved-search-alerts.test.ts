// Saved-search alerts (docs/product/alerts.md) on both dialects: the candidate index finds every
// saved search whose query the search service would list a new ad for, and only through the
// service's own rule (Arabic morphology, vocabulary, price bands, city, area, category scope);
// instant searches are told at once, never the seller's own; daily ones wait for one digest a day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery, type SearchQuery } from '../../app/lib/search-query.ts';
import type { AlertFrequency } from '../../app/lib/validation/saved-search.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson } from '../../server/db/values.ts';
import { moveAd } from '../../server/domain/ads/status.ts';
import {
  alertSavedSearches,
  alertsCatalogue,
  deliverDailyDigests,
  digestStart,
  findSavedSearchMatches,
  savedSearchCandidates,
} from '../../server/domain/search/alerts.ts';
import { adInHand } from '../../server/domain/search/match.ts';
import {
  deleteSavedSearch,
  listSavedSearches,
  openSavedSearch,
  saveSearch,
  setSavedSearchFrequency,
} from '../../server/domain/search/saved.ts';
import { resolveQuery, search, searchEngine } from '../../server/domain/search/service.ts';
import { insertMember } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';
import { placeSearchAd, type SearchAdSpec } from '../support/search-ads.ts';

const q = (params: string): SearchQuery => parseSearchQuery(new URLSearchParams(params));
const LINKS = { origin: 'http://souq.test', secret: 's'.repeat(40) };

/** Queries members save, each with its name in the tests. */
const QUERIES: Record<string, string> = {
  'all toyota': 'category=toyota',
  'cars (parent of toyota)': 'category=cars',
  'motors (taxonomy)': 'taxonomy=motors',
  'apartments for sale': 'category=apartments-for-sale',
  'toyota in tripoli': 'category=toyota&city=tripoli',
  'toyota in dahra': 'category=toyota&city=tripoli&area=dahra',
  'toyota in benghazi': 'category=toyota&city=benghazi',
  'text تويوتا': 'q=تويوتا',
  'text toyota (English name of the make)': 'q=toyota',
  'text تيوتا (typo)': 'q=تيوتا',
  'text شقق (broken plural of شقة)': 'q=شقق',
  'text الشقة (article)': 'q=الشقة',
  'text سيارات (category name)': 'q=سيارات',
  'text كورو (prefix)': 'q=كورو',
  'text مازدا (another make)': 'q=مازدا',
  'text شقق طرابلس': 'q=شقق+طرابلس',
  'price 10k-50k LYD': 'price_min=10000&price_max=50000',
  'price up to 15k USD': 'price_max=15000&currency=USD',
  'price from 100k': 'price_min=100000',
  'with photos': 'photos=1',
  'manual gearbox': 'category=cars&f.transmission=manual',
  everything: '',
};

const ADS: Record<string, SearchAdSpec> = {
  corolla: {
    title: 'تويوتا كورولا ٢٠١٥ نظيفة',
    category: 'toyota',
    city: 'tripoli',
    area: 'dahra',
    price: 45000,
    photo: true,
    attrs: { year: 2015, transmission: 'automatic', condition: 'used' },
  },
  camry: {
    title: 'سيارة كامري للبيع',
    category: 'toyota',
    city: 'tripoli',
    price: 12000,
    currency: 'USD',
    attrs: { year: 2019, transmission: 'automatic', condition: 'used' },
  },
  cruiser: {
    title: 'Land Cruiser 2012',
    category: 'toyota',
    city: 'benghazi',
    price: 190000,
    attrs: { year: 2012, transmission: 'manual', condition: 'used' },
  },
  flat: { title: 'شقة قرب مستشفى الخضراء', category: 'apartments-for-sale', city: 'tripoli', price: 300000 },
  free: { title: 'شقة للإيجار مجانا للطلبة', category: 'apartments-for-rent', city: 'misrata', price: null },
};

describe.each(dialects)('saved-search alerts on %s', (dialect) => {
  let t: TestDatabase;
  const ads: Record<string, number> = {};
  const searches: Record<string, number> = {};
  let watcher: { id: string };

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await seedCatalogue(t.db);
    for (const [name, spec] of Object.entries(ADS)) ads[name] = await placeSearchAd(t, spec);
    watcher = await insertMember(t.db, { name: 'watcher' });
    const catalogue = await searchEngine(t).catalogue();
    for (const [name, params] of Object.entries(QUERIES)) {
      const saved = await saveSearch(t.db, watcher.id, resolveQuery(catalogue, q(params)), name, 'instant');
      searches[name] = saved.id;
    }
  });
  afterAll(() => t.drop());

  const namesOf = (ids: number[]) =>
    Object.entries(searches)
      .filter(([, id]) => ids.includes(id))
      .map(([name]) => name)
      .sort();

  it('finds exactly the saved searches whose listing shows the ad, as the search service lists it', async () => {
    const catalogue = await alertsCatalogue(t.db);
    for (const [adName, adId] of Object.entries(ads)) {
      const expected: string[] = [];
      for (const [name, params] of Object.entries(QUERIES)) {
        const found = await search(t, q(params), { pageSize: 100, facets: false });
        if (found.ids.includes(adId)) expected.push(name);
      }
      const matched = await findSavedSearchMatches(t.db, catalogue, adId, null);
      expect(namesOf(matched.map((m) => m.id)), adName).toEqual(expected.sort());
    }
  });

  it('matches Arabic morphology, the catalogue’s words, prices and places as the search does', async () => {
    const catalogue = await alertsCatalogue(t.db);
    const matched = async (ad: string) =>
      namesOf((await findSavedSearchMatches(t.db, catalogue, ads[ad] as number, null)).map((m) => m.id));
    const corolla = await matched('corolla');
    expect(corolla).toEqual(
      expect.arrayContaining([
        'all toyota',
        'cars (parent of toyota)',
        'motors (taxonomy)',
        'toyota in tripoli',
        'toyota in dahra',
        'text تويوتا',
        'text toyota (English name of the make)',
        'text تيوتا (typo)',
        'text سيارات (category name)',
        'text كورو (prefix)',
        'price 10k-50k LYD',
        'with photos',
        'everything',
      ]),
    );
    for (const not of [
      'toyota in benghazi',
      'apartments for sale',
      'text مازدا (another make)',
      'price from 100k',
      'manual gearbox',
      'price up to 15k USD',
    ]) {
      expect(corolla).not.toContain(not);
    }
    const flat = await matched('flat');
    expect(flat).toEqual(
      expect.arrayContaining([
        'apartments for sale',
        'text شقق (broken plural of شقة)',
        'text الشقة (article)',
        'text شقق طرابلس',
        'price from 100k',
      ]),
    );
    expect(flat).not.toContain('text تويوتا');
    // A price in USD is in a USD band only; an ad without an amount in no band at all.
    expect(await matched('camry')).toContain('price up to 15k USD');
    expect(await matched('camry')).not.toContain('price 10k-50k LYD');
    const free = await matched('free');
    expect(free).toContain('text شقق (broken plural of شقة)');
    expect(free).not.toContain('text شقق طرابلس');
    expect(free.filter((n) => n.startsWith('price'))).toEqual([]);
    expect(await matched('cruiser')).toEqual(
      expect.arrayContaining(['manual gearbox', 'toyota in benghazi', 'price from 100k']),
    );
  });

  it('looks up candidates by scope, city, area and price band, not every saved search', async () => {
    const catalogue = await alertsCatalogue(t.db);
    const ad = await adInHand(t.db, catalogue, ads.flat as number);
    if (!ad) throw new Error('the flat is published');
    const candidates = namesOf((await savedSearchCandidates(t.db, catalogue, ad, null)).map((c) => c.id));
    // Another category, another city, another price band: never even read.
    for (const not of [
      'all toyota',
      'cars (parent of toyota)',
      'motors (taxonomy)',
      'toyota in tripoli',
      'price 10k-50k LYD',
      'price up to 15k USD',
      'manual gearbox',
    ]) {
      expect(candidates).not.toContain(not);
    }
    // Text-only searches of the whole site are candidates; the rule decides.
    expect(candidates).toContain('text مازدا (another make)');
    expect(candidates.length).toBeLessThan(Object.keys(QUERIES).length);
  });

  it('tells instant searches once, never the seller, and nothing for an unpublished ad', async () => {
    const seller = await insertMember(t.db, { name: 'seller' });
    const catalogue = await searchEngine(t).catalogue();
    const own = await saveSearch(t.db, seller.id, resolveQuery(catalogue, q('category=toyota')), 'mine', 'instant');
    const id = await placeSearchAd(t, { title: 'تويوتا يارس', category: 'toyota', city: 'tripoli', price: 20000 });
    await t.db.updateTable('ads').set({ user_id: seller.id }).where('id', '=', id).execute();
    const before = await notificationsOf(watcher.id);
    const count = await alertSavedSearches(t.db, id);
    expect(count).toBeGreaterThan(0);
    const told = (await notificationsOf(watcher.id)).slice(before.length);
    // One notification for the member, naming each of their searches the ad matches.
    expect(told).toHaveLength(1);
    const data = toJson<Record<string, unknown>>(told[0]?.data, {});
    expect(data.ad_id).toBe(id);
    expect(data.title).toBe('تويوتا يارس');
    expect(data.path).toMatch(new RegExp(`^/motors/toyota/ad-${id}$`));
    expect((data.searches as { name: string }[]).map((s) => s.name)).toContain('all toyota');
    expect(await notificationsOf(seller.id)).toEqual([]);
    const matches = await t.db
      .selectFrom('saved_search_matches')
      .select('saved_search_id')
      .where('ad_id', '=', id)
      .execute();
    expect(matches.map((m) => m.saved_search_id)).not.toContain(own.id);
    // Going live again (a renewal) tells nobody twice.
    expect(await alertSavedSearches(t.db, id)).toBe(0);
    expect(await notificationsOf(watcher.id)).toHaveLength(before.length + 1);
    // An ad that is not published matches nothing.
    await t.db.updateTable('ads').set({ status: 'sold' }).where('id', '=', id).execute();
    expect(await alertSavedSearches(t.db, id)).toBe(0);
  });

  it('leaves daily searches for one digest a day, and off searches out', async () => {
    const member = await insertMember(t.db, { name: 'daily' });
    const catalogue = await searchEngine(t).catalogue();
    const save = async (params: string, frequency: AlertFrequency) =>
      (await saveSearch(t.db, member.id, resolveQuery(catalogue, q(params)), params, frequency)).id;
    const daily = await save('q=هيونداي', 'daily');
    const off = await save('q=هيونداي+النترا', 'off');
    const place = (title: string) => placeSearchAd(t, { title, category: 'hyundai', city: 'benghazi', price: 30000 });
    const first = await place('هيونداي النترا 2016');
    const second = await place('هيونداي توسان');
    await alertSavedSearches(t.db, first);
    await alertSavedSearches(t.db, second);
    expect(await notificationsOf(member.id)).toEqual([]);
    const waiting = await t.db
      .selectFrom('saved_search_matches')
      .select(['saved_search_id', 'delivered_at'])
      .where('saved_search_id', 'in', [daily, off])
      .execute();
    expect(waiting.map((w) => [w.saved_search_id, w.delivered_at])).toEqual([
      [daily, null],
      [daily, null],
    ]);

    // Before 08:00 Libyan time nothing goes; from then, one notification with the count, once.
    const morning = digestStart(new Date('2026-12-01T10:00:00Z'));
    expect(morning.toISOString()).toBe('2026-12-01T06:00:00.000Z');
    expect(await deliverDailyDigests(t.db, LINKS, new Date(morning.getTime() - 60_000))).toBe(0);
    expect(await deliverDailyDigests(t.db, LINKS, morning)).toBeGreaterThanOrEqual(1);
    const told = await notificationsOf(member.id);
    expect(told).toHaveLength(1);
    expect(toJson<Record<string, unknown>>(told[0]?.data, {})).toMatchObject({
      saved_search_id: daily,
      count: 2,
      digest: true,
    });
    expect(await deliverDailyDigests(t.db, LINKS, new Date(morning.getTime() + 3_600_000))).toBe(0);
    expect(await notificationsOf(member.id)).toHaveLength(1);
    // A new match the same day waits for tomorrow's digest.
    const third = await place('هيونداي اكسنت');
    await alertSavedSearches(t.db, third);
    expect(await deliverDailyDigests(t.db, LINKS, new Date(morning.getTime() + 7_200_000))).toBe(0);
    expect(await deliverDailyDigests(t.db, LINKS, new Date(morning.getTime() + 86_400_000))).toBe(1);
    expect(await notificationsOf(member.id)).toHaveLength(2);

    // Turned off or deleted, a search gets nothing more.
    await setSavedSearchFrequency(t.db, member.id, daily, 'off');
    await alertSavedSearches(t.db, await place('هيونداي سوناتا'));
    expect(await deliverDailyDigests(t.db, LINKS, new Date(morning.getTime() + 2 * 86_400_000))).toBe(0);
    await deleteSavedSearch(t.db, member.id, daily);
    expect(
      await t.db
        .selectFrom('saved_search_index')
        .select('saved_search_id')
        .where('saved_search_id', '=', daily)
        .execute(),
    ).toEqual([]);
  });

  it('counts a saved search’s new results since it was last opened, as its listing has them', async () => {
    const member = await insertMember(t.db, { name: 'counter' });
    const catalogue = await searchEngine(t).catalogue();
    const { id } = await saveSearch(t.db, member.id, resolveQuery(catalogue, q('category=toyota&city=tripoli')), 'n');
    const count = async () => (await listSavedSearches(t, member.id)).find((s) => s.id === id)?.new_results;
    expect(await count()).toBe(0);
    await placeSearchAd(t, { title: 'تويوتا جديدة', category: 'toyota', city: 'tripoli' });
    await placeSearchAd(t, { title: 'تويوتا في بنغازي', category: 'toyota', city: 'benghazi' });
    expect(await count()).toBe(1);
    await openSavedSearch(t.db, member.id, id, new Date(Date.now() + 1000));
    expect(await count()).toBe(0);
  });

  it('queues the alerts in the transaction that publishes an ad', async () => {
    const id = await placeSearchAd(t, { title: 'مرسيدس', category: 'toyota', city: 'tripoli', status: 'pending' });
    const owner = await insertMember(t.db);
    await t.db.updateTable('ads').set({ user_id: owner.id }).where('id', '=', id).execute();
    const staff = await insertMember(t.db);
    const jobsFor = async () =>
      (
        await t.db.selectFrom('jobs').select(['name', 'payload']).where('name', '=', 'alert-saved-searches').execute()
      ).filter((j) => toJson<{ adId?: number }>(j.payload, {}).adId === id);
    expect(await jobsFor()).toEqual([]);
    await moveAd(t.db, staff, id, 'approve');
    expect(await jobsFor()).toHaveLength(1);
  });

  const notificationsOf = (userId: string) =>
    t.db
      .selectFrom('notifications')
      .select(['id', 'type', 'data'])
      .where('user_id', '=', userId)
      .where('type', '=', 'saved-search-match')
      .orderBy('id')
      .execute();
});
