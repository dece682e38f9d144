/**
 * The value a map holds for a key the caller put there itself. A missing one is a bug in the caller,
 * thrown here by name (a 500 on a request path) instead of an undefined read further on.
 */
export function mustGet<K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`${what}: nothing for ${String(key)}`);
  return value;
}

/** The map's value for `key`, made by `create` and stored on first use (Map.prototype.getOrInsertComputed, still a proposal). */
export function getOrInsertComputed<K, V>(map: Map<K, V>, key: K, create: (key: K) => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const value = create(key);
  map.set(key, value);
  return value;
}
