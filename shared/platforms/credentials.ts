/**
 * The operator's platform credentials, read through the secrets port: which names exist is each
 * platform module's to say (registry.ts), so a new platform's names are read from the environment
 * and from the secret without a list to edit. Only the functions that moderate import this module
 * (it brings every platform's code).
 */
import { config } from '#shared/config/config';
import { COMMUNITY_TYPES, type CommunityType } from './names';
import { PLATFORMS, type PlatformCredentials } from './registry';
import type { CredentialSpec, PlatformSettings } from './contract';
import { credentialsOf } from './ownCredentials';
import { readSecret, type SecretValues } from '#shared/adapters/secrets';

export type { PlatformCredentials };
export type { TelegramCredentials } from '#shared/platforms/telegram/platform';
export type { DiscordCredentials } from '#shared/platforms/discord/credentials';
export { TELEGRAM_DEFAULT_BASE } from '#shared/platforms/telegram/platform';
export { DISCORD_DEFAULT_BASE } from '#shared/platforms/discord/credentials';

/** Every credential name of every platform. */
export const platformSecretNames = (): string[] =>
  COMMUNITY_TYPES.flatMap((type) => [...PLATFORMS[type].credentials.names]);

/** The platform credentials from their secret's values and the platforms' configuration. */
export function credentialsFrom(values: SecretValues, settings: PlatformSettings): PlatformCredentials {
  const read = (type: CommunityType) => [
    type,
    credentialsOf(PLATFORMS[type].credentials as CredentialSpec<unknown>, values, settings),
  ];
  return Object.fromEntries(COMMUNITY_TYPES.map(read)) as PlatformCredentials;
}

/** The operator's platform credentials (one set per deployment). */
export const platformCredentials = async (): Promise<PlatformCredentials> =>
  credentialsFrom(await readSecret('platforms', platformSecretNames()), config().platforms);
