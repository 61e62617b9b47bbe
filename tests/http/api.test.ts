// The JSON API over real HTTP.
import { describe, expect, inject, it } from 'vitest';
import {
  Attribute,
  Category,
  City,
  listOf,
  SearchResults,
  SessionState,
  TaxonomyWithCategories,
} from '../../server/http/api-schemas.ts';
import { waitForMail } from '../support/smtp-capture.ts';

const base = inject('baseUrl');
const api = (path: string, init: RequestInit = {}) => fetch(`${base}/api${path}`, { redirect: 'manual', ...init });

async function xsrf(): Promise<{ cookie: string; token: string }> {
  const res = await api('/csrf-cookie');
  expect(res.status).toBe(204);
  const set = res.headers.get('set-cookie') ?? '';
  const token = decodeURIComponent(/XSRF-TOKEN=([^;]+)/.exec(set)?.[1] ?? '');
  expect(token.length).toBeGreaterThan(20);
  expect(set).not.toMatch(/HttpOnly/i);
  return { cookie: `XSRF-TOKEN=${encodeURIComponent(token)}`, token };
}

describe('catalogue API', () => {
  it('lists taxonomies with counts and their top-level categories', async () => {
    const body = await (await api('/taxonomies')).json();
    // Strict schemas: a field the OpenAPI document does not describe fails here.
    const { data } = listOf(TaxonomyWithCategories).parse(body);
    expect(data.length).toBeGreaterThanOrEqual(8);
    expect(data[0]).toMatchObject({
      slug: 'motors',
      name_ar: expect.any(String),
      name_en: 'Motors',
      categories_count: expect.any(Number),
    });
    expect(data[0]?.categories.map((c) => c.slug)).toContain('cars');
    for (const taxonomy of data) {
      expect(taxonomy.categories.length, taxonomy.slug).toBeGreaterThan(0);
      expect(taxonomy.categories.every((c) => c.parent_id === null && c.taxonomy_id === taxonomy.id)).toBe(true);
      // The same list, counts and order as the taxonomy's own categories endpoint.
      const own = await (await api(`/taxonomies/${taxonomy.slug}/categories`)).json();
      expect(taxonomy.categories, taxonomy.slug).toEqual(listOf(Category).parse(own).data);
    }
  });

  it('answers in the shapes the OpenAPI document gives', async () => {
    listOf(City).parse(await (await api('/cities')).json());
    listOf(Category).parse(await (await api('/categories/cars/children')).json());
    listOf(Attribute).parse(await (await api('/categories/toyota/attributes')).json());
    listOf(Attribute).parse(await (await api('/taxonomies/motors/attributes')).json());
    expect(SessionState.parse(await (await api('/is-logged-in')).json())).toEqual({ logged_in: false, user: null });
    const search = SearchResults.parse(await (await api('/posts?category=cars&f.year.min=2000')).json());
    expect(search.meta.query.attributes).toEqual({ year: { kind: 'range', min: 2000, max: null } });
  });

  it('lists cities with their areas', async () => {
    const { data } = await (await api('/cities')).json();
    expect(data[0]).toMatchObject({
      slug: expect.any(String),
      name_en: 'Tripoli',
      lat: expect.any(Number),
      lng: expect.any(Number),
    });
    expect(data[0].areas.length).toBeGreaterThanOrEqual(15);
  });

  it('lists the children of a category as {data}', async () => {
    const body = await (await api('/categories/cars/children')).json();
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.map((c: { slug: string }) => c.slug)).toContain('toyota');
  });

  it('lists the attributes of a category including inherited ones, in order', async () => {
    const { data } = await (await api('/categories/toyota/attributes')).json();
    const keys = data.map((a: { key: string }) => a.key);
    expect(keys).toEqual(expect.arrayContaining(['year', 'mileage', 'model']));
    expect(keys.indexOf('year')).toBeLessThan(keys.indexOf('model'));
    const tax = await (await api('/taxonomies/motors/attributes')).json();
    expect(Array.isArray(tax.data)).toBe(true);
  });

  it('answers unknown slugs with a translated 404 JSON', async () => {
    const ar = await api('/categories/no-such/children');
    expect(ar.status).toBe(404);
    expect(await ar.json()).toEqual({ message: 'هذه الفئة غير موجودة.' });
    const en = await api('/categories/no-such/attributes', { headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    expect(await en.json()).toEqual({ message: 'This category does not exist.' });
    const header = await api('/taxonomies/nope/attributes', { headers: { 'x-locale': 'en', 'accept-language': 'ar' } });
    expect(await header.json()).toEqual({ message: 'This section does not exist.' });
    expect((await api('/no/such/endpoint')).status).toBe(404);
    expect((await api('/categories/Bad_Slug/children')).status).toBe(404);
  });

  it('describes itself in OpenAPI 3.1', async () => {
    const res = await api('/openapi.json');
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: `${base}/api` }]);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/ad-images',
        '/ad-images/{id}',
        '/banners/impressions',
        '/broadcasting/auth',
        '/categories/{slug}/attributes',
        '/chats',
        '/chats/{id}/images',
        '/chats/{id}/messages',
        '/chats/{id}/offers/{message_id}',
        '/chats/{id}/read',
        '/categories/{slug}/children',
        '/cities',
        '/csrf-cookie',
        '/favorites',
        '/favorites/{id}',
        '/is-logged-in',
        '/openapi.json',
        '/posts',
        '/posts/map',
        '/posts/{id}/card',
        '/saved-searches',
        '/saved-searches/{id}',
        '/saved-searches/{id}/seen',
        '/search/suggest',
        '/taxonomies',
        '/taxonomies/{slug}/attributes',
        '/taxonomies/{slug}/categories',
        '/unsubscribe/{token}',
      ].sort(),
    );
    // No OpenID Connect or Firebase on this server: their endpoints are not described.
    const taxonomy = doc.components.schemas.TaxonomyWithCategories;
    expect(taxonomy.properties.categories).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Category' },
      description: expect.any(String),
    });
    expect(doc.components.schemas.Error.required).toEqual(['message']);
  });
});

