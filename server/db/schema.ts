// Table types shared by both dialects. Booleans are 0/1 on SQLite and true/false on PostgreSQL,
// timestamps are ISO text on SQLite and Date on PostgreSQL, and counts may come back as strings
// from PostgreSQL: read rows through the helpers in ./values.ts, never raw.
import type { ColumnType, Generated, Selectable } from 'kysely';

type Bool = ColumnType<boolean | number, boolean | undefined, boolean>;
type Timestamp = ColumnType<Date | string, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T | string, string, string>;
type Count = ColumnType<number | string, number | undefined, number>;

export interface TaxonomiesTable {
  id: Generated<number>;
  slug: string;
  name_ar: string;
  name_en: string;
  icon: string | null;
  position: number;
  active: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CategoriesTable {
  id: Generated<number>;
  taxonomy_id: number;
  parent_id: number | null;
  slug: string;
  name_ar: string;
  name_en: string;
  icon: string | null;
  position: number;
  depth: number;
  active: Bool;
  ads_count: ColumnType<number | string, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AttributeOption {
  value: string;
  ar: string;
  en: string;
}

export type AttributeType = 'text' | 'number' | 'select' | 'multiselect' | 'boolean' | 'year' | 'date';

export interface AttributesTable {
  id: Generated<number>;
  taxonomy_id: number | null;
  category_id: number | null;
  key: string;
  name_ar: string;
  name_en: string;
  type: AttributeType;
  options: Json<AttributeOption[]> | null;
  unit_ar: string | null;
  unit_en: string | null;
  required: Bool;
  filterable: Bool;
  shown_on_card: Bool;
  min: number | null;
  max: number | null;
  position: number;
}

export interface CitiesTable {
  id: Generated<number>;
  slug: string;
  name_ar: string;
  name_en: string;
  lat: number;
  lng: number;
  position: number;
}

export interface AreasTable {
  id: Generated<number>;
  city_id: number;
  slug: string;
  name_ar: string;
  name_en: string;
  lat: number;
  lng: number;
  position: number;
}

export interface SettingsTable {
  key: string;
  value: Json<unknown>;
  updated_at: Timestamp;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string | null;
  phone: string | null;
  subject: string;
  body: string;
  status: 'new' | 'read' | 'answered' | 'spam';
  locale: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  reset_at: number;
}

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  email_verified: Bool;
  image: string | null;
  phone_number: string | null;
  phone_number_verified: Bool;
  locale: string;
  city_id: number | null;
  bio: string | null;
  show_phone: Bool;
  is_super_admin: Bool;
  banned_at: Timestamp | null;
  ban_reason: string | null;
  last_seen_at: Timestamp | null;
  active_ads_count: Count;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountsTable {
  id: string;
  user_id: string;
  account_id: string;
  provider_id: string;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotificationPreferencesTable {
  user_id: string;
  /** A notification type (NOTIFICATION_TYPES; docs/product/accounts-and-roles.md). */
  type: string;
  /** `email` or `sms`; in-app notifications are always on and have no row. */
  channel: string;
  enabled: Bool;
  updated_at: Timestamp;
}

export interface PermissionsTable {
  id: Generated<number>;
  name: string;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
}

/** Epoch milliseconds (bigint: strings from PostgreSQL). */
type Millis = ColumnType<number | string, number, number>;

export interface JobsTable {
  id: Generated<number>;
  queue: ColumnType<string, string | undefined, string>;
  name: string;
  payload: Json<unknown>;
  status: ColumnType<
    'pending' | 'running' | 'done' | 'dead',
    'pending' | undefined,
    'pending' | 'running' | 'done' | 'dead'
  >;
  attempts: ColumnType<number, number | undefined, number>;
  max_attempts: ColumnType<number, number | undefined, number>;
  run_at: Millis;
  locked_by: string | null;
  locked_until: ColumnType<number | string | null, number | null | undefined, number | null>;
  last_error: string | null;
  unique_key: string | null;
  created_at: Timestamp;
  finished_at: ColumnType<number | string | null, number | null | undefined, number | null>;
}

export type AdStatus = 'draft' | 'pending' | 'published' | 'rejected' | 'sold' | 'expired' | 'archived' | 'deleted';

export interface AdsTable {
  id: Generated<number>;
  user_id: string | null;
  taxonomy_id: number;
  category_id: number;
  slug: string;
  title: string;
  description: string;
  price: ColumnType<number | string | null, number | null | undefined, number | null>;
  currency: ColumnType<string, string | undefined, string>;
  price_type: ColumnType<string, string | undefined, string>;
  city_id: number;
  area_id: number | null;
  lat: number | null;
  lng: number | null;
  contact_phone: Bool;
  contact_whatsapp: Bool;
  status: ColumnType<AdStatus, AdStatus | undefined, AdStatus>;
  rejection_reason: string | null;
  featured_until: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  bumped_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  published_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  expires_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  reminded_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  views: Count;
  favorites_count: Count;
  phone_reveals: Count;
  submission_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  /** The company of the owner (migration 0023; kept by server/domain/companies/). */
  company_id: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * When a pending ad (last) entered review, the moderation queue's order (migration 0028; written
   * by recordStatus in server/domain/ads/bookkeeping.ts). Left as it was once the ad leaves review.
   */
  queued_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
}

/** Ads per status, taxonomy and city, kept by triggers on `ads` (migration 0028). */
export interface AdCountsTable {
  status: AdStatus;
  taxonomy_id: number;
  city_id: number;
  n: Count;
}

/** Ads and members created per UTC day (`YYYY-MM-DD`), kept by triggers (migration 0028). */
export interface DailyCountsTable {
  kind: 'ads' | 'users';
  day: string;
  n: Count;
}

export type CompanyRole = 'owner' | 'agent';
export type BadgeTarget = 'user' | 'company';

export interface CompaniesTable {
  id: Generated<number>;
  slug: string;
  name_ar: string;
  name_en: string;
  description: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  city_id: number | null;
  /** Storage key base of the logo's variants (server/domain/companies/companies.ts), null without one. */
  logo: string | null;
  verified: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CompanyMembersTable {
  user_id: string;
  company_id: number;
  role: CompanyRole;
  created_at: Timestamp;
}

export interface BadgesTable {
  id: Generated<number>;
  slug: string;
  name_ar: string;
  name_en: string;
  description_ar: string | null;
  description_en: string | null;
  /** A key of BADGE_ICONS (app/lib/badges.ts). */
  icon: string;
  /** A key of BADGE_COLOURS (app/lib/badges.ts). */
  colour: string;
  target: BadgeTarget;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BadgeGrantsTable {
  id: Generated<number>;
  badge_id: number;
  user_id: string | null;
  company_id: number | null;
  granted_by: string | null;
  created_at: Timestamp;
}

export interface AdAttributeValuesTable {
  id: Generated<number>;
  ad_id: number;
  attribute_id: number;
  value_text: string | null;
  value_number: number | null;
  value_bool: ColumnType<boolean | number | null, boolean | null | undefined, boolean | null>;
  value_date: string | null;
  value_option: string | null;
}

export interface AdImagesTable {
  id: Generated<number>;
  ad_id: number | null;
  user_id: string | null;
  position: ColumnType<number, number | undefined, number>;
  key: string;
  width: number;
  height: number;
  variants: Json<{ name: string; width: number; height: number }[]>;
  created_at: Timestamp;
  /** Set while the photo belongs to a pending change of that ad (not on the ad yet). */
  held_for_ad_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface AdPendingChangesTable {
  id: Generated<number>;
  ad_id: number;
  user_id: string | null;
  /** The whole edited form: the fields, `attrs` and `photos` (ids in order). */
  proposal: Json<Record<string, unknown>>;
  /** The fields under review: [live value, proposed value]. */
  changes: Json<Record<string, [unknown, unknown]>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AdStatusHistoryTable {
  id: Generated<number>;
  ad_id: number;
  from_status: string | null;
  to_status: string;
  actor_id: string | null;
  reason: string | null;
  created_at: Timestamp;
}

export interface ReportsTable {
  id: Generated<number>;
  reporter_id: string | null;
  ad_id: number | null;
  user_id: string | null;
  reason: string;
  note: string | null;
  status: ColumnType<string, string | undefined, string>;
  handled_by: string | null;
  /** The chat a member was reported from (migration 0018). */
  chat_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The staff member's note when resolving or dismissing it, and when (migration 0027). */
  resolution_note: ColumnType<string | null, string | null | undefined, string | null>;
  handled_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RevisionsTable {
  id: Generated<number>;
  actor_id: string | null;
  subject_type: string;
  subject_id: string;
  action: string;
  changes: Json<Record<string, [unknown, unknown]>>;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
}

export interface SavedSearchesTable {
  id: Generated<number>;
  user_id: string;
  name: string;
  query: string;
  frequency: ColumnType<string, string | undefined, string>;
  last_alerted_at: Timestamp | null;
  last_seen_at: Timestamp | null;
  created_at: Timestamp;
}

/** A saved search's lookup keys for alerts (migration 0020; docs/product/alerts.md). */
export interface SavedSearchIndexTable {
  saved_search_id: number;
  user_id: string;
  scope_id: number;
  city_id: number;
  area_id: number;
  price_min: ColumnType<number | string | null, number | null | undefined, number | null>;
  price_max: ColumnType<number | string | null, number | null | undefined, number | null>;
  currency: string;
  frequency: string;
}

export interface SavedSearchMatchesTable {
  saved_search_id: number;
  ad_id: number;
  matched_at: Timestamp;
  delivered_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: string;
  type: string;
  data: Json<Record<string, unknown>>;
  read_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

export interface ChatsTable {
  id: Generated<number>;
  ad_id: number;
  buyer_id: string | null;
  seller_id: string | null;
  last_message_id: ColumnType<number, number | undefined, number>;
  last_message_at: Timestamp;
  created_at: Timestamp;
}

export type ChatRole = 'buyer' | 'seller';

export interface ChatMembersTable {
  chat_id: number;
  user_id: string;
  role: ChatRole;
  unread_count: ColumnType<number, number | undefined, number>;
  last_read_message_id: ColumnType<number, number | undefined, number>;
  archived: Bool;
  last_message_id: ColumnType<number, number | undefined, number>;
}

export type ChatMessageKind = 'text' | 'image' | 'offer' | 'offer-accepted' | 'offer-declined';
export type OfferStatus = 'pending' | 'accepted' | 'declined' | 'replaced';

export interface ChatMessagesTable {
  id: Generated<number>;
  chat_id: number;
  sender_id: string | null;
  kind: ChatMessageKind;
  body: string | null;
  image_key: string | null;
  image_width: number | null;
  image_height: number | null;
  offer_amount: number | null;
  offer_currency: string | null;
  offer_status: OfferStatus | null;
  reply_to_id: number | null;
  flags: ColumnType<string, string | undefined, string>;
  client_key: string | null;
  read_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

export interface FavoritesTable {
  id: Generated<number>;
  user_id: string;
  ad_id: number;
  /** The ad's price when saved (whole units; bigint: strings from PostgreSQL), null without an amount. */
  saved_price: ColumnType<number | string | null, number | null | undefined, number | null>;
  saved_currency: string;
  saved_price_type: string;
  created_at: Timestamp;
}

/** Whole units of money (bigint: strings from PostgreSQL). */
type Money = ColumnType<number | string, number, number>;

export type PackageAudience = 'individual' | 'company';

/** A package staff sell (migration 0022; docs/product/back-office.md, "Packages"). */
export interface PackagesTable {
  id: Generated<number>;
  name_ar: string;
  name_en: string;
  description_ar: string | null;
  description_en: string | null;
  price: Money;
  currency: string;
  duration_days: number;
  max_active_ads: number;
  featured_ads: number;
  reposts: number;
  audience: PackageAudience;
  active: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type BannerPlacement = 'home-hero' | 'home-inline' | 'listing-top' | 'ad-sidebar';
export type BannerSlot = 'ar-desktop' | 'ar-mobile' | 'en-desktop' | 'en-mobile';

/** One stored image of a banner: its storage key prefix (`banners/…/<random>`), size and variants. */
export interface BannerImage {
  key: string;
  width: number;
  height: number;
  variants: { name: string; width: number; height: number }[];
}

export interface BannersTable {
  id: Generated<number>;
  title_ar: string;
  title_en: string | null;
  link: string;
  placement: BannerPlacement;
  taxonomy_id: number | null;
  category_id: number | null;
  city_id: number | null;
  starts_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  ends_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  active: Bool;
  position: ColumnType<number, number | undefined, number>;
  images: Json<Partial<Record<BannerSlot, BannerImage>>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type PaymentMethod = 'offline' | 'bank-transfer';

/** Money recorded for a grant (server/domain/packages/payments.ts). */
export interface PaymentsTable {
  id: Generated<number>;
  provider: string;
  method: PaymentMethod;
  reference: string;
  amount: Money;
  currency: string;
  /** The member who paid, or (migration 0030) the company. */
  user_id: string | null;
  company_id: ColumnType<number | null, number | null | undefined, number | null>;
  recorded_by: string | null;
  created_at: Timestamp;
}

/** One grant of a package to a member or (migration 0030) a company, with its counters. */
export interface SubscriptionsTable {
  id: Generated<number>;
  package_id: number;
  user_id: string | null;
  company_id: number | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  max_active_ads: number;
  featured_ads: number;
  reposts: number;
  featured_remaining: number;
  reposts_remaining: number;
  granted_by: string | null;
  payment_id: number | null;
  reminded_at: Timestamp | null;
  created_at: Timestamp;
}

export interface BannerStatsTable {
  banner_id: number;
  day: string;
  impressions: Count;
  clicks: Count;
}

export interface Database {
  taxonomies: TaxonomiesTable;
  categories: CategoriesTable;
  attributes: AttributesTable;
  /** Old category slugs and the category each now names (migration 0026). */
  category_redirects: { slug: string; category_id: number; created_at: Timestamp };
  cities: CitiesTable;
  areas: AreasTable;
  settings: SettingsTable;
  contact_messages: ContactMessagesTable;
  rate_limits: RateLimitsTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  permissions: PermissionsTable;
  roles: RolesTable;
  role_permissions: { role_id: number; permission_id: number };
  user_roles: { user_id: string; role_id: number };
  user_permissions: { user_id: string; permission_id: number };
  notification_preferences: NotificationPreferencesTable;
  jobs: JobsTable;
  ads: AdsTable;
  ad_counts: AdCountsTable;
  daily_counts: DailyCountsTable;
  saved_searches: SavedSearchesTable;
  saved_search_index: SavedSearchIndexTable;
  saved_search_matches: SavedSearchMatchesTable;
  ad_attribute_values: AdAttributeValuesTable;
  ad_images: AdImagesTable;
  ad_status_history: AdStatusHistoryTable;
  ad_pending_changes: AdPendingChangesTable;
  ad_views: { ad_id: number; day: string; views: Count; phone_reveals: Count };
  ad_view_visitors: { ad_id: number; day: string; visitor: string };
  reports: ReportsTable;
  revisions: RevisionsTable;
  notifications: NotificationsTable;
  chats: ChatsTable;
  chat_members: ChatMembersTable;
  chat_messages: ChatMessagesTable;
  user_blocks: { blocker_id: string; blocked_id: string; created_at: Timestamp };
  favorites: FavoritesTable;
  packages: PackagesTable;
  payments: PaymentsTable;
  subscriptions: SubscriptionsTable;
  banners: BannersTable;
  banner_stats: BannerStatsTable;
  companies: CompaniesTable;
  company_members: CompanyMembersTable;
  badges: BadgesTable;
  badge_grants: BadgeGrantsTable;
  /** The text index's source (server/domain/search/text-index.ts); `terms` and `stems` since migration 0016, catalogue keys in `terms` since 0029. */
  ad_search: {
    ad_id: number;
    title: string;
    body: string;
    terms: ColumnType<string, string | undefined, string>;
    stems: ColumnType<string, string | undefined, string>;
  };
  /** PostgreSQL only: each (word, ad) pair of `ad_search`, kept by a trigger (migration 0013). */
  ad_words: { word: string; ad_id: number };
  /** Cities merged into another (`id`: the merged city's; migration 0029): their keys in the text index mean `city_id`. */
  merged_cities: { id: number; city_id: number };
  /** Areas merged into another, likewise. */
  merged_areas: { id: number; area_id: number };
}

export type TaxonomyRow = Selectable<TaxonomiesTable>;
export type CategoryRow = Selectable<CategoriesTable>;
export type AttributeRow = Selectable<AttributesTable>;
export type CityRow = Selectable<CitiesTable>;
export type AreaRow = Selectable<AreasTable>;
