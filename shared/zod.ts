/**
 * The one zod every bundled module imports: zod/mini (functional, tree-shaken; about a quarter of
 * classic zod in a bundle) with the English error messages that classic zod configures by itself
 * and zod/mini leaves out (its messages would otherwise all be "Invalid input"). Only the English
 * locale is imported, never `z.locales`, so the other languages stay out of the bundles.
 */
import { config, globalRegistry, type core, type ZodMiniType } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';

/**
 * What classic zod's `.meta(data)` does: a copy of `schema` with `data` in the global registry (the
 * copy inherits the original's metadata but its id), so the original stays as it was.
 */
export function withMeta<T extends ZodMiniType>(schema: T, data: core.GlobalMeta): T {
  const copy = schema.clone();
  globalRegistry.add(copy, data);
  return copy;
}
