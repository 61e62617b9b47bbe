// The JSON API's bodies as Zod schemas: what the routes of server/http/api.ts read and answer,
// and what /api/openapi.json describes (server/http/openapi.ts turns them into JSON Schema). A
// schema with an `id` becomes a component of the document. Answers are strict objects, so a test
// that parses a real answer with its schema (tests/http/api.test.ts) fails when a field appears
// that the description does not have.
import { z } from 'zod';
import { locales } from '../../app/i18n/config.ts';
import { FIELD_FILTER_NAMES, FIELD_FILTERS } from '../../app/lib/search-filters.ts';
import { SEARCH_CURRENCIES, SORTS } from '../../app/lib/search-query.ts';
import { SLUG_PATTERN } from '../../app/lib/slug.ts';
import { CURRENCIES, PRICE_TYPES } from '../../app/lib/validation/ads.ts';

const int = () => z.int();
const named = { name_ar: z.string(), name_en: z.string() };

/** The error answer of every route: 401, 404, 413, 415, 419, 422, 429 (with Retry-After). */
export const ApiError = z
  .strictObject({
    message: z.string().meta({ description: 'Translated (X-Locale, else Accept-Language; default Arabic)' }),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta({ description: 'Translated messages by field (422)' }),
  })
  .meta({ id: 'Error' });
export type ApiError = z.infer<typeof ApiError>;

/** A slug in a path: one that cannot exist answers 404 like an unknown one. */
export const slugPath = (description: string) => z.string().regex(SLUG_PATTERN).meta({ description });

export const Category = z
  .strictObject({
    id: int(),
    taxonomy_id: int(),
    parent_id: int().nullable(),
    slug: z.string(),
    ...named,
    icon: z.string().nullable(),
    position: int(),
    depth: int().meta({ description: '0 for a top-level category' }),
    ads_count: int().meta({ description: 'Published ads in it and below it' }),
    children_count: int().meta({ description: 'Active direct children' }),
  })
  .meta({ id: 'Category' });

export const Taxonomy = z
  .strictObject({
    id: int(),
    slug: z.string(),
    ...named,
    icon: z.string().nullable(),
    position: int(),
    categories_count: int().meta({ description: 'Active categories at every level below it' }),
    ads_count: int().meta({ description: 'Published ads in it' }),
  })
  .meta({ id: 'Taxonomy' });

export const TaxonomyWithCategories = Taxonomy.extend({
  categories: z.array(Category).meta({ description: 'Its active top-level categories, in display order' }),
}).meta({ id: 'TaxonomyWithCategories' });

export const AttributeOption = z.strictObject({ value: z.string(), ar: z.string(), en: z.string() });

export const Attribute = z
  .strictObject({
    id: int(),
    key: z.string(),
    ...named,
    type: z.enum(['text', 'number', 'select', 'multiselect', 'boolean', 'year', 'date']),
    options: z.array(AttributeOption),
    unit_ar: z.string().nullable(),
    unit_en: z.string().nullable(),
    required: z.boolean(),
    filterable: z.boolean(),
    shown_on_card: z.boolean(),
    min: z.number().nullable(),
    max: z.number().nullable(),
    position: int(),
    owner: z
      .strictObject({ type: z.enum(['taxonomy', 'category']), slug: z.string() })
      .meta({ description: 'Where it is defined: the taxonomy or a category of the chain' }),
  })
  .meta({ id: 'Attribute' });

const place = { id: int(), slug: z.string(), ...named, lat: z.number(), lng: z.number() };
export const Area = z.strictObject(place).meta({ id: 'Area' });
export const City = z.strictObject({ ...place, areas: z.array(Area) }).meta({ id: 'City' });

export const ImageUrls = z
  .strictObject({
    thumb: z.string().meta({ description: 'At most 320 px wide' }),
    medium: z.string().meta({ description: 'At most 800 px wide' }),
    large: z.string().meta({ description: 'At most 1600 px wide' }),
  })
  .meta({ id: 'ImageUrls' });

