/**
 * The providers this deployment uses: those ENRICHMENT_PROVIDERS lists (catalog.ts), in its order,
 * that have a key (the providers secret in AWS, environment variables locally). A provider without a
 * key is skipped.
 */
import { config } from '#shared/config/config';
import { readSecret } from '#shared/adapters/secrets';
import { PROVIDERS, providerOrder } from './catalog';
import { DEFAULT_CALL_POLICY, type CallPolicy, type EnrichmentProvider } from './port';

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
