// A scan filter of the search index that keeps every live ad out of nothing: tests spread over it
// what they need (`{ ...NO_FILTER, attributes }`).
import type { ScanFilter } from '../../server/domain/search/ad-index.ts';

export const NO_FILTER: ScanFilter = {
  categories: null,
  priceMin: null,
  priceMax: null,
  currency: 0,
  columns: [],
  attributes: [],
  candidates: null,
  bbox: null,
};