export const CardPhoto = ImageUrls.extend({
  srcset: z.string().meta({ description: 'Every stored width of the photo, for an <img> srcset (320w to 1600w)' }),
}).meta({ id: 'CardPhoto' });

export const AdImage = z
  .strictObject({
    id: int().meta({ description: 'Send it with the ad form to attach the photo' }),
    width: int().meta({ description: 'Of the large variant' }),
    height: int().meta({ description: 'Of the large variant' }),
    urls: ImageUrls,
  })
  .meta({ id: 'AdImage' });

export const AdCard = z
  .strictObject({
    id: int(),
    slug: z.string(),
    title: z.string(),
    price: z.number().nullable(),
    currency: z.string().meta({ description: CURRENCIES.join(' or ') }),
    price_type: z.string().meta({ description: PRICE_TYPES.join(', ') }),
    taxonomy_slug: z.string(),
    category_slug: z.string(),
    city: z.strictObject(named),
    area: z.strictObject(named).nullable(),
    photo: CardPhoto.nullable(),
    bumped_at: z.string().nullable().meta({ format: 'date-time', description: 'Posted or last reposted' }),
    featured: z.boolean(),
    attributes: z
      .array(
        z.strictObject({
          ar: z.string(),
          en: z.string(),
          key: z.string().optional().meta({ description: "A number's attribute" }),
          count: z.number().optional().meta({ description: 'The number itself' }),
        }),
      )
      .meta({ description: 'Labelled values of the attributes shown on cards, in form order' }),
    company: z
      .strictObject({
        id: int(),
        slug: z.string().meta({ description: 'Its page is /companies/{slug}' }),
        ...named,
        logo: z.strictObject({ small: z.string(), large: z.string() }).nullable(),
        verified: z.boolean(),
      })
      .nullable()
      .meta({ description: "The owner's company (dealer, agency)" }),
    badges: z
      .array(
        z.strictObject({
          id: int(),
          slug: z.string(),
          ...named,
          icon: z.string().meta({ description: 'An icon key (app/lib/badges.ts)' }),
          colour: z.string().meta({ description: 'A colour key (app/lib/badges.ts)' }),
        }),
      )
      .meta({ description: "The company's and the owner's badges, at most 3" }),
  })
  .meta({ id: 'AdCard' });

export const SessionUser = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable().meta({ description: 'Null for a member who signed up with a phone number' }),
    email_verified: z.boolean(),
    phone: z.string().nullable().meta({ description: 'E.164, confirmed' }),
    image: z.string().nullable(),
    locale: z.string().meta({ description: `Preferred language: ${locales.join(' or ')}` }),
    is_super_admin: z.boolean(),
    permissions: z.array(z.string()),
    roles: z.array(z.string()),
  })
  .meta({ id: 'SessionUser' });

export const SessionState = z.strictObject({ logged_in: z.boolean(), user: SessionUser.nullable() });

const bbox = z.tuple([z.number(), z.number(), z.number(), z.number()]);
export const AdMap = z
  .strictObject({
    clusters: z.array(
      z.strictObject({
        lat: z.number().meta({ description: 'Mean position of its ads' }),
        lng: z.number(),
        count: int(),
        bounds: bbox.meta({ description: 'south, west, north, east of its ads' }),
        ids: z.array(int()).optional().meta({ description: 'From zoom 16: up to 10 of its ads' }),
      }),
    ),
    markers: z.array(z.strictObject({ id: int(), lat: z.number(), lng: z.number() })),
    total: int().meta({ description: 'Matching ads in the viewport' }),
    exact: z.boolean().meta({ description: 'False when a very common word made `total` a lower bound' }),
  })
  .meta({ id: 'AdMap' });

