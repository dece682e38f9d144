/**
 * The one way repositories write an UpdateExpression, for an UpdateCommand or an `Update` item of a
 * transaction alike. Every attribute name is aliased (#n0, #n1, …), so reserved words such as
 * `status`, `data` or `name` are safe; every value is a placeholder (:v0, :v1, …); undefined values
 * are skipped. Keys are document paths: `stageDone.enrich` is the map entry `enrich` of `stageDone`,
 * `outcomes[2]` the third element of the list `outcomes`.
 *
 *   buildUpdate({ set: { status: 'paid' }, increment: { version: 1 }, condition: 'attribute_exists(pk)' })
 *   // SET #n0 = :v0, #n1 = #n1 + :v1   (#n0: status, #n1: version)
 */

/** A condition written by hand; its placeholders must not look like the builder's (#n0, :v0). */
export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** The top-level attribute names of an item whose attributes are `A`. */
type AttributeName<A> = keyof A & string;
/** A document path into one of those attributes: `stageDone.enrich`, `outcomes[2]`, `outcomes[2].status`. */
type DocumentPath<A> = `${AttributeName<A>}.${string}` | `${AttributeName<A>}[${number}]${string}`;
/** Where an update may write: an attribute of the item, or a path inside one. */
export type UpdatePath<A> = AttributeName<A> | DocumentPath<A>;
/** Values by path: an attribute takes its own type (or undefined, skipped); a path inside one takes anything. */
type PathValues<A> = { [P in AttributeName<A>]?: A[P] | undefined } & { [P in DocumentPath<A>]?: unknown };
type PathNumbers<A> = { [P in UpdatePath<A>]?: number | undefined };

/**
 * An update of an item whose attributes are `A` (an entity's record and the index attributes): a
 * misspelled attribute is a compile error, not a new attribute written beside the real one.
 */
export interface UpdateSpec<A> {
  /** SET path = value. Null is stored as NULL; undefined is skipped. */
  set?: PathValues<A>;
  /** SET path = if_not_exists(path, value): the value is written only when the attribute is missing. */
  setIfNotExists?: PathValues<A>;
  /** SET path = path + n: the attribute must exist (the write fails on a missing one). */
  increment?: PathNumbers<A>;
  /** ADD path n: a missing number attribute counts from 0. */
  add?: PathNumbers<A>;
  /** REMOVE path. */
  remove?: readonly UpdatePath<A>[];
  condition?: string | Condition;
}

export interface UpdateParts {
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * The attributes must be named, `buildUpdate<Attributes>(…)` (an entity's `update` does it): left to
 * inference, a typo would be inferred as one more attribute.
 */
export function buildUpdate<A extends object = never>(
  spec: [A] extends [never] ? 'name the attributes: buildUpdate<Attributes>(spec)' : UpdateSpec<NoInfer<A>>,
): UpdateParts {
  return updateOf<A>(spec as UpdateSpec<A>);
}

/** buildUpdate for generic code (an entity's `update`), where the attributes are a type parameter. */
export function updateOf<A>(spec: UpdateSpec<A>): UpdateParts {
  return writeUpdate(spec as UntypedSpec);
}

interface UntypedSpec {
  set?: Record<string, unknown>;
  setIfNotExists?: Record<string, unknown>;
  increment?: Record<string, number | undefined>;
  add?: Record<string, number | undefined>;
  remove?: readonly string[];
  condition?: string | Condition;
}

function writeUpdate(spec: UntypedSpec): UpdateParts {
  const names: Record<string, string> = {};
  const aliases = new Map<string, string>();
  const values: Record<string, unknown> = {};
  const alias = (name: string) => {
    let placeholder = aliases.get(name);
    if (!placeholder) {
      placeholder = `#n${aliases.size}`;
      aliases.set(name, placeholder);
      names[placeholder] = name;
    }
    return placeholder;
  };
  const path = (p: string) =>
    p
      .split('.')
      .map((segment) => {
        const parts = /^([^[\]]+)((?:\[\d+\])*)$/.exec(segment);
        if (!parts) throw new Error(`Not a document path: ${p}`);
        return alias(parts[1]) + parts[2];
      })
      .join('.');
  const value = (v: unknown) => {
    const placeholder = `:v${Object.keys(values).length}`;
    values[placeholder] = v;
    return placeholder;
  };
  const defined = <T>(fields: Record<string, T | undefined> | undefined) =>
    Object.entries(fields ?? {}).filter((e): e is [string, T] => e[1] !== undefined);

  const sets = [
    ...defined(spec.set).map(([p, v]) => `${path(p)} = ${value(v)}`),
    ...defined(spec.setIfNotExists).map(([p, v]) => `${path(p)} = if_not_exists(${path(p)}, ${value(v)})`),
    ...defined(spec.increment).map(([p, n]) => `${path(p)} = ${path(p)} + ${value(n)}`),
  ];
  const adds = defined(spec.add).map(([p, n]) => `${path(p)} ${value(n)}`);
  const removes = (spec.remove ?? []).map(path);
  const clauses = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ];
  const UpdateExpression = clauses.filter(Boolean).join(' ');
  if (!UpdateExpression) throw new Error('An update must change something');

  const condition = typeof spec.condition === 'string' ? { expression: spec.condition } : spec.condition;
  for (const [placeholder, name] of Object.entries(condition?.names ?? {})) {
    if (placeholder in names) throw new Error(`The condition's ${placeholder} clashes with the update's`);
    names[placeholder] = name;
  }
  for (const [placeholder, v] of Object.entries(condition?.values ?? {})) {
    if (placeholder in values) throw new Error(`The condition's ${placeholder} clashes with the update's`);
    values[placeholder] = v;
  }
  return {
    UpdateExpression,
    ...(condition ? { ConditionExpression: condition.expression } : {}),
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

/** A partial record as an update that stores null as absence: defined non-null fields are SET, null ones REMOVEd. */
export function setOrRemove<A extends object>(
  fields: { [K in keyof A]?: A[K] | null },
): {
  set: Partial<A>;
  remove: (keyof A & string)[];
} {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  return {
    set: Object.fromEntries(entries.filter(([, v]) => v !== null)) as Partial<A>,
    remove: entries.filter(([, v]) => v === null).map(([k]) => k as keyof A & string),
  };
}
