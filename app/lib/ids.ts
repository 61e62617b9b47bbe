// Row ids in URLs. Every table's id is a 32-bit integer on PostgreSQL (`serial`/`integer`): a longer
// number in a path is simply no such row, never a query the database refuses.

import { z } from 'zod';

/** The largest id a row can have. */
export const MAX_ID = 2_147_483_647;

/** The id written in `value` (decimal, no sign, no leading zero, within MAX_ID), or null. */
export function parseId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}

/** A form field holding a row id (as `parseId` reads it). */
export const idField = z.string().transform((value, ctx) => {
  const id = parseId(value);
  if (id === null) {
    ctx.addIssue({ code: 'custom', message: 'invalid' });
    return z.NEVER;
  }
  return id;
});
