/** The operator's Discord application: its bot token, its public key (interactions' signatures) and its id. */
import { blankToUndefined, type CredentialSpec } from '#shared/platforms/contract';

export interface DiscordCredentials {
  applicationId: string | undefined;
  publicKey: string | undefined;
  botToken: string | undefined;
  apiBase: string;
}

export const DISCORD_DEFAULT_BASE = 'https://discord.com/api/v10';

export const DISCORD_CREDENTIALS: CredentialSpec<DiscordCredentials> = {
  names: ['DISCORD_APPLICATION_ID', 'DISCORD_PUBLIC_KEY', 'DISCORD_BOT_TOKEN'],
  apiBase: { env: 'DISCORD_API_BASE', default: DISCORD_DEFAULT_BASE },
  read: (values, apiBase) => ({
    applicationId: blankToUndefined(values.DISCORD_APPLICATION_ID),
    publicKey: blankToUndefined(values.DISCORD_PUBLIC_KEY),
    botToken: blankToUndefined(values.DISCORD_BOT_TOKEN),
    apiBase,
  }),
  configured: (c) => c.botToken !== undefined,
};
