import { ports } from '../../../adapters/ports';
import { builtinProviders } from './builtin';
import { memoised, type CuratedSource } from './curatedSource';
import { storeCuratedSource } from './storeCuratedSource';
import type { Providers } from './types';

let overrides: Partial<Providers> = {};
let curatedSource: CuratedSource | undefined;

/** Plugs external providers in (all or some capabilities); the built-in ones serve the rest. */
export function installProviders(next: Partial<Providers>): void {
  overrides = { ...overrides, ...next };
}

/** Providers for one stage run: curated answers and MX look-ups are remembered for the run only. */
export function providersForRun(): Providers {
  curatedSource ??= storeCuratedSource();
  return { ...builtinProviders({ curated: memoised(curatedSource), dns: ports().dns }), ...overrides };
}
