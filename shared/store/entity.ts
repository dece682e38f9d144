/**
 * The table's entities, each described once: its name (the `entity` attribute every item carries),
 * its key, the record it stores and the record fields stored only when set (null is not written, so
 * conditions can use attribute_not_exists, and reading puts null back). Repositories write items with
 * `item`, updates with `update` (typed by the record, so a misspelled attribute does not compile) and
 * read items back with `fromItem`, the one place a stored item becomes a typed record.
 */
import type { Key } from './keys';
import { updateOf, type UpdateParts, type UpdateSpec } from './update';

/** The index and expiry attributes an item may carry beside its record (keys.ts builds them). */
export interface IndexAttributes {
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
  gsi3pk?: string;
  gsi3sk?: string;
  ttl?: number;
}

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

/** An item as DynamoDB returns it, before its entity has checked it. */
export type StoredItem = Record<string, unknown>;

/** An item as written: its key, its entity's name, its record's attributes and any index attributes. */
export type EntityItem<N extends string> = Key & { entity: N } & Record<string, unknown>;

/** Thrown when an item read for one entity is another's (or none's): a key or index serves the wrong items. */
export class EntityMismatchError extends Error {
  override readonly name = 'EntityMismatchError';
}

export interface Entity<R extends object, K extends object, N extends string> {
  readonly name: N;
  /** The item's key, from the fields that name it. */
  key(of: K): Key;
  /** The full item: key, entity name, the record's non-null attributes (key-only fields left out) and index attributes. */
  item(record: R & K, index?: IndexAttributes): EntityItem<N>;
  /** The record an item stores; throws EntityMismatchError when the item is not one of this entity's. */
  fromItem(item: StoredItem): R;
  /** The record of an item that may be absent. */
  maybe(item: StoredItem | undefined): R | undefined;
  /** The record's attributes as stored: undefined fields and the nullable ones that are null are left out. */
  attributes(record: Partial<R>): Partial<R>;
  /** An UpdateExpression over this entity's attributes, the index attributes and its name (an upsert sets it). */
  update(spec: UpdateSpec<R & IndexAttributes & { entity: N }>): UpdateParts;
}

export interface EntityDefinition<R extends object, K extends object, N extends string> {
  name: N;
  key: (of: K) => Key;
  /** Record fields stored only when set: reading puts null back for an absent one. */
  nullable?: readonly (keyof R & string)[];
  /** Table attributes the record keeps (a `ttl` the domain reads). */
  keep?: readonly (keyof IndexAttributes)[];
  /** Fields that only build the key (they are in the key already): `item` leaves them out of the attributes. */
  keyOnly?: readonly (keyof K & string)[];
  /**
   * The entity's items may have been created by an update (a counter's ADD on a missing item), which
   * writes no `entity` attribute: reading accepts an item without one.
   */
  createdByUpdate?: boolean;
}

/**
 * Defines an entity whose items store records of type R: `defineEntity<R>()({ name, key, ... })` (the
 * record type is named, the rest inferred). The key function's parameter says which fields name an
 * item; `item` takes a record with those fields.
 */
export function defineEntity<R extends object>() {
  return <const N extends string, K extends object = R>(definition: EntityDefinition<R, K, N>): Entity<R, K, N> => {
    const { name } = definition;
    const nullable = new Set<string>(definition.nullable ?? []);
    const keep = new Set<string>(definition.keep ?? []);
    const keyOnly = new Set<string>(definition.keyOnly ?? []);
    const attributes = (record: Partial<R>): Partial<R> => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(record))
        if (v !== undefined && !(v === null && nullable.has(k)) && !keyOnly.has(k)) out[k] = v;
      return out as Partial<R>;
    };
    const fromItem = (item: StoredItem): R => {
      const stored = item.entity;
      if (stored !== name && !(stored === undefined && definition.createdByUpdate))
        throw new EntityMismatchError(`Read a ${String(stored ?? 'untyped')} item where a ${name} item belongs`);
      const record: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(item)) if (!TABLE_ATTRIBUTES.has(k) || keep.has(k)) record[k] = v;
      for (const field of nullable) record[field] ??= null;
      // Checked above: the item is this entity's, and only its repository writes them, from an R.
      return record as R;
    };
    return {
      name,
      key: definition.key,
      item: (record, index) => ({ ...definition.key(record), entity: name, ...attributes(record), ...index }),
      fromItem,
      maybe: (item) => (item ? fromItem(item) : undefined),
      attributes,
      update: (spec) => updateOf<R & IndexAttributes & { entity: N }>(spec),
    };
  };
}
