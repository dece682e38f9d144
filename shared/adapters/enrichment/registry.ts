/**
 * The enrichment providers, one row each, and the ones this deployment uses: those ENRICHMENT_PROVIDERS
 * names, in its order, that have a key (the providers secret in AWS, environment variables locally).
 * A provider without a key is skipped; a name with no module is skipped too (and said once in the log).
 */
import { config } from '#shared/config/config';
import { logger } from '#shared/observability/logger';
import { readSecret } from '#shared/adapters/secrets';
import { hunter } from './hunter';
import { zeroBounce } from './zeroBounce';
import {
  DEFAULT_CALL_POLICY,
  PROVIDER_NAMES,
  type CallPolicy,
  type EnrichmentProvider,
  type ProviderDefinition,
  type ProviderName,
} from './port';

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

/** The providers to try, in order, each bound to its key; those without a key are left out. */
export async function configuredProviders(policy: CallPolicy = DEFAULT_CALL_POLICY): Promise<EnrichmentProvider[]> {
  const order = providerOrder();
  if (order.length === 0) return [];
  const keys = await readSecret(
    'providers',
    order.map((name) => PROVIDERS[name].keyName),
  );
  return order.flatMap((name) => {
    const definition = PROVIDERS[name];
    const key = keys[definition.keyName];
    if (!key) return [];
    const base = config().enrichment.apiBases[definition.apiBase.env] ?? definition.apiBase.default;
    return [{ name, slots: definition.slots, lookups: definition.create({ key, base, policy }) }];
  });
}
