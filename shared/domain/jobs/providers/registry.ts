import { ports } from '#shared/adapters/ports';
import { configuredProviders } from '#shared/adapters/enrichment/registry';
import { builtinProviders } from './builtin';
import { cachedCuratedSource, type CuratedSource } from './curatedSource';
import { storeCuratedSource } from './storeCuratedSource';
import type { Providers } from './types';
import { ProviderWaterfall, withWaterfall, type WaterfallReport } from './waterfall';

let overrides: Partial<Providers> = {};
let curatedSource: CuratedSource | undefined;

/** Plugs external providers in (all or some capabilities); the built-in ones serve the rest. */
export function installProviders(next: Partial<Providers>): void {
  overrides = { ...overrides, ...next };
}

export interface StageProviders {
  providers: Providers;
  /** What the outside providers did in this run: failures for the job's warnings, calls bought and cached. */
  report(): WaterfallReport;
}

const sharedCurated = (): CuratedSource =>
  (curatedSource ??= cachedCuratedSource(storeCuratedSource(), { ttlMs: 5 * 60_000, maxEntries: 20_000 }));

/**
 * The built-in providers with nothing outside the table: for the expected cost of a job before it runs.
 * Verification asks nobody (not even DNS): every address found or given counts as one checked.
 */
export function estimateProviders(): Providers {
  // Only verification reads DNS, and it is replaced: the API functions pricing jobs have no DNS port.
  const noDns = {
    resolveMx: () => Promise.reject(new Error('A job is priced without DNS')),
  };
  return {
    ...builtinProviders({ curated: sharedCurated(), dns: noDns }),
    email_verify: { name: 'estimate', run: async () => ({ status: 'unknown', reasons: [] }) },
  };
}

/**
 * Providers for one stage run: the built-in ones (MX answers remembered for the run, curated answers
 * for a few minutes) with the configured outside providers behind them in a waterfall.
 */
export async function providersForRun(): Promise<StageProviders> {
  const waterfall = new ProviderWaterfall(await configuredProviders());
  const builtin = builtinProviders({ curated: sharedCurated(), dns: ports().dns });
  return { providers: { ...withWaterfall(builtin, waterfall), ...overrides }, report: () => waterfall.report() };
}
