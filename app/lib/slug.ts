import { parseId } from './ids.ts';

/** Lowercase ASCII words joined by single hyphens: every taxonomy, category, city and area slug. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The `{slug}-{id}` segment of an ad URL (`{taxonomy}/{category}/{slug}-{id}`, docs/product/ads.md) with its
 * taxonomy and category segments: the id and the slug given, or null when any part is malformed.
 */
export function parseAdUrl(params: {
  taxonomy: string;
  category: string;
  ad: string;
}): { id: number; slug: string } | null {
  const match = /^(?:(.*)-)?(\d{1,12})$/.exec(params.ad);
  const id = parseId(match?.[2]);
  if (!match || id === null || !SLUG_PATTERN.test(params.taxonomy) || !SLUG_PATTERN.test(params.category)) return null;
  return { id, slug: match[1] ?? '' };
}
