/**
 * The service's configuration: the one module in shared/ and functions/ that reads process.env
 * (test/layout/configReads.test.ts fails on any other). Every setting is one row of SETTINGS; the
 * configuration is parsed from the environment once, on first use, and kept. A Lambda entry point
 * checks at cold start the settings its wiring needs (shared/adapters/aws.ts), so a deployment missing
 * one fails at start naming the variable, not in the middle of a request.
 *
 * The local runtime and the tests set the environment in-process (a stand-in's address, a test's own
 * base URL) and then call reloadConfig(); nothing in a deployed function changes its environment.
 */

/** The Stripe prices, by the variable holding each (shared/domain/billing/plans.ts names one per plan and add-on). */
export type StripePriceSetting = 'STRIPE_PRICE_PRO' | 'STRIPE_PRICE_CREDITS_10K' | 'STRIPE_PRICE_CREDITS_50K';

/**
 * The moderation platforms' configuration (not secrets: API bases a test points at a stand-in, X's
 * authorize page, Discord's public application id). A platform module names its API base variable
 * from this list, so a new platform's variable does not compile until it is added here.
 */
export type PlatformSetting =
  | 'TELEGRAM_API_BASE'
  | 'DISCORD_API_BASE'
  | 'DISCORD_APPLICATION_ID'
  | 'X_API_BASE'
  | 'X_AUTHORIZE_URL'
  | 'REDDIT_API_BASE'
  | 'REDDIT_AUTH_BASE'
  | 'CRISP_API_BASE';

/** The enrichment providers' API bases (not secrets): a provider module names its variable from this list. */
export type ProviderSetting = 'HUNTER_API_BASE' | 'ZEROBOUNCE_API_BASE';

type Environment = Readonly<Record<string, string | undefined>>;

/** A blank variable is an unset one (CDK and shells both produce empty strings). */
const text = (env: Environment, name: string): string | undefined => {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
};

