/**
 * The secrets port's shape, apart from its implementations (secrets.ts): the ports table names it,
 * and the implementations read the function wiring, which names the ports; a module of its own keeps
 * that from closing into a cycle.
 */

/** The secrets read at run time through the secrets port (shared/adapters/secrets.ts). */
export type SecretName = 'platforms' | 'stripe' | 'providers';

export type SecretValues = Readonly<Record<string, string | undefined>>;

export interface SecretsPort {
  /** One secret's `fields`, blank or absent ones undefined; a secret that is not configured has none. */
  read(secret: SecretName, fields: readonly string[]): Promise<SecretValues>;
}
