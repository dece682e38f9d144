/**
 * The enrichment providers, one row each, and the order this deployment lists them in
 * (ENRICHMENT_PROVIDERS; a name with no module is skipped, said once in the log). No secret is read
 * here, so code that only needs to know which lookups the listed providers offer (a growth quote)
 * does not bring the secrets port; registry.ts binds the listed providers to their keys.
 */
import { config } from '#shared/config/config';
import { logger } from '#shared/observability/logger';
import { hunter } from './hunter';
import { zeroBounce } from './zeroBounce';
import { PROVIDER_NAMES, type LookupName, type ProviderDefinition, type ProviderName } from './port';

export const PROVIDERS: Readonly<Record<ProviderName, ProviderDefinition>> = { hunter, zerobounce: zeroBounce };

/** Every provider's key name: the fields of the providers secret (the stack creates it with these). */
export const providerSecretNames = (): string[] => PROVIDER_NAMES.map((name) => PROVIDERS[name].keyName);

const isProviderName = (name: string): name is ProviderName => (PROVIDER_NAMES as readonly string[]).includes(name);

const warnedUnknown = new Set<string>();

/** The configured order, known names only. */
export function providerOrder(): ProviderName[] {
  const order: ProviderName[] = [];
  for (const name of config().enrichment.providers) {
    if (isProviderName(name)) {
      if (!order.includes(name)) order.push(name);
    } else if (!warnedUnknown.has(name)) {
      warnedUnknown.add(name);
      logger.warn('ENRICHMENT_PROVIDERS names an unknown provider; skipped', { provider: name });
    }
  }
  return order;
}

/** The lookups the listed providers offer between them (whether each has its key is known only where keys are read). */
export function listedLookups(): ReadonlySet<LookupName> {
  return new Set(providerOrder().flatMap((name) => PROVIDERS[name].lookups));
}
