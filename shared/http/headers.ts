import { dictionary } from '#shared/dictionary';

/** Header names lower-cased into a map without a prototype: `constructor` or `__proto__` are keys like any other. */
export function lowerCaseHeaders(
  headers: Record<string, string | undefined> | null | undefined,
): Record<string, string> {
  const out = dictionary<string>();
  for (const [k, v] of Object.entries(headers ?? {})) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}
