import { optionalEnv } from './env';

/** The fields of the Stripe secret (a JSON object in Secrets Manager; plain variables locally). */
export type StripeSecretField = 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET';

/** How long a read secret is reused before Secrets Manager is asked again (a rotation takes effect within this). */
const SECRET_MAX_AGE_SECONDS = 300;

type SecretReader = (name: string) => Promise<unknown>;
let reader: SecretReader | undefined;

/** Powertools Parameters, loaded only by the functions that read a secret. */
async function secretsManagerReader(): Promise<SecretReader> {
  if (!reader) {
    const [{ SecretsProvider }, { SecretsManagerClient }] = await Promise.all([
      import('@aws-lambda-powertools/parameters/secrets'),
      import('@aws-sdk/client-secrets-manager'),
    ]);
    const provider = new SecretsProvider({ awsSdkV3Client: new SecretsManagerClient({}) });
    reader = (name) => provider.get(name, { transform: 'json', maxAge: SECRET_MAX_AGE_SECONDS });
  }
  return reader;
}

/** Whether Stripe is configured at all: by a secret's name in AWS, by the key itself locally. */
export const stripeConfigured = (): boolean =>
  Boolean(optionalEnv('STRIPE_SECRET_NAME') || optionalEnv('STRIPE_SECRET_KEY'));

/**
 * A Stripe secret. In AWS the function's configuration holds only the secret's name
 * (STRIPE_SECRET_NAME); the value is read at run time and cached. Locally and in tests it is the
 * environment variable of the same name.
 */
export async function stripeSecret(field: StripeSecretField): Promise<string | undefined> {
  const name = optionalEnv('STRIPE_SECRET_NAME');
  if (!name) return optionalEnv(field);
  const secret = await (await secretsManagerReader())(name);
  const value =
    typeof secret === 'object' && secret !== null && Object.hasOwn(secret, field)
      ? (secret as Record<string, unknown>)[field]
      : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The same, for code that cannot go on without it (a misconfigured deployment is a 500, logged). */
export async function requireStripeSecret(field: StripeSecretField): Promise<string> {
  const value = await stripeSecret(field);
  if (!value)
    throw new Error(
      `${field} is not configured (set STRIPE_SECRET_NAME to a secret holding it, or the variable locally)`,
    );
  return value;
}
