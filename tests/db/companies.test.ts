// Companies and badges (server/domain/companies/, server/domain/badges.ts) on every dialect:
// company CRUD with revisions, members added by email or phone (one company each) and their ads
// moved with them, the search's seller filter following joins and leaves, the logo checked by its
// bytes, badges granted and revoked, and what cards and pages show of both.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../app/lib/search-query.ts';
import type { CompanyInput } from '../../app/lib/validation/companies.ts';
import { seedCatalogue } from '../../server/db/seed/index.ts';
import { toJson } from '../../server/db/values.ts';
import { onAdChange, onPagesChange } from '../../server/domain/ad-changes.ts';
import { cardsByIds } from '../../server/domain/ads/cards.ts';
import { createAd, resolveCategoryPath } from '../../server/domain/ads/placing.ts';
import {
  badgesOfCompanies,
  badgesOfUsers,
  createBadge,
  deleteBadge,
  findHolder,
  grantBadge,
  revokeBadge,
  updateBadge,
} from '../../server/domain/badges.ts';
import { listCategoryAttributes } from '../../server/domain/catalog.ts';
import {
  createCompany,
  deleteCompany,
  getCompany,
  listCompanies,
  loadPublicCompany,
  removeCompanyLogo,
  setCompanyLogo,
  updateCompany,
} from '../../server/domain/companies/companies.ts';
import {
  addCompanyMember,
  listMembers,
  removeCompanyMember,
  setCompanyMemberRole,
} from '../../server/domain/companies/members.ts';
import { listCompanyAds } from '../../server/domain/companies/page.ts';
import { Invalid, NotFound } from '../../server/domain/errors.ts';
import { loadPublicProfile } from '../../server/domain/member-page.ts';
import { buildAdIndex } from '../../server/domain/search/ad-index.ts';
import { search, searchEngine } from '../../server/domain/search/service.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { insertMember, toyotaAdInput } from '../support/ad-fixtures.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.ts';

const actor = { id: 'staff', ip: '10.0.0.9', userAgent: 'test' };

const companyInput = (over: Partial<CompanyInput> = {}): CompanyInput => ({
  slug: `dealer-${Math.random().toString(36).slice(2, 8)}`,
  name_ar: 'معرض الأمل',
  name_en: 'Al Amal Motors',
  description: undefined,
  phone: '+218912345678',
  email: undefined,
  website: 'https://amal.example.ly',
  city: undefined,
  verified: false,
  ...over,
});

