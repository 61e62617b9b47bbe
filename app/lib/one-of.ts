// A type guard for the values of a fixed list, so code that reads a value from outside (a form, a
// URL, a database row written by an older version) narrows it without a cast.

/** `const isTab = oneOf(TABS)`: `isTab(v)` is true, and narrows `v`, when v is one of the list. */
export function oneOf<const T extends string>(values: readonly T[]): (v: unknown) => v is T {
  const known: ReadonlySet<unknown> = new Set(values);
  return (v: unknown): v is T => known.has(v);
}
