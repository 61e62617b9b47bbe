// Codes of moderation that public pages read too (a rejection's reason, Libya's time zone), apart
// from the moderation forms' validation (./validation/moderation.ts) so pages that only show them
// do not ship the validation library.
import { oneOf } from './one-of.ts';

/** Why an ad is refused; the code is stored in `ads.rejection_reason` (the text for `other`). */
export const REJECTION_REASONS = [
  'prohibited',
  'wrong-category',
  'duplicate',
  'misleading-price',
  'poor-photos',
  'contact-in-text',
  'other',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** Featuring lasts to the end of the chosen day in Libya (UTC+2 all year). */
export const LIBYA_TIME_ZONE = 'Africa/Tripoli';

export const isRejectionReason = oneOf(REJECTION_REASONS);
