/**
 * The operator's platform credentials, read through the secrets port: which names exist is each
 * platform module's to say (registry.ts), so a new platform's names are read from the environment
 * and from the secret without a list to edit. Only the functions that moderate import this module
 * (it brings every platform's code).
 */
import { config } from '#shared/config/config';
import { COMMUNITY_TYPES } from '#shared/domain/moderation/communityTypes';
import { PLATFORMS, type PlatformCredentials } from '#shared/domain/moderation/platforms/registry';
import { blankToUndefined, type PlatformSettings } from '#shared/domain/moderation/platforms/platform';
import { readSecret, type SecretValues } from './secrets';

export type { PlatformCredentials };
export type { TelegramCredentials } from '#shared/domain/moderation/platforms/telegram';
export type { DiscordCredentials } from '#shared/domain/moderation/platforms/discord';
export { TELEGRAM_DEFAULT_BASE } from '#shared/domain/moderation/platforms/telegram';
export { DISCORD_DEFAULT_BASE } from '#shared/domain/moderation/platforms/discord';

/** Every credential name of every platform (read when asked: the registry and the platform modules import each other). */
export const platformSecretNames = (): string[] =>
  COMMUNITY_TYPES.flatMap((type) => [...PLATFORMS[type].credentials.names]);

/** The platform credentials from their secret's values and the platforms' configuration. */
export function credentialsFrom(values: SecretValues, settings: PlatformSettings): PlatformCredentials {
  const read = (type: (typeof COMMUNITY_TYPES)[number]) => {
    const spec = PLATFORMS[type].credentials as {
      names: readonly string[];
      apiBase: { env: keyof PlatformSettings; default: string };
      read(v: SecretValues, base: string, settings: PlatformSettings): unknown;
    };
    const own = Object.fromEntries(
      spec.names.map((n) => [n, blankToUndefined(Object.hasOwn(values, n) ? values[n] : undefined)]),
    );
    return [type, spec.read(own, settings[spec.apiBase.env] ?? spec.apiBase.default, settings)];
  };
  return Object.fromEntries(COMMUNITY_TYPES.map(read)) as PlatformCredentials;
}

/** The operator's platform credentials (one set per deployment). */
export const platformCredentials = async (): Promise<PlatformCredentials> =>
  credentialsFrom(await readSecret('platforms', platformSecretNames()), config().platforms);
