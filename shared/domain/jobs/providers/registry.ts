import { ports } from '#shared/adapters/ports';
import { configuredProviders } from '#shared/adapters/enrichment/registry';
import { builtinProviders } from './builtin';
import { sharedCurated } from './sharedCurated';
import { isDisposableDomain } from '../disposableDomains';
import type { Providers } from './types';
import { ProviderWaterfall, withWaterfall, type WaterfallReport } from './waterfall';

let overrides: Partial<Providers> = {};

/** Plugs external providers in (all or some capabilities); the built-in ones serve the rest. */
export function installProviders(next: Partial<Providers>): void {
  overrides = { ...overrides, ...next };
}

export interface StageProviders {
  providers: Providers;
  /** What the outside providers did in this run: failures for the job's warnings, calls bought and cached. */
  report(): WaterfallReport;
}

/**
 * Providers for one stage run: the built-in ones (MX answers remembered for the run, curated answers
 * for a few minutes) with the configured outside providers behind them in a waterfall.
 */
export async function providersForRun(): Promise<StageProviders> {
  const waterfall = new ProviderWaterfall(await configuredProviders());
  const builtin = builtinProviders({ curated: sharedCurated(), dns: ports().dns, isDisposable: isDisposableDomain });
  return { providers: { ...withWaterfall(builtin, waterfall), ...overrides }, report: () => waterfall.report() };
}
