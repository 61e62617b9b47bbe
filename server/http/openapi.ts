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

const xsrfHeader = {
  name: 'X-XSRF-TOKEN',
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description: 'Equal to the XSRF-TOKEN cookie (GET /csrf-cookie)',
};
const variantUrls = {
  type: 'object',
  required: ['thumb', 'medium', 'large'],
  properties: {
    thumb: { type: 'string', description: 'At most 320 px wide' },
    medium: { type: 'string', description: 'At most 800 px wide' },
    large: { type: 'string', description: 'At most 1600 px wide' },
  },
};

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
      '/posts': {
        get: {
          summary: 'Search published ads: the parameters of the /posts page',
          description:
            'Every parameter is optional; a malformed or unknown one is dropped (see meta.query for what was applied, meta.canonical for its canonical form). Text matching is Arabic-aware (alef forms, taa marbuta, alef maqsura, harakat, tatweel, Arabic-Indic digits) with the last word as a prefix. When a text matches more than 10 000 ads, the newest 10 000 are searched and total_exact is false. Facets: categories one level below the query (taxonomies without one), cities (ignoring the city filter) and areas of the chosen city.',
          parameters: [
            { name: 'q', in: 'query', schema: { type: 'string', maxLength: 100 } },
            { name: 'taxonomy', in: 'query', schema: { type: 'string' } },
            { name: 'category', in: 'query', schema: { type: 'string' }, description: 'With every category below it' },
            { name: 'city', in: 'query', schema: { type: 'string' } },
            { name: 'area', in: 'query', schema: { type: 'string' }, description: 'An area of the city' },
            { name: 'price_min', in: 'query', schema: { type: 'integer', minimum: 0 } },
            { name: 'price_max', in: 'query', schema: { type: 'integer', minimum: 0 } },
            { name: 'currency', in: 'query', schema: { type: 'string', enum: ['LYD', 'USD'], default: 'LYD' } },
            { name: 'photos', in: 'query', schema: { type: 'string', enum: ['1'] } },
            { name: 'within', in: 'query', schema: { type: 'integer', enum: [1, 3, 7, 30] }, description: 'Days' },
            {
              name: 'sort',
              in: 'query',
              schema: { type: 'string', enum: ['newest', 'price-asc', 'price-desc', 'relevance'], default: 'newest' },
            },
            {
              name: 'f.{key}',
              in: 'query',
              schema: { type: 'string' },
              description:
                'A filterable attribute of the category: options comma-separated (select), 1 or 0 (boolean); f.{key}.min / f.{key}.max bound a number or year',
            },
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 2, maximum: 50 } },
            ...localeParams,
          ],
          responses: {
            200: {
              description: 'One page of ad cards, with the count and facets',
              content: json({
                type: 'object',
                required: ['data', 'meta'],
                properties: {
                  data: { type: 'array', items: { type: 'object' } },
                  meta: {
                    type: 'object',
                    properties: {
                      query: { type: 'object' },
                      canonical: { type: 'string' },
                      page: { type: 'integer' },
                      pages: { type: 'integer' },
                      per_page: { type: 'integer' },
                      total: { type: 'integer' },
                      total_exact: { type: 'boolean' },
                      facets: { type: 'object' },
                    },
                  },
                },
              }),
            },
            404: errorResponse('A page past the last (or past page 50)'),
          },
        },
      },
      '/posts/map': {
        get: {
          summary: 'The ads of a search in a map viewport, clustered on the server',
          description:
            'Takes the query parameters of /posts (q, taxonomy, category, city, area, price_min, price_max, currency, photos, within, f.<key>…; malformed or unknown ones are ignored) plus the viewport. Ads are grouped in a grid of about 60-pixel cells in Web-Mercator at the zoom; a cell of one ad is a marker, and from zoom 16 a cell of at most 10 ads comes as their markers. At most 400 clusters and markers together (cells merge until they fit). Positions are approximate (never the owner’s pin). A text query considers its newest 10 000 matches (`exact` is false beyond). Cacheable for 30 seconds.',
          parameters: [
            {
              name: 'bbox',
              in: 'query',
              description: 'south,west,north,east in degrees; missing or invalid: Libya (19.5,9.3,33.2,25.2)',
              schema: { type: 'string', example: '30.5,11,33.5,16' },
            },
            {
              name: 'zoom',
              in: 'query',
              description:
                'Map zoom 0–19 (rounded, clamped); missing: the zoom that shows the bbox about 1 000 px wide',
              schema: { type: 'number' },
            },
            { name: 'q', in: 'query', schema: { type: 'string', maxLength: 100 } },
            { name: 'category', in: 'query', schema: { type: 'string' } },
            { name: 'city', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            200: { description: 'Clusters and markers', content: json({ $ref: '#/components/schemas/AdMap' }) },
          },
        },
      },
      '/posts/{id}/card': {
        get: {
          summary: 'The card of one published ad (photo, price, title, place), as lists and the map preview show it',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
          responses: {
            200: {
              description: 'The card',
              content: json({
                type: 'object',
                required: ['data'],
                properties: { data: { $ref: '#/components/schemas/AdCard' } },
              }),
            },
            404: errorResponse('No published ad with this id'),
          },
        },
      },
      '/ad-images': {
        post: {
          summary: 'Upload one ad photo (signed-in members), before or while the ad form is filled in',
          description:
            'The file is checked by its content (JPEG, PNG, WebP, GIF, AVIF; at most 10 MB and 40 megapixels), auto-rotated, stripped of EXIF/GPS and stored as WebP variants (thumb 320, medium 800, large 1600 px wide, never upscaled). The photo belongs to the uploader, unattached, until an ad of theirs is saved with its id; unattached photos are deleted after 24 hours. At most 30 unattached photos per member and 60 uploads per hour.',
          parameters: [xsrfHeader, ...localeParams],
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['photo'],
                  properties: { photo: { type: 'string', contentMediaType: 'application/octet-stream' } },
                },
              },
            },
          },
          responses: {
            201: { description: 'Stored', content: json({ $ref: '#/components/schemas/AdImage' }) },
            400: errorResponse('Malformed multipart body'),
            401: errorResponse('Not signed in'),
            413: errorResponse(
              'Body far beyond the size limit (the connection is closed); errors.photo holds the words',
            ),
            419: errorResponse('Missing or wrong X-XSRF-TOKEN'),
            422: errorResponse(
              'Refused file, words under errors.photo: missing, over 10 MB, not a supported image, too many pixels, unreadable, or 30 unattached photos already',
            ),
            429: errorResponse('Too many uploads; see Retry-After'),
          },
        },
      },
      '/ad-images/{id}': {
        delete: {
          summary: "Delete one of the member's photos: unattached, or on an ad of theirs; its files go too",
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
            xsrfHeader,
            ...localeParams,
          ],
          responses: {
            204: { description: 'Deleted' },
            401: errorResponse('Not signed in'),
            404: errorResponse("Unknown id, or someone else's photo"),
            419: errorResponse('Missing or wrong X-XSRF-TOKEN'),
          },
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
        AdImage: {
          type: 'object',
          required: ['id', 'width', 'height', 'urls'],
          properties: {
            id: { type: 'integer', description: 'Send it with the ad form to attach the photo' },
            width: { type: 'integer', description: 'Of the large variant' },
            height: { type: 'integer', description: 'Of the large variant' },
            urls: variantUrls,
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
        AdMap: {
          type: 'object',
          required: ['clusters', 'markers', 'total', 'exact'],
          properties: {
            clusters: {
              type: 'array',
              items: {
                type: 'object',
                required: ['lat', 'lng', 'count', 'bounds'],
                properties: {
                  lat: { type: 'number', description: 'Mean position of its ads' },
                  lng: { type: 'number' },
                  count: { type: 'integer' },
                  bounds: {
                    type: 'array',
                    items: { type: 'number' },
                    minItems: 4,
                    maxItems: 4,
                    description: 'south, west, north, east of its ads',
                  },
                  ids: {
                    type: 'array',
                    items: { type: 'integer' },
                    description: 'From zoom 16: up to 10 of its ads',
                  },
                },
              },
            },
            markers: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'lat', 'lng'],
                properties: { id: { type: 'integer' }, lat: { type: 'number' }, lng: { type: 'number' } },
              },
            },
            total: { type: 'integer', description: 'Matching ads in the viewport' },
            exact: { type: 'boolean', description: 'False when a very common word made `total` a lower bound' },
          },
        },
        AdCard: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            slug: { type: 'string' },
            title: { type: 'string' },
            price: { type: ['number', 'null'] },
            currency: { enum: ['LYD', 'USD'] },
            price_type: { type: 'string' },
            taxonomy_slug: { type: 'string' },
            category_slug: { type: 'string' },
            city: { type: 'object', properties: named },
            area: { oneOf: [{ type: 'null' }, { type: 'object', properties: named }] },
            photo: { oneOf: [{ type: 'null' }, variantUrls] },
            bumped_at: { type: ['string', 'null'], format: 'date-time' },
            featured: { type: 'boolean' },
            attributes: {
              type: 'array',
              items: { type: 'object', properties: { ar: { type: 'string' }, en: { type: 'string' } } },
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
