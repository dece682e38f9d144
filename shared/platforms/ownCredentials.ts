/**
 * One platform's operator credentials, by its own `CredentialSpec`: what credentials.ts does for every
 * registered platform at once, and what a platform's own code uses to read its credentials without
 * going through the registry (which imports that code).
 */
import { config } from '#shared/config/config';
import { readSecret, type SecretValues } from '#shared/adapters/secrets';
import { blankToUndefined, type CredentialSpec, type PlatformSettings } from './contract';

/** A platform's credentials from the platforms secret's values and the platforms' configuration. */
export function credentialsOf<C>(spec: CredentialSpec<C>, values: SecretValues, settings: PlatformSettings): C {
  const own = Object.fromEntries(
    spec.names.map((n) => [n, blankToUndefined(Object.hasOwn(values, n) ? values[n] : undefined)]),
  );
  return spec.read(own, settings[spec.apiBase.env] ?? spec.apiBase.default, settings);
}

/** A platform's operator credentials (one set per deployment), read through the secrets port. */
export const readOwnCredentials = async <C>(spec: CredentialSpec<C>): Promise<C> =>
  credentialsOf(spec, await readSecret('platforms', spec.names), config().platforms);
