// OpenAPI 3.1 description of what the API serves today. Grows with every endpoint.
const named = {
  name_ar: { type: 'string' },
  name_en: { type: 'string' },
};

const listOf = (ref: string) => ({
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: { $ref: `#/components/schemas/${ref}` } } },
});

const json = (schema: object) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({
  description,
  content: json({ $ref: '#/components/schemas/Error' }),
});
const slugParam = (description: string) => ({
  name: 'slug',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
});
const localeParams = [
  {
    name: 'X-Locale',
    in: 'header',
    schema: { type: 'string', enum: ['ar', 'en'] },
    description: 'Language of messages; else Accept-Language; default ar.',
  },
];

export function openApiDocument(serverUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Souq API',
      version: '1.0.0',
      description:
        'JSON API of Souq for the web client and mobile apps. Every state-changing request must send the X-XSRF-TOKEN header equal to the XSRF-TOKEN cookie (GET /api/csrf-cookie sets it); a mismatch answers 419. PUT/PATCH/DELETE may be sent as POST with `_method` in form data.',
    },
    servers: [{ url: `${serverUrl}/api` }],
    paths: {
      '/csrf-cookie': {
        get: {
          summary: 'Set the anti-forgery cookie XSRF-TOKEN',
          responses: { 204: { description: 'Cookie set' } },
        },
      },
      '/is-logged-in': {
        get: {
          summary: 'Whether the session cookie belongs to a signed-in user, and who',
          responses: {
            200: {
              description: 'Session state',
              content: json({
                type: 'object',
                required: ['logged_in', 'user'],
                properties: {
                  logged_in: { type: 'boolean' },
                  user: { oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/SessionUser' }] },
                },
              }),
            },
          },
        },
      },
      '/taxonomies': {
        get: {
          summary: 'Active taxonomies in display order, with category and ad counts',
          parameters: localeParams,
          responses: { 200: { description: 'Taxonomies', content: json(listOf('Taxonomy')) } },
        },
      },
      '/taxonomies/{slug}/categories': {
        get: {
          summary: 'Top-level categories of a taxonomy',
          parameters: [slugParam('Taxonomy slug'), ...localeParams],
          responses: {
            200: { description: 'Categories', content: json(listOf('Category')) },
            404: errorResponse('Unknown taxonomy'),
          },
        },
      },
      '/taxonomies/{slug}/attributes': {
        get: {
          summary: 'Attributes defined on a taxonomy (carried by every ad in it)',
          parameters: [slugParam('Taxonomy slug'), ...localeParams],
          responses: {
            200: { description: 'Attributes', content: json(listOf('Attribute')) },
            404: errorResponse('Unknown taxonomy'),
          },
        },
      },
      '/categories/{slug}/children': {
        get: {
          summary: 'Active child categories of a category',
          parameters: [slugParam('Category slug (globally unique)'), ...localeParams],
          responses: {
            200: { description: 'Child categories', content: json(listOf('Category')) },
            404: errorResponse('Unknown category'),
          },
        },
      },
      '/categories/{slug}/attributes': {
        get: {
          summary: 'Every attribute an ad in the category carries: taxonomy, ancestors, own; in position order',
          parameters: [slugParam('Category slug'), ...localeParams],
          responses: {
            200: { description: 'Attributes', content: json(listOf('Attribute')) },
            404: errorResponse('Unknown category'),
          },
        },
      },
      '/cities': {
        get: {
          summary: 'Cities in display order with their areas',
          responses: { 200: { description: 'Cities', content: json(listOf('City')) } },
        },
      },
      '/openapi.json': { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } } },
    },
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['message'],
          properties: {
            message: { type: 'string', description: 'Translated message' },
            errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          },
        },
        SessionUser: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            email: { type: 'string' },
            email_verified: { type: 'boolean' },
            image: { type: ['string', 'null'] },
            locale: { enum: ['ar', 'en'] },
            is_super_admin: { type: 'boolean' },
            permissions: { type: 'array', items: { type: 'string' } },
            roles: { type: 'array', items: { type: 'string' } },
          },
        },
        Taxonomy: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            slug: { type: 'string' },
            ...named,
            icon: { type: ['string', 'null'] },
            position: { type: 'integer' },
            categories_count: { type: 'integer' },
            ads_count: { type: 'integer' },
          },
        },
        Category: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            taxonomy_id: { type: 'integer' },
            parent_id: { type: ['integer', 'null'] },
            slug: { type: 'string' },
            ...named,
            icon: { type: ['string', 'null'] },
            position: { type: 'integer' },
            depth: { type: 'integer' },
            ads_count: { type: 'integer' },
            children_count: { type: 'integer' },
          },
        },
        Attribute: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            key: { type: 'string' },
            ...named,
            type: { enum: ['text', 'number', 'select', 'multiselect', 'boolean', 'year', 'date'] },
            options: {
              type: 'array',
              items: {
                type: 'object',
                properties: { value: { type: 'string' }, ar: { type: 'string' }, en: { type: 'string' } },
              },
            },
            unit_ar: { type: ['string', 'null'] },
            unit_en: { type: ['string', 'null'] },
            required: { type: 'boolean' },
            filterable: { type: 'boolean' },
            shown_on_card: { type: 'boolean' },
            min: { type: ['number', 'null'] },
            max: { type: ['number', 'null'] },
            position: { type: 'integer' },
            owner: {
              type: 'object',
              properties: { type: { enum: ['taxonomy', 'category'] }, slug: { type: 'string' } },
            },
          },
        },
        Area: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            slug: { type: 'string' },
            ...named,
            lat: { type: 'number' },
            lng: { type: 'number' },
          },
        },
        City: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            slug: { type: 'string' },
            ...named,
            lat: { type: 'number' },
            lng: { type: 'number' },
            areas: { type: 'array', items: { $ref: '#/components/schemas/Area' } },
          },
        },
      },
    },
  };
}
