/**
 * Lookups keyed by caller input. A plain object answers for names it inherits from
 * Object.prototype (`constructor`, `toString`, `__proto__`, ...), so a table indexed by a header,
 * query, body, slot or column name must ask for own properties only, and a map built from such
 * names must have no prototype at all.
 */

/** `table[key]` when `key` is the table's own entry, never an inherited one. */
export const own = <V>(table: Readonly<Record<string, V>>, key: string): V | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** An empty object with no prototype: every string, `__proto__` included, is just a key. */
export const dictionary = <V>(): Record<string, V> => Object.create(null) as Record<string, V>;