const Facet = z.strictObject({ slug: z.string(), ...named, count: int() });
const NamedCategory = z
  .strictObject({
    slug: z.string(),
    ...named,
    taxonomy: z.string().meta({ description: "The taxonomy's slug: the category's page is /{taxonomy}/{slug}" }),
    parent: z.strictObject(named).nullable().meta({ description: 'The category above it, or its taxonomy' }),
    count: int().meta({ description: 'Matching ads in it and below it' }),
  })
  .meta({ id: 'NamedCategory' });
const AttributeFilter = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('options'), options: z.array(z.string()) }),
  z.strictObject({ kind: z.literal('range'), min: z.number().nullable(), max: z.number().nullable() }),
  z.strictObject({ kind: z.literal('bool'), value: z.boolean() }),
]);

/** The applied value of each field filter (app/lib/search-filters.ts), by name. */
const fieldValues = () => Object.fromEntries(FIELD_FILTER_NAMES.map((name) => [name, FIELD_FILTERS[name].value(z)]));

/** The query as applied (after dropping what was malformed or unknown). */
export const SearchQuery = z
  .strictObject({
    q: z.string().nullable(),
    taxonomy: z.string().nullable(),
    category: z.string().nullable(),
    city: z.string().nullable(),
    area: z.string().nullable(),
    priceMin: z.number().nullable(),
    priceMax: z.number().nullable(),
    currency: z.enum(SEARCH_CURRENCIES),
    ...fieldValues(),
    sort: z.enum(SORTS),
    attributes: z.record(z.string(), AttributeFilter),
  })
  .meta({ id: 'SearchQuery' });

export const SearchResults = z
  .strictObject({
    data: z.array(AdCard),
    meta: z.strictObject({
      query: SearchQuery,
      canonical: z.string().meta({ description: 'The applied query as URL parameters, in canonical form' }),
      page: int(),
      pages: int(),
      per_page: int(),
      total: int(),
      total_exact: z.boolean().meta({ description: 'False when a very common word made `total` a lower bound' }),
      facets: z.strictObject({
        categories: z.array(Facet).meta({ description: 'One level below the query (taxonomies without one)' }),
        cities: z.array(Facet).meta({ description: 'Ignoring the city filter' }),
        areas: z.array(Facet).meta({ description: 'Of the chosen city' }),
      }),
      named_categories: z.array(NamedCategory).meta({
        description:
          'With text: up to 5 categories the text names that hold matching ads (never the queried category or one above it), most named first, then most ads; add `category` to narrow the query to one',
      }),
    }),
  })
  .meta({ id: 'SearchResults' });

export const Suggestion = z
  .strictObject({
    kind: z.enum(['category', 'query']).meta({
      description: "`category`: a category's page (with the rest of the text); `query`: a search for `text`",
    }),
    label: z.string().meta({ description: "What the list shows: the category's name, or the completed text" }),
    context: z.string().nullable().meta({ description: 'For a category: the category above it, or its taxonomy' }),
    count: int().nullable().meta({ description: 'For a category without other words: its published ads' }),
    text: z.string().meta({ description: 'The text the search box takes when it is picked' }),
    href: z.string().meta({ description: 'Where picking it leads: a canonical page path in the language asked' }),
  })
  .meta({ id: 'Suggestion' });

/** The parameters of the suggestions. */
export const SUGGEST_PARAMETERS = {
  q: z.string().meta({ description: 'The text typed so far (at most 100 characters); its last word is a prefix' }),
  locale: z
    .enum(['ar', 'en'])
    .optional()
    .meta({ description: 'The language of labels and links; else X-Locale, else Accept-Language' }),
};

/** `{data: [...]}`, the shape of every list. */
export const listOf = <T extends z.ZodType>(item: T) => z.strictObject({ data: z.array(item) });
export const one = <T extends z.ZodType>(item: T) => z.strictObject({ data: item });

