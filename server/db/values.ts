// Reading values the same way on both dialects.
export const toBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';
export const toNumber = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
export const toIso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
export function toJson<T>(v: unknown, fallback: T): T {
  if (v === null || v === undefined) return fallback;
  if (typeof v === 'string') {
    try {
      return JSON.parse(v) as T;
    } catch {
      return fallback;
    }
  }
  return v as T;
}

/** Whether `error` is the database refusing a duplicate of a unique index (PostgreSQL 23505, SQLite's constraint). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  return e.code === '23505' || (typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed'));
}
