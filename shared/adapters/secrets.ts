/**
 * The secrets port: every secret the service reads at run time goes through it (the operator's
 * platform credentials, the Stripe keys), with one cache. In AWS each is one Secrets Manager secret,
 * a JSON object whose keys are the names below; the function's configuration holds only the secret's
 * ARN or name (PLATFORM_SECRET_ARN, STRIPE_SECRET_NAME), never a value. Locally the same names are
 * environment variables, read at every call so a test or an operator can change them.
 *
 * The reader names the fields it wants, so this module knows no platform: the platforms' names and
 * credentials are shared/platforms/credentials.ts's, and a function that reads only Stripe's keys does not
 * bundle every platform's moderation code.
 */
import { config, environmentSecrets } from '#shared/config/config';
import { FUNCTION_WIRING, type FunctionName, wiringOf } from './functionWiring';
import { ports, runningFunction } from './ports';
import type { SecretName, SecretsPort, SecretValues } from './secretsPort';

export type { SecretName, SecretsPort, SecretValues };

/** The fields of the Stripe secret; locally, variables of the same names. */
export const STRIPE_SECRET_FIELDS = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;
export type StripeSecretField = (typeof STRIPE_SECRET_FIELDS)[number];

/** The values of `fields` in a secret's parsed JSON: strings only, by own key (the JSON is not trusted to be a plain map). */
export function pickFields(secret: unknown, fields: readonly string[]): SecretValues {
  const object = typeof secret === 'object' && secret !== null ? (secret as Record<string, unknown>) : {};
  return Object.fromEntries(
    fields.map((name) => {
      const value = Object.hasOwn(object, name) ? object[name] : undefined;
      return [name, typeof value === 'string' && value !== '' ? value : undefined];
    }),
  );
}

/** Local: the environment, read at every call and never cached. */
export class EnvSecrets implements SecretsPort {
  async read(_secret: SecretName, fields: readonly string[]): Promise<SecretValues> {
    return environmentSecrets(fields);
  }
}

/** How long a read secret is reused before Secrets Manager is asked again (a rotation takes effect within this). */
const SECRET_MAX_AGE_SECONDS = 300;

/**
 * AWS: Powertools Parameters over the Secrets Manager client, whose own cache (maxAge) is the one
 * cache of every secret. The provider and the SDK client are loaded on the first read, so a function
 * that never reads a secret in an invocation does not load them, and none of it runs at cold start.
 */
export class SecretsManagerSecrets implements SecretsPort {
  private provider?: Promise<(id: string) => Promise<unknown>>;
  constructor(private readonly ids: Readonly<Record<SecretName, string | undefined>>) {}

  async read(secret: SecretName, fields: readonly string[]): Promise<SecretValues> {
    const id = this.ids[secret];
    if (!id) return pickFields({}, fields);
    this.provider ??= this.load();
    const get = await this.provider;
    return pickFields(await get(id), fields);
  }

  private async load(): Promise<(id: string) => Promise<unknown>> {
    const [{ SecretsProvider }, { SecretsManagerClient }] = await Promise.all([
      import('@aws-lambda-powertools/parameters/secrets'),
      import('@aws-sdk/client-secrets-manager'),
    ]);
    const provider = new SecretsProvider({ awsSdkV3Client: new SecretsManagerClient({}) });
    return (id) => provider.get(id, { transform: 'json', maxAge: SECRET_MAX_AGE_SECONDS });
  }
}

/** The AWS implementation, from the configuration's secret ids. */
export const awsSecrets = (): SecretsPort =>
  new SecretsManagerSecrets({
    platforms: config().platformSecretArn,
    stripe: config().stripeSecretName,
    providers: config().providerSecretArn,
  });

/**
 * Reads one secret through the installed port. A function may read only the secrets its wiring lists
 * (shared/adapters/functionWiring.ts: the stack grants exactly those); the local runtime runs every
 * function in one process, so the refusal Lambda's IAM would give is given here too.
 */
export async function readSecret(secret: SecretName, fields: readonly string[]): Promise<SecretValues> {
  const running = runningFunction();
  if (running !== undefined && Object.hasOwn(FUNCTION_WIRING, running)) {
    if (!(wiringOf(running as FunctionName).secrets ?? []).includes(secret))
      throw new Error(
        `Secret ${secret} is not readable: function ${running} is not wired to it (shared/adapters/functionWiring.ts)`,
      );
  }
  return ports().secrets.read(secret, fields);
}

/** Whether Stripe is configured at all: by a secret's name in AWS, by the key itself locally. */
export const stripeConfigured = (): boolean =>
  config().stripeSecretName !== undefined || environmentSecrets(['STRIPE_SECRET_KEY']).STRIPE_SECRET_KEY !== undefined;

/** A Stripe secret, or undefined when it is not configured. */
export const stripeSecret = async (field: StripeSecretField): Promise<string | undefined> =>
  (await readSecret('stripe', STRIPE_SECRET_FIELDS))[field];

/** The same, for code that cannot go on without it (a misconfigured deployment is a 500, logged). */
export async function requireStripeSecret(field: StripeSecretField): Promise<string> {
  const value = await stripeSecret(field);
  if (!value)
    throw new Error(
      `${field} is not configured (set STRIPE_SECRET_NAME to a secret holding it, or the variable locally)`,
    );
  return value;
}
