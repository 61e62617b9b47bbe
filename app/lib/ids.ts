// Row ids in URLs. Every table's id is a 32-bit integer on PostgreSQL (`serial`/`integer`): a longer
// number in a path is simply no such row, never a query the database refuses.
import { z } from 'zod';

/** The largest id a row can have. */
export const MAX_ID = 2_147_483_647;

/** An id as written in a path: decimal, no sign, no leading zero, within MAX_ID. */
export const ID_PARAMETER = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .pipe(z.number().max(MAX_ID))
  .meta({ description: `A row id, 1 to ${MAX_ID}` });

/** The id written in `value`, or null. */
export function parseId(value: unknown): number | null {
  const parsed = ID_PARAMETER.safeParse(value);
  return parsed.success ? parsed.data : null;
}