/** A count or duration: a value that is not a finite number >= 0 is refused by name, not read as NaN. */
const nonNegative = (env: Environment, name: string, fallback: number): number => {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0, got "${raw}"`);
  return value;
};

const STRIPE_PRICE_SETTINGS: readonly StripePriceSetting[] = [
  'STRIPE_PRICE_PRO',
  'STRIPE_PRICE_CREDITS_10K',
  'STRIPE_PRICE_CREDITS_50K',
];
/** Every platform setting is read: a `PlatformSetting` without its row here does not compile. */
const PLATFORM_SETTING_ROWS: Readonly<Record<PlatformSetting, true>> = {
  TELEGRAM_API_BASE: true,
  DISCORD_API_BASE: true,
  DISCORD_APPLICATION_ID: true,
  X_API_BASE: true,
  X_AUTHORIZE_URL: true,
  REDDIT_API_BASE: true,
  REDDIT_AUTH_BASE: true,
  CRISP_API_BASE: true,
};
const PLATFORM_SETTINGS = Object.keys(PLATFORM_SETTING_ROWS) as PlatformSetting[];

const PROVIDER_SETTINGS: readonly ProviderSetting[] = ['HUNTER_API_BASE', 'ZEROBOUNCE_API_BASE'];

/** A comma-separated list, trimmed, lower-cased, blanks dropped. */
const list = (env: Environment, name: string, fallback: readonly string[]): string[] => {
  const raw = text(env, name);
  if (raw === undefined) return [...fallback];
  return raw
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');
};

/** Settings a function may require, by the variable that holds each. */
export const REQUIRED_SETTINGS = {
  TABLE_NAME: 'tableName',
  PIPELINE_QUEUE_URL: 'pipelineQueueUrl',
  WEBHOOK_QUEUE_URL: 'webhookQueueUrl',
  EVENT_BUS_NAME: 'eventBusName',
  TOKEN_KEY_ARN: 'tokenKeyArn',
  PUBLIC_BASE_URL: 'publicBaseUrl',
} as const satisfies Record<string, keyof Config>;
export type RequiredSetting = keyof typeof REQUIRED_SETTINGS;

export interface Config {
  /** The table (TABLE_NAME); DYNAMODB_ENDPOINT set means DynamoDB Local, in AWS_REGION. */
  tableName: string | undefined;
  dynamoEndpoint: string | undefined;
  region: string;
  pipelineQueueUrl: string | undefined;
  webhookQueueUrl: string | undefined;
  eventBusName: string | undefined;
  /** The KMS key sealing X communities' OAuth tokens and webhook endpoints' signing secrets. */
  tokenKeyArn: string | undefined;
  /** The Secrets Manager secrets read at run time (shared/adapters/secrets.ts); unset: not configured. */
  platformSecretArn: string | undefined;
  /** The enrichment providers' keys (HUNTER_API_KEY, ...), one secret. */
  providerSecretArn: string | undefined;
  stripeSecretName: string | undefined;
  stripePrices: Readonly<Record<StripePriceSetting, string | undefined>>;
  checkoutSuccessUrl: string | undefined;
  checkoutCancelUrl: string | undefined;
  /** The service's own public base URL for the links it hands out (a custom domain, or the local server). */
  publicBaseUrl: string | undefined;
  /** Deployed unless the local runtime says otherwise: a forgotten setting fails closed. */
  webhookAddressPolicy: 'local' | 'deployed';
  /** The level of the one access line per request: INFO deployed, debug on `npm start` (ACCESS_LOG_LEVEL). */
  accessLogLevel: 'info' | 'debug';
  jobWatchdog: { staleAfterMs: number; maxRedrives: number };
  jobEvents: { pollMs: number; keepAliveMs: number };
  /** Seconds between two platform polls POST /sync may make for one community (0: no spacing). */
  moderationSyncIntervalSeconds: number;
  platforms: Readonly<Record<PlatformSetting, string | undefined>>;
  /**
   * The known-phishing-domain list: where the scheduled refresh downloads it (PHISHING_LIST_URL, an
   * eth-phishing-detect config.json) and how long a container keeps what it read of it from the table
   * before looking for a newer one (PHISHING_LIST_CACHE_SECONDS).
   */
  phishingList: { url: string; cacheSeconds: number };
  /**
   * Outside data providers of the enrichment pipeline: the order they are tried in
   * (ENRICHMENT_PROVIDERS, default `hunter`) and their API bases.
   */
  enrichment: { providers: readonly string[]; apiBases: Readonly<Record<ProviderSetting, string | undefined>> };
  /** Running in Lambda (metrics are flushed as EMF there and not locally). */
  inLambda: boolean;
  /** POWERTOOLS_METRICS_DISABLED=true: no EMF line is written (the variable Powertools Metrics honours, kept). */
  metricsDisabled: boolean;
}

export const DEFAULT_STALE_AFTER_SECONDS = 600;
/** MetaMask's list as its repository publishes it, the source of the eth-phishing-detect package. */
export const DEFAULT_PHISHING_LIST_URL =
  'https://raw.githubusercontent.com/MetaMask/eth-phishing-detect/main/src/config.json';
export const DEFAULT_PHISHING_LIST_CACHE_SECONDS = 300;
export const DEFAULT_MAX_REDRIVES = 3;

/** Parses a whole environment; exported so a test can parse one of its own without touching process.env. */
export function parseConfig(env: Environment): Config {
  return {
    tableName: text(env, 'TABLE_NAME'),
    dynamoEndpoint: text(env, 'DYNAMODB_ENDPOINT'),
    region: text(env, 'AWS_REGION') ?? 'us-east-1',
    pipelineQueueUrl: text(env, 'PIPELINE_QUEUE_URL'),
    webhookQueueUrl: text(env, 'WEBHOOK_QUEUE_URL'),
    eventBusName: text(env, 'EVENT_BUS_NAME'),
    tokenKeyArn: text(env, 'TOKEN_KEY_ARN'),
    platformSecretArn: text(env, 'PLATFORM_SECRET_ARN'),
    providerSecretArn: text(env, 'PROVIDER_SECRET_ARN'),
    stripeSecretName: text(env, 'STRIPE_SECRET_NAME'),
    stripePrices: Object.fromEntries(STRIPE_PRICE_SETTINGS.map((n) => [n, text(env, n)])) as Config['stripePrices'],
    checkoutSuccessUrl: text(env, 'CHECKOUT_SUCCESS_URL'),
    checkoutCancelUrl: text(env, 'CHECKOUT_CANCEL_URL'),
    publicBaseUrl: text(env, 'PUBLIC_BASE_URL'),
    webhookAddressPolicy: text(env, 'WEBHOOK_ADDRESS_POLICY') === 'local' ? 'local' : 'deployed',
    accessLogLevel: text(env, 'ACCESS_LOG_LEVEL')?.toLowerCase() === 'debug' ? 'debug' : 'info',
    jobWatchdog: {
      staleAfterMs: nonNegative(env, 'JOB_WATCHDOG_STALE_AFTER_SECONDS', DEFAULT_STALE_AFTER_SECONDS) * 1000,
      maxRedrives: nonNegative(env, 'JOB_WATCHDOG_MAX_REDRIVES', DEFAULT_MAX_REDRIVES),
    },
    jobEvents: {
      pollMs: nonNegative(env, 'JOB_EVENTS_POLL_MS', 2000),
      keepAliveMs: nonNegative(env, 'JOB_EVENTS_KEEPALIVE_MS', 15_000),
    },
    moderationSyncIntervalSeconds: nonNegative(env, 'MODERATION_SYNC_INTERVAL_SECONDS', 10),
    platforms: Object.fromEntries(PLATFORM_SETTINGS.map((n) => [n, text(env, n)])) as Config['platforms'],
    phishingList: {
      url: text(env, 'PHISHING_LIST_URL') ?? DEFAULT_PHISHING_LIST_URL,
      cacheSeconds: nonNegative(env, 'PHISHING_LIST_CACHE_SECONDS', DEFAULT_PHISHING_LIST_CACHE_SECONDS),
    },
    enrichment: {
      // `none` lists no provider (a blank variable is an unset one, which means the default).
      providers: list(env, 'ENRICHMENT_PROVIDERS', ['hunter']).filter((name) => name !== 'none'),
      apiBases: Object.fromEntries(PROVIDER_SETTINGS.map((n) => [n, text(env, n)])) as Config['enrichment']['apiBases'],
    },
    inLambda: text(env, 'AWS_LAMBDA_FUNCTION_NAME') !== undefined,
    metricsDisabled: text(env, 'POWERTOOLS_METRICS_DISABLED') === 'true',
  };
}

let current: Config | undefined;

/** The configuration, parsed on first use and kept for the life of the process. */
export function config(): Config {
  current ??= parseConfig(process.env);
  return current;
}

/** For the local runtime and tests, which set variables in-process: the next config() parses the environment again. */
export function reloadConfig(): void {
  current = undefined;
}

/** The settings missing from a configuration, by variable name. */
export const missingSettings = (c: Config, names: readonly RequiredSetting[]): RequiredSetting[] =>
  names.filter((name) => c[REQUIRED_SETTINGS[name]] === undefined);

/** Fails naming every missing variable (a Lambda's cold start calls this with what its wiring needs). */
export function requireSettings(names: readonly RequiredSetting[], c: Config = config()): void {
  const missing = missingSettings(c, names);
  if (missing.length > 0)
    throw new Error(`Missing required environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
}

/** One required setting's value, or the same loud failure. */
export function requiredSetting(name: RequiredSetting): string {
  requireSettings([name]);
  return config()[REQUIRED_SETTINGS[name]] as string;
}

/**
 * Secret values from the environment, read at every call and never kept: the local stand-in for
 * Secrets Manager (shared/adapters/secrets.ts, EnvSecrets), so a test or an operator can change a
 * credential without restarting. Deployed functions never hold secrets in their environment.
 */
export const environmentSecrets = (names: readonly string[]): Record<string, string | undefined> =>
  Object.fromEntries(names.map((name) => [name, text(process.env, name)]));

/**
 * The logger's level, read as the logger is made (before any configuration is parsed, which may fail and
 * be logged): POWERTOOLS_LOG_LEVEL (the stack's, per environment), else LOG_LEVEL, as a person types it
 * in either case; Powertools itself takes only upper-case names.
 */
export const logLevelSetting = (): string =>
  (text(process.env, 'POWERTOOLS_LOG_LEVEL') ?? text(process.env, 'LOG_LEVEL') ?? 'INFO').toUpperCase();