describe('anti-forgery', () => {
  it('refuses a state-changing API call without the XSRF header: 419, translated', async () => {
    const res = await api('/taxonomies', { method: 'POST', headers: { 'x-locale': 'en' } });
    expect(res.status).toBe(419);
    expect(await res.json()).toEqual({ message: 'This page has expired. Refresh it and try again.' });
    const { cookie } = await xsrf();
    const wrong = await api('/taxonomies', { method: 'DELETE', headers: { cookie, 'x-xsrf-token': 'wrong' } });
    expect(wrong.status).toBe(419);
  });

  it('lets a call with a matching token through to routing', async () => {
    const { cookie, token } = await xsrf();
    const res = await api('/taxonomies', { method: 'POST', headers: { cookie, 'x-xsrf-token': token } });
    expect(res.status).toBe(404);
  });

  it('refuses page form posts from another origin', async () => {
    const res = await fetch(`${base}/contact`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
      redirect: 'manual',
    });
    expect(res.status).toBe(419);
  });
});

describe('contact form over HTTP (no JavaScript)', () => {
  const post = (body: Record<string, string>) =>
    fetch(`${base}/en/contact`, {
      method: 'POST',
      headers: {
        origin: base,
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)',
      },
      body: new URLSearchParams(body).toString(),
      redirect: 'manual',
    });

  it('shows translated field errors for bad input', async () => {
    const res = await post({ name: '', email: 'nope', subject: 'general', message: 'short' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('The name field is required');
    expect(html).toContain('The email field must be a valid email');
    expect(html).toContain('The message field must be at least 10 characters');
  });

  it('thanks the sender after a valid message and mails staff', async () => {
    const res = await post({
      name: 'Omar',
      email: 'omar@example.ly',
      subject: 'general',
      message: 'How long does moderation take?',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Thank you, we have your message');
    // No CONTACT_EMAIL in the test server: every super admin gets it, in Arabic, reply-to the sender.
    const mail = await waitForMail(inject('mailDir'), 'admin@souq.test', /رسالة تواصل جديدة/);
    expect(mail.subject).toContain('سؤال عام');
    expect(mail.body).toContain('How long does moderation take?');
    expect(mail.body).toContain('omar@example.ly');
  });
});
