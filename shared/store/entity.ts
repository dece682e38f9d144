/**
 * The table's entities, each described once: the attributes an item carries beside its record (keys,
 * index attributes, ttl, the entity name) and the record fields stored only when set (null is not
 * written, so conditions can use attribute_not_exists, and reading puts null back).
 */

/** Attributes of an item that are not part of the record it stores. */
const TABLE_ATTRIBUTES = new Set([
  'pk',
  'sk',
  'entity',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'ttl',
]);

export interface Entity<R extends object> {
  readonly name: string;
  /** The record an item stores (what the repository wrote with toItem). */
  fromItem(item: Record<string, unknown>): R;
  /** The record's attributes as stored: fields that are null or undefined are left out. */
  attributes(record: Partial<R>): Record<string, unknown>;
}

/**
 * The one place an item read from the table becomes a typed record: every item of an entity was
 * written by its repository from a record of that type, so the shape is the repository's contract.
 */
export function defineEntity<R extends object>(
  name: string,
  options: { nullable?: readonly (keyof R & string)[]; keep?: readonly string[] } = {},
): Entity<R> {
  const nullable = options.nullable ?? [];
  const keep = new Set(options.keep ?? []);
  return {
    name,
    fromItem(item) {
      const record: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(item)) if (!TABLE_ATTRIBUTES.has(k) || keep.has(k)) record[k] = v;
      for (const field of nullable) record[field] ??= null;
      return record as R;
    },
    attributes(record) {
      return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined));
    },
  };
}
