import { ports } from '#shared/adapters/ports';
import { builtinProviders } from './builtin';
import { cachedCuratedSource, type CuratedSource } from './curatedSource';
import { storeCuratedSource } from './storeCuratedSource';
import type { Providers } from './types';

let overrides: Partial<Providers> = {};
let curatedSource: CuratedSource | undefined;

/** Plugs external providers in (all or some capabilities); the built-in ones serve the rest. */
export function installProviders(next: Partial<Providers>): void {
  overrides = { ...overrides, ...next };
}

/** Providers for one stage run: MX answers are remembered for the run, curated answers for a few minutes. */
export function providersForRun(): Providers {
  curatedSource ??= cachedCuratedSource(storeCuratedSource(), { ttlMs: 5 * 60_000, maxEntries: 20_000 });
  return { ...builtinProviders({ curated: curatedSource, dns: ports().dns }), ...overrides };
}
