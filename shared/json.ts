/** A JSON object, as parsed or generated (a schema, a document): its values are read with checks. */
export type JsonObject = Record<string, unknown>;

/** The JSON object at a place of a document, or an empty one when the place holds none. */
export const jsonObjectAt = (value: unknown): JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};

/**
 * Stable JSON: object keys sorted by code point at every level and undefined values dropped, so
 * requests that mean the same thing serialise (and hash) the same whatever their key order.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/**
 * Whether a JSON text nests arrays and objects more than `limit` deep (brackets inside strings do
 * not count). A linear scan of the text, so it can run before JSON.parse and before anything
 * recursive (JSON.stringify, schema validation, canonicalJson) meets the value.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (OPEN.has(c) && ++depth > limit) return true;
    else if (CLOSE.has(c)) depth--;
  }
  return false;
}

/**
 * The path of the first `__proto__` key in a parsed JSON value, or undefined. JSON.parse keeps such
 * a key as data, but schema parsing and object spreads drop it or turn it into a prototype, so a
 * caller's value would vanish silently. Recursive: call it only on input whose depth is bounded.
 */
export function reservedKeyPath(value: unknown, path: string[] = []): string[] | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return [...path, '__proto__'];
  for (const [k, v] of Object.entries(value)) {
    const found = reservedKeyPath(v, [...path, k]);
    if (found) return found;
  }
  return undefined;
}

// Code units, not code points (no `u` flag): a high surrogate not followed by a low one, or a low one not
// preceded by a high one. Each alternative looks one unit around a single unit: linear time.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (text: string) => !LONE_SURROGATE.test(text);

/**
 * The first value in parsed JSON that the store cannot keep as sent, or undefined: a number a double
 * cannot hold (`1e309` parses to Infinity and would come back as null), or a string or property name
 * with a lone UTF-16 surrogate (`"\ud800"`, which UTF-8 cannot encode: it would come back as U+FFFD).
 * Schema-typed values refuse some of these, free-form ones (chat metadata) would change silently.
 */
export function unrepresentableValue(
  value: unknown,
  path: string[] = [],
): { path: string[]; message: string } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path, message: 'Number out of range' };
  if (typeof value === 'string')
    return wellFormed(value) ? undefined : { path, message: 'Lone UTF-16 surrogate in text' };
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (!wellFormed(k))
      return {
        path: [...path, k.replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD')],
        message: 'Lone UTF-16 surrogate in a property name',
      };
    const found = unrepresentableValue(v, [...path, k]);
    if (found) return found;
  }
  return undefined;
}

/** A message body that may be anything (a dead letter, a foreign sender): its value when it is JSON matching `schema`. */
export function parseJsonAs<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  text: string,
): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
