/**
 * The operator's platform credentials: one set per deployment. Locally they come from
 * environment variables; in AWS from one Secrets Manager secret (a JSON object with the same names),
 * read at run time through the AWS Parameters and Secrets Lambda Extension and cached, so the values
 * never sit in the function's plaintext environment. Base URLs are configuration, not secrets.
 *
 * Which names exist is each platform module's to say (registry.ts): a new platform's names are read
 * here, from the environment and from the secret, without a list to edit.
 */
import { optionalEnv } from '#shared/config/env';
import { COMMUNITY_TYPES } from '#shared/domain/moderation/communityTypes';
import { PLATFORMS, type PlatformCredentials } from '#shared/domain/moderation/platforms/registry';
import { blankToUndefined } from '#shared/domain/moderation/platforms/platform';

export type { PlatformCredentials };
export type { TelegramCredentials } from '#shared/domain/moderation/platforms/telegram';
export type { DiscordCredentials } from '#shared/domain/moderation/platforms/discord';
export { TELEGRAM_DEFAULT_BASE } from '#shared/domain/moderation/platforms/telegram';
export { DISCORD_DEFAULT_BASE } from '#shared/domain/moderation/platforms/discord';

export interface SecretsPort {
  platformCredentials(): Promise<PlatformCredentials>;
}

/** Every credential name of every platform, as environment variables or as keys of the secret's JSON (read when asked: the registry and this module import each other). */
export const platformSecretNames = (): string[] =>
  COMMUNITY_TYPES.flatMap((type) => [...PLATFORMS[type].credentials.names]);
type SecretValues = Readonly<Record<string, string | undefined>>;

export function credentialsFrom(values: SecretValues): PlatformCredentials {
  const read = (type: (typeof COMMUNITY_TYPES)[number]) => {
    const spec = PLATFORMS[type].credentials as {
      names: readonly string[];
      apiBase: { env: string; default: string };
      read(v: SecretValues, base: string): unknown;
    };
    const own = Object.fromEntries(
      spec.names.map((n) => [n, blankToUndefined(Object.hasOwn(values, n) ? values[n] : undefined)]),
    );
    return [type, spec.read(own, optionalEnv(spec.apiBase.env) ?? spec.apiBase.default)];
  };
  return Object.fromEntries(COMMUNITY_TYPES.map(read)) as PlatformCredentials;
}

/** Local: read on every call, so tests (and an operator restarting nothing) can change them. */
export class EnvSecrets implements SecretsPort {
  async platformCredentials(): Promise<PlatformCredentials> {
    return credentialsFrom(Object.fromEntries(platformSecretNames().map((n) => [n, process.env[n]])));
  }
}

/** How long a read secret is trusted before it is read again (a rotated token takes at most this long). */
const CACHE_MS = 5 * 60 * 1000;

/**
 * AWS: the Parameters and Secrets extension (a layer the stack adds) serves the secret on
 * localhost:2773, authenticated with the function's session token; it caches too, so this cache
 * only saves the local hop. An unset secret ARN means no platform is configured.
 */
export class SecretsManagerSecrets implements SecretsPort {
  private cached: { at: number; value: PlatformCredentials } | undefined;
  constructor(
    private readonly secretArn: string | undefined,
    private readonly extensionPort = Number(optionalEnv('PARAMETERS_SECRETS_EXTENSION_HTTP_PORT') ?? 2773),
  ) {}

  async platformCredentials(): Promise<PlatformCredentials> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.value;
    const value = credentialsFrom(this.secretArn ? await this.read(this.secretArn) : {});
    this.cached = { at: Date.now(), value };
    return value;
  }

  private async read(secretArn: string): Promise<SecretValues> {
    const response = await fetch(
      `http://localhost:${this.extensionPort}/secretsmanager/get?secretId=${encodeURIComponent(secretArn)}`,
      {
        headers: { 'X-Aws-Parameters-Secrets-Token': process.env.AWS_SESSION_TOKEN ?? '' },
      },
    );
    if (!response.ok) throw new Error(`Reading the platform secret failed with HTTP ${response.status}`);
    const { SecretString } = (await response.json()) as { SecretString?: string };
    const parsed = SecretString ? (JSON.parse(SecretString) as Record<string, unknown>) : {};
    return Object.fromEntries(
      platformSecretNames().map((n) => [
        n,
        Object.hasOwn(parsed, n) && typeof parsed[n] === 'string' ? (parsed[n] as string) : undefined,
      ]),
    );
  }
}