describe.each(dialects)('companies and badges on %s', (dialect) => {
  let t: TestDatabase;
  let dir: string;
  let cityId: number;
  const storage = () => createLocalStorage(path.join(dir, 'uploads'));

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    dir = mkdtempSync(path.join(tmpdir(), 'souq-companies-'));
    await seedCatalogue(t.db);
    cityId = (await t.db.selectFrom('cities').select('id').where('slug', '=', 'tripoli').executeTakeFirstOrThrow()).id;
    await t.db
      .insertInto('users')
      .values({ id: 'staff', name: 'Staff', email: 'staff@example.ly' } as never)
      .execute();
  });
  afterAll(async () => {
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A published Toyota ad of `owner`. */
  const publish = async (owner: { id: string; ip: string; userAgent: string }) => {
    const ad = await createAd(
      t.db,
      { moderation: 'post' },
      owner,
      await resolveCategoryPath(t.db, 'motors', ['cars', 'toyota']),
      await listCategoryAttributes(t.db, 'toyota'),
      toyotaAdInput(cityId),
    );
    return ad.id;
  };
  const companyOfAd = async (id: number) =>
    (await t.db.selectFrom('ads').select('company_id').where('id', '=', id).executeTakeFirstOrThrow()).company_id;
  const revisions = (type: string, id: string | number) =>
    t.db
      .selectFrom('revisions')
      .select(['action', 'changes', 'actor_id'])
      .where('subject_type', '=', type)
      .where('subject_id', '=', String(id))
      .orderBy('id')
      .execute();

  it('creates, lists, edits and deletes a company, each change with its revision', async () => {
    const input = companyInput({ slug: 'souq-motors', city: String(cityId), verified: true });
    const id = await createCompany(t.db, actor, input);
    const company = await getCompany(t.db, id);
    expect(company).toMatchObject({ slug: 'souq-motors', verified: true, city_id: cityId, logo: null });
    // The address name is taken; an unknown city is refused.
    await expect(createCompany(t.db, actor, companyInput({ slug: 'souq-motors' }))).rejects.toMatchObject({
      errors: { slug: ['slug-taken'] },
    });
    await expect(createCompany(t.db, actor, companyInput({ city: '999999' }))).rejects.toBeInstanceOf(Invalid);

    const page = await listCompanies(t.db, {
      q: 'souq-mot',
      sort: 'created',
      dir: 'desc',
      filters: { verified: 'yes' },
      after: null,
    });
    expect(page.rows.map((r) => r.id)).toEqual([id]);
    const none = await listCompanies(t.db, {
      q: 'souq',
      sort: 'created',
      dir: 'desc',
      filters: { verified: 'no' },
      after: null,
    });
    expect(none.rows).toEqual([]);

    // A re-saved form with nothing changed records nothing; a change records only what changed.
    await updateCompany(t.db, actor, id, input);
    await updateCompany(t.db, actor, id, { ...input, name_en: 'Souq Motors', verified: false });
    const log = await revisions('company', id);
    expect(log.map((r) => r.action)).toEqual(['create', 'update']);
    expect(toJson(log[1]?.changes, {})).toEqual({
      name_en: ['Al Amal Motors', 'Souq Motors'],
      verified: [true, false],
    });
    expect(log[1]?.actor_id).toBe('staff');

    const other = await createCompany(t.db, actor, companyInput());
    await expect(updateCompany(t.db, actor, other, { ...input, slug: 'souq-motors' })).rejects.toMatchObject({
      errors: { slug: ['slug-taken'] },
    });
    await deleteCompany(t.db, storage(), actor, other);
    await expect(getCompany(t.db, other)).rejects.toBeInstanceOf(NotFound);
    expect((await revisions('company', other)).map((r) => r.action)).toEqual(['create', 'delete']);
    await expect(loadPublicCompany(t.db, 'no-such-company')).rejects.toBeInstanceOf(NotFound);
  });

  it('adds members by email or phone, one company each, and moves their ads with them', async () => {
    const company = await createCompany(t.db, actor, companyInput());
    const rival = await createCompany(t.db, actor, companyInput());
    const owner = await insertMember(t.db, { name: 'owner' });
    const agent = await insertMember(t.db, { name: 'agent' });
    const before = await publish(owner);
    expect(await companyOfAd(before)).toBeNull();

    const email = (await t.db.selectFrom('users').select('email').where('id', '=', owner.id).executeTakeFirstOrThrow())
      .email;
    const phone = (
      await t.db.selectFrom('users').select('phone_number').where('id', '=', agent.id).executeTakeFirstOrThrow()
    ).phone_number as string;
    await addCompanyMember(t.db, actor, company, { login: email.toUpperCase(), role: 'owner' });
    await addCompanyMember(t.db, actor, company, { login: phone, role: 'agent' });
    expect((await listMembers(t.db, company)).map((m) => [m.id, m.role])).toEqual([
      [owner.id, 'owner'],
      [agent.id, 'agent'],
    ]);
    // The member's existing ad is the company's now, and so is a new one.
    expect(await companyOfAd(before)).toBe(company);
    const after = await publish(agent);
    expect(await companyOfAd(after)).toBe(company);

    // Nobody with that login; a member of this company or of another.
    await expect(
      addCompanyMember(t.db, actor, company, { login: 'nobody@example.ly', role: 'agent' }),
    ).rejects.toMatchObject({ errors: { login: ['member-not-found'] } });
    await expect(addCompanyMember(t.db, actor, company, { login: phone, role: 'agent' })).rejects.toMatchObject({
      errors: { login: ['member-already-here'] },
    });
    await expect(addCompanyMember(t.db, actor, rival, { login: phone, role: 'agent' })).rejects.toMatchObject({
      errors: { login: ['member-has-company'] },
    });

    await setCompanyMemberRole(t.db, actor, company, agent.id, 'owner');
    expect((await listMembers(t.db, company)).find((m) => m.id === agent.id)?.role).toBe('owner');

    // The company's page lists the published ads of its members.
    const listing = await listCompanyAds(t.db, company, 1);
    expect(listing.ads.map((a) => a.id).sort()).toEqual([before, after].sort());
    expect(listing.ads[0]?.company?.id).toBe(company);

    await removeCompanyMember(t.db, actor, company, owner.id);
    expect(await companyOfAd(before)).toBeNull();
    await expect(removeCompanyMember(t.db, actor, company, owner.id)).rejects.toBeInstanceOf(NotFound);
    expect((await revisions('company', company)).map((r) => r.action)).toEqual([
      'create',
      'add-member',
      'add-member',
      'member-role',
      'remove-member',
    ]);

    // Deleting the company frees its members and their ads.
    await deleteCompany(t.db, storage(), actor, company);
    expect(await companyOfAd(after)).toBeNull();
    expect(
      await t.db.selectFrom('company_members').select('user_id').where('user_id', '=', agent.id).execute(),
    ).toEqual([]);
  });

  it('tells the page cache which pages a membership change makes stale', async () => {
    const company = await createCompany(t.db, actor, companyInput());
    const seller = await insertMember(t.db);
    const ad = await publish(seller);
    const ads: { adId: number; companyId?: number | null }[] = [];
    const tags: string[][] = [];
    const offAds = onAdChange((c) => ads.push(c));
    const offTags = onPagesChange((x) => tags.push(x));
    try {
      const email = (
        await t.db.selectFrom('users').select('email').where('id', '=', seller.id).executeTakeFirstOrThrow()
      ).email;
      await addCompanyMember(t.db, actor, company, { login: email, role: 'agent' });
    } finally {
      offAds();
      offTags();
    }
    expect(ads).toContainEqual(expect.objectContaining({ adId: ad, companyId: company }));
    expect(tags.flat()).toEqual(expect.arrayContaining([`user:${seller.id}`, `company:${company}`]));
  });

  it('finds company ads with seller=company and the others with seller=individual, following joins and leaves', async () => {
    const company = await createCompany(t.db, actor, companyInput());
    const dealer = await insertMember(t.db, { name: 'dealer' });
    const person = await insertMember(t.db, { name: 'person' });
    const dealerAd = await publish(dealer);
    const personAd = await publish(person);
    const find = async (params: string) => (await search(t, parseSearchQuery(new URLSearchParams(params)))).ids;
    // The index is built before the dealer joins: it must follow the change.
    expect(await find('seller=individual')).toEqual(expect.arrayContaining([dealerAd, personAd]));
    expect(await find('seller=company')).not.toContain(dealerAd);

    const email = (await t.db.selectFrom('users').select('email').where('id', '=', dealer.id).executeTakeFirstOrThrow())
      .email;
    await addCompanyMember(t.db, actor, company, { login: email, role: 'owner' });
    const companies = await find('seller=company');
    expect(companies).toContain(dealerAd);
    expect(companies).not.toContain(personAd);
    const individuals = await find('seller=individual');
    expect(individuals).toContain(personAd);
    expect(individuals).not.toContain(dealerAd);
    // No seller filter: both.
    expect(await find('city=tripoli')).toEqual(expect.arrayContaining([dealerAd, personAd]));
    // An index built from scratch (at start-up, or its periodic rebuild) reads the same.
    const built = await buildAdIndex(t.db, t.dialect, await searchEngine(t).catalogue());
    expect(built.company[built.slot(dealerAd)]).toBe(1);
    expect(built.company[built.slot(personAd)]).toBe(0);

    await removeCompanyMember(t.db, actor, company, dealer.id);
    expect(await find('seller=company')).not.toContain(dealerAd);
    expect(await find('seller=individual')).toContain(dealerAd);
  });

  it('checks a logo by its bytes, stores clean variants and replaces or removes them', async () => {
    const company = await createCompany(t.db, actor, companyInput());
    const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#c03' } })
      .withExif({ IFD0: { Copyright: 'secret' } })
      .jpeg()
      .toBuffer();
    const urls = await setCompanyLogo(t.db, storage(), actor, company, png);
    expect(urls.large).toMatch(/^\/uploads\/companies\/\d+\/[a-f0-9]{16}-large\.webp$/);
    const file = path.join(dir, urls.large.replace('/uploads/', 'uploads/'));
    expect(existsSync(file)).toBe(true);
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(256);

    // Not an image, whatever it is called: refused, nothing changes.
    await expect(
      setCompanyLogo(t.db, storage(), actor, company, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
    ).rejects.toMatchObject({ errors: { image: ['image-unsupported-type'] } });
    expect((await getCompany(t.db, company)).logo?.large).toBe(urls.large);

    const next = await setCompanyLogo(t.db, storage(), actor, company, png);
    expect(next.large).not.toBe(urls.large);
    expect(existsSync(file)).toBe(false);
    await removeCompanyLogo(t.db, storage(), actor, company);
    expect((await getCompany(t.db, company)).logo).toBeNull();
    expect(existsSync(path.join(dir, next.large.replace('/uploads/', 'uploads/')))).toBe(false);
  });

  it('grants and revokes badges to members and companies, shown on cards and pages', async () => {
    const trusted = await createBadge(t.db, actor, {
      slug: 'trusted-seller',
      name_ar: 'بائع موثوق',
      name_en: 'Trusted seller',
      icon: 'shield',
      colour: 'green',
      target: 'user',
    });
    const dealerBadge = await createBadge(t.db, actor, {
      slug: 'verified-dealer',
      name_ar: 'معرض موثق',
      name_en: 'Verified dealer',
      icon: 'verified',
      colour: 'blue',
      target: 'company',
    });
    await expect(
      createBadge(t.db, actor, {
        slug: 'trusted-seller',
        name_ar: 'x1',
        name_en: 'x1',
        icon: 'star',
        colour: 'red',
        target: 'user',
      }),
    ).rejects.toMatchObject({ errors: { slug: ['slug-taken'] } });

    const company = await createCompany(t.db, actor, companyInput({ slug: 'badge-motors' }));
    const seller = await insertMember(t.db, { name: 'badged' });
    const email = (await t.db.selectFrom('users').select('email').where('id', '=', seller.id).executeTakeFirstOrThrow())
      .email;
    await addCompanyMember(t.db, actor, company, { login: email, role: 'owner' });
    const ad = await publish(seller);

    await grantBadge(t.db, actor, { badgeId: trusted, userId: seller.id });
    await grantBadge(t.db, actor, { badgeId: dealerBadge, ...(await findHolder(t.db, 'company', 'badge-motors')) });
    // The wrong kind of holder, a second grant, an unknown holder.
    await expect(grantBadge(t.db, actor, { badgeId: trusted, companyId: company })).rejects.toMatchObject({
      errors: { holder: ['badge-for-members'] },
    });
    await expect(grantBadge(t.db, actor, { badgeId: dealerBadge, userId: seller.id })).rejects.toMatchObject({
      errors: { holder: ['badge-for-companies'] },
    });
    await expect(grantBadge(t.db, actor, { badgeId: trusted, userId: seller.id })).rejects.toMatchObject({
      errors: { holder: ['badge-held'] },
    });
    await expect(grantBadge(t.db, actor, { badgeId: trusted, userId: 'nobody' })).rejects.toBeInstanceOf(NotFound);
    await expect(findHolder(t.db, 'user', 'nobody@example.ly')).rejects.toMatchObject({
      errors: { holder: ['member-not-found'] },
    });
    // A held badge keeps its target.
    await expect(
      updateBadge(t.db, actor, trusted, {
        slug: 'trusted-seller',
        name_ar: 'بائع موثوق',
        name_en: 'Trusted seller',
        icon: 'shield',
        colour: 'green',
        target: 'company',
      }),
    ).rejects.toMatchObject({ errors: { target: ['target-in-use'] } });

    expect((await badgesOfUsers(t.db, [seller.id])).get(seller.id)?.map((b) => b.slug)).toEqual(['trusted-seller']);
    expect((await badgesOfCompanies(t.db, [company])).get(company)?.map((b) => b.slug)).toEqual(['verified-dealer']);
    const [card] = await cardsByIds(t.db, [ad]);
    expect(card?.company).toMatchObject({ id: company, slug: 'badge-motors', verified: false });
    expect(card?.badges.map((b) => b.slug)).toEqual(['verified-dealer', 'trusted-seller']);
    const profile = await loadPublicProfile(t.db, seller.id);
    expect(profile.badges.map((b) => b.slug)).toEqual(['trusted-seller']);
    expect(profile.company?.slug).toBe('badge-motors');

    const log = await revisions('user', seller.id);
    expect(log.map((r) => [r.action, toJson(r.changes, {})])).toEqual([
      ['grant-badge', { badge: [null, 'trusted-seller'] }],
    ]);

    await revokeBadge(t.db, actor, { badgeId: trusted, userId: seller.id });
    await expect(revokeBadge(t.db, actor, { badgeId: trusted, userId: seller.id })).rejects.toBeInstanceOf(NotFound);
    expect((await badgesOfUsers(t.db, [seller.id])).get(seller.id)).toBeUndefined();
    expect((await revisions('user', seller.id)).map((r) => r.action)).toEqual(['grant-badge', 'revoke-badge']);

    await deleteBadge(t.db, actor, dealerBadge);
    expect((await cardsByIds(t.db, [ad]))[0]?.badges).toEqual([]);
  });
});
