// A row id as a Zod schema, for the forms' schemas and the API's path parameters (OpenAPI included):
// the rule of parseId in ../ids.ts, which pages read ids with (no Zod in their scripts).
import { z } from 'zod';
import { ID_PATTERN, MAX_ID } from '../ids.ts';

/** An id as written in a path: decimal, no sign, no leading zero, within MAX_ID. */
export const ID_PARAMETER = z
  .string()
  .regex(ID_PATTERN)
  .transform(Number)
  .pipe(z.number().max(MAX_ID))
  .meta({ description: `A row id, 1 to ${MAX_ID}` });
