// What some back-office screens and their server code share: sorts, filter values and limits the
// lists' URLs accept (app/lib/admin-list.ts reads them). Kept here, away from the server modules
// that query the database, so a screen's browser code takes these values without the data layer.

export const TAXONOMY_SORTS = ['position', 'slug'] as const;
export type TaxonomySort = (typeof TAXONOMY_SORTS)[number];

export const CITY_SORTS = ['position', 'name'] as const;
export type CitySort = (typeof CITY_SORTS)[number];

export const JOB_STATUSES = ['pending', 'running', 'dead', 'done'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The holders listed under each role on the roles screen. */
export const HOLDERS_SHOWN = 20;
