// Shapes of the reference data seeded by ../index.ts: the catalogue (taxonomies → categories → attributes)
// and the Libyan cities with their areas. Plain data, no runtime code.

/** How an attribute's value is entered and stored. */
export type AttributeType = 'text' | 'number' | 'select' | 'multiselect' | 'boolean' | 'year' | 'date';

/** One choice of a select / multiselect attribute; `value` is kebab-case ASCII and unique within the attribute. */
export interface SeedOption {
  value: string;
  ar: string;
  en: string;
}

/**
 * A field an ad fills in. An ad carries the attributes of its taxonomy, of every ancestor category and of its own
 * category, so `key` (snake_case) must be unique along that whole chain.
 */
export interface SeedAttribute {
  key: string; // snake_case, unique within the chain taxonomy → ancestors → category
  name_ar: string;
  name_en: string;
  type: AttributeType;
  options?: SeedOption[]; // required for select / multiselect; value is kebab-case ASCII
  unit_ar?: string;
  unit_en?: string; // e.g. 'كم' / 'km', 'م²' / 'm²'
  required?: boolean;
  filterable?: boolean;
  shown_on_card?: boolean;
  min?: number;
  max?: number; // for number / year
}

/** A category; `slug` is globally unique across all taxonomies and categories. `icon` is a Tabler icon name in kebab-case without the "Icon" prefix. */
export interface SeedCategory {
  slug: string;
  name_ar: string;
  name_en: string;
  icon?: string;
  attributes?: SeedAttribute[];
  children?: SeedCategory[];
}

/** A top-level section of the marketplace (motors, property, …). */
export interface SeedTaxonomy {
  slug: string;
  name_ar: string;
  name_en: string;
  icon: string;
  attributes?: SeedAttribute[];
  categories: SeedCategory[];
}

/** A neighbourhood of a city; `slug` is unique across all cities and areas. */
export interface SeedArea {
  slug: string;
  name_ar: string;
  name_en: string;
  lat: number;
  lng: number;
}

/** A Libyan municipality; `slug` is unique across all cities and areas. */
export interface SeedCity {
  slug: string;
  name_ar: string;
  name_en: string;
  lat: number;
  lng: number;
  areas?: SeedArea[];
}
