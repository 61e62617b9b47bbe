// Apart from the report form's schema (validation/ads.ts): the ad page lists the reasons in the
// browser without loading Zod.
/** Why a member reports an ad (docs/product/ads.md, "Reports"), in the order the form lists them. */
export const REPORT_REASONS = [
  'scam',
  'prohibited',
  'wrong-category',
  'duplicate',
  'offensive',
  'sold',
  'other',
] as const;
