// The types an attribute may have (docs/product/back-office.md, "Catalogue") and which fields each
// type has: shared by the editor's form schema (./validation/catalogue.ts) and the domain
// (server/domain/admin/catalogue.ts), which runs outside the bundle too (scripts, jobs).
import type { AttributeType } from '../../server/db/schema.ts';
import { oneOf } from './one-of.ts';

export const ATTRIBUTE_TYPES = [
  'text',
  'number',
  'select',
  'multiselect',
  'boolean',
  'year',
  'date',
] as const satisfies readonly AttributeType[];
export const isAttributeType = oneOf(ATTRIBUTE_TYPES);
/** Types whose values are options. */
export const hasOptions = (type: AttributeType) => type === 'select' || type === 'multiselect';
/** Types with a numeric range. */
export const hasRange = (type: AttributeType) => type === 'number' || type === 'year';