// Chats (docs/product/chats.md; routes in server/http/chats.ts).
const Offer = z
  .strictObject({
    amount: int().meta({ description: 'Whole units of the currency' }),
    currency: z.string(),
    status: z
      .enum(['pending', 'accepted', 'declined', 'replaced'])
      .nullable()
      .meta({ description: 'Of an offer; null on its answer (offer-accepted, offer-declined)' }),
  })
  .meta({ id: 'ChatOffer' });

export const ChatMessage = z
  .strictObject({
    id: int().meta({ description: 'Increasing: the cursor of `after`' }),
    chat_id: int(),
    sender_id: z.string().nullable().meta({ description: 'Null once the sender deleted their account' }),
    kind: z.enum(['text', 'image', 'offer', 'offer-accepted', 'offer-declined']),
    body: z.string().nullable().meta({ description: 'The text, or a photo’s caption' }),
    image: z
      .strictObject({
        small: z.string().meta({ description: 'At most 480 px wide' }),
        large: z.string().meta({ description: 'At most 1600 px wide' }),
        width: int(),
        height: int(),
      })
      .nullable(),
    offer: Offer.nullable(),
    reply_to_id: int().nullable().meta({ description: 'The offer an answer is about' }),
    flags: z
      .array(z.enum(['payment', 'link', 'phone', 'new-account']))
      .meta({ description: 'What the recipient is warned about (safety tips)' }),
    client_key: z.string().nullable().meta({ description: 'The sender’s idempotency key' }),
    read_at: z.string().nullable().meta({ format: 'date-time', description: 'When the recipient read it' }),
    created_at: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'ChatMessage' });

const ChatAd = z
  .strictObject({
    id: int(),
    title: z.string(),
    slug: z.string(),
    status: z.string(),
    price: z.number().nullable(),
    currency: z.string(),
    price_type: z.string(),
    taxonomy_slug: z.string(),
    category_slug: z.string(),
    photo: ImageUrls.nullable(),
  })
  .meta({ id: 'ChatAd' });

export const ChatSummary = z
  .strictObject({
    id: int(),
    ad: ChatAd,
    role: z.enum(['buyer', 'seller']).meta({ description: 'The signed-in member’s side' }),
    other: z
      .strictObject({ id: z.string(), name: z.string(), image: z.string().nullable() })
      .nullable()
      .meta({ description: 'The other side; null once their account is gone' }),
    last: z
      .strictObject({
        kind: z.enum(['text', 'image', 'offer', 'offer-accepted', 'offer-declined']),
        body: z.string().nullable(),
        offer: Offer.nullable(),
        mine: z.boolean(),
        created_at: z.string().meta({ format: 'date-time' }),
      })
      .nullable(),
    unread: int(),
  })
  .meta({ id: 'ChatSummary' });

export const ChatList = z
  .strictObject({
    data: z.array(ChatSummary),
    meta: z.strictObject({
      next: int().nullable().meta({ description: 'The `before` of the next (older) page; null on the last' }),
    }),
  })
  .meta({ id: 'ChatList' });

export const ChatMessages = z
  .strictObject({
    data: z.array(ChatMessage),
    meta: z.strictObject({
      more: z.boolean().meta({ description: 'More messages follow: ask again after the last one' }),
      other_last_read: int().meta({ description: 'The last message the other side read (read receipts)' }),
    }),
  })
  .meta({ id: 'ChatMessages' });

export const ChatStarted = z
  .strictObject({
    data: z.strictObject({
      chat_id: int(),
      created: z.boolean().meta({ description: 'False when the message joined the buyer’s chat about this ad' }),
      message: ChatMessage,
    }),
  })
  .meta({ id: 'ChatStarted' });

export const ChatReadState = z
  .strictObject({
    data: z.strictObject({
      last_read_message_id: int(),
      unread: int().meta({ description: 'Unread messages left in this chat' }),
      unread_chats: int().meta({ description: 'The member’s chats with unread messages (the header’s counter)' }),
    }),
  })
  .meta({ id: 'ChatReadState' });
