/** Lowercase ASCII words joined by single hyphens: every taxonomy, category, city and area slug. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
