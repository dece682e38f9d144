/**
 * The providers that price a job before it runs (the API functions): the built-in ones with nothing
 * outside the table, and without the worker's disposable-domain list.
 */
import { builtinProviders } from './builtin';
import { sharedCurated } from './sharedCurated';
import type { Providers } from './types';

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
    // No list to check: verification is replaced below.
    ...builtinProviders({ curated: sharedCurated(), dns: noDns, isDisposable: async () => false }),
    email_verify: { name: 'estimate', run: async () => ({ status: 'unknown', reasons: [] }) },
  };
}
