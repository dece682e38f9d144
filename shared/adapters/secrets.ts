/**
 * The operator's platform credentials (contract 10): one set per deployment. Locally they come from
 * environment variables; in AWS from one Secrets Manager secret (a JSON object with the same names),
 * read at run time through the AWS Parameters and Secrets Lambda Extension and cached, so the values
 * never sit in the function's plaintext environment. Base URLs are configuration, not secrets.
 */
import { optionalEnv } from '#shared/config/env';

export interface TelegramCredentials {
  /** Undefined: Telegram actions are recorded as not_configured. */
  botToken: string | undefined;
  webhookSecret: string | undefined;
  apiBase: string;
}

export interface DiscordCredentials {
  applicationId: string | undefined;
  publicKey: string | undefined;
  botToken: string | undefined;
  apiBase: string;
}

/** The operator's Crisp plugin: its production token (identifier and key) and the secret its hooks are signed with. */
export interface CrispCredentials {
  pluginId: string | undefined;
  tokenIdentifier: string | undefined;
  tokenKey: string | undefined;
  hookSecret: string | undefined;
  apiBase: string;
}

export interface PlatformCredentials {
  telegram: TelegramCredentials;
  discord: DiscordCredentials;
  crisp: CrispCredentials;
}

export interface SecretsPort {
  platformCredentials(): Promise<PlatformCredentials>;
}

export const TELEGRAM_DEFAULT_BASE = 'https://api.telegram.org';
export const DISCORD_DEFAULT_BASE = 'https://discord.com/api/v10';
export const CRISP_DEFAULT_BASE = 'https://api.crisp.chat/v1';

/** The credential names of contract 10, as environment variables or as keys of the secret's JSON. */
export const PLATFORM_SECRET_NAMES = ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET', 'DISCORD_APPLICATION_ID', 'DISCORD_PUBLIC_KEY', 'DISCORD_BOT_TOKEN', 'CRISP_PLUGIN_ID', 'CRISP_TOKEN_IDENTIFIER', 'CRISP_TOKEN_KEY', 'CRISP_HOOK_SECRET'] as const;
type SecretValues = Partial<Record<(typeof PLATFORM_SECRET_NAMES)[number], string>>;

const blankToUndefined = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

export function credentialsFrom(values: SecretValues): PlatformCredentials {
  return {
    telegram: { botToken: blankToUndefined(values.TELEGRAM_BOT_TOKEN), webhookSecret: blankToUndefined(values.TELEGRAM_WEBHOOK_SECRET), apiBase: optionalEnv('TELEGRAM_API_BASE') ?? TELEGRAM_DEFAULT_BASE },
    discord: {
      applicationId: blankToUndefined(values.DISCORD_APPLICATION_ID),
      publicKey: blankToUndefined(values.DISCORD_PUBLIC_KEY),
      botToken: blankToUndefined(values.DISCORD_BOT_TOKEN),
      apiBase: optionalEnv('DISCORD_API_BASE') ?? DISCORD_DEFAULT_BASE,
    },
    crisp: {
      pluginId: blankToUndefined(values.CRISP_PLUGIN_ID),
      tokenIdentifier: blankToUndefined(values.CRISP_TOKEN_IDENTIFIER),
      tokenKey: blankToUndefined(values.CRISP_TOKEN_KEY),
      hookSecret: blankToUndefined(values.CRISP_HOOK_SECRET),
      apiBase: optionalEnv('CRISP_API_BASE') ?? CRISP_DEFAULT_BASE,
    },
  };
}

/** Local: read on every call, so tests (and an operator restarting nothing) can change them. */
export class EnvSecrets implements SecretsPort {
  async platformCredentials(): Promise<PlatformCredentials> {
    return credentialsFrom(Object.fromEntries(PLATFORM_SECRET_NAMES.map((n) => [n, process.env[n]])));
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
    const response = await fetch(`http://localhost:${this.extensionPort}/secretsmanager/get?secretId=${encodeURIComponent(secretArn)}`, {
      headers: { 'X-Aws-Parameters-Secrets-Token': process.env.AWS_SESSION_TOKEN ?? '' },
    });
    if (!response.ok) throw new Error(`Reading the platform secret failed with HTTP ${response.status}`);
    const { SecretString } = (await response.json()) as { SecretString?: string };
    const parsed = SecretString ? (JSON.parse(SecretString) as Record<string, unknown>) : {};
    return Object.fromEntries(PLATFORM_SECRET_NAMES.map((n) => [n, typeof parsed[n] === 'string' ? (parsed[n] as string) : undefined]));
  }
}
