// Row ids in URLs. Every table's id is a 32-bit integer on PostgreSQL (`serial`/`integer`): a longer
// number in a path is simply no such row, never a query the database refuses. The pages read ids
// with parseId, without Zod in their scripts; forms and the API's path parameters check the same
// rule as a Zod schema (ID_PARAMETER in ./validation/id.ts).

/** The largest id a row can have. */
export const MAX_ID = 2_147_483_647;

/** An id as written in a path: decimal, no sign, no leading zero (and within MAX_ID). */
export const ID_PATTERN = /^[1-9]\d{0,9}$/;

/** The id written in `value`, or null. */
export function parseId(value: unknown): number | null {
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}
