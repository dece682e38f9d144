/**
 * Operator set-up of the platforms, with the credentials of the operator's shell
 * (TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET, DISCORD_APPLICATION_ID, DISCORD_BOT_TOKEN and the
 * optional *_API_BASE), through the same adapters the service uses.
 */
import type { RESTPutAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { EnvSecrets } from '#shared/adapters/secrets';
import { credentialsFrom, platformSecretNames } from '#shared/platforms/credentials';
import { config } from '#shared/config/config';
import { TelegramBotApi } from '#shared/platforms/telegram/botApi';
import { DiscordRest } from '#shared/platforms/discord/rest';
import { TELEGRAM_ALLOWED_UPDATES } from '#shared/platforms/telegram/bot';
import { DISCORD_COMMANDS } from '#shared/platforms/discord/commands';
import { parseOptions, UsageError } from './options';

export const TELEGRAM_WEBHOOK_PATH = '/integrations/moderation/telegram';

/** `telegram-webhook --url <ApiBaseUrl>`: setWebhook with the secret and the update types the bot reads, and the bot's command list. */
export function telegramWebhookCommand(args: string[]): () => Promise<void> {
  const { url } = parseOptions('telegram-webhook', args);
  return async () => {
    const { telegram } = credentialsFrom(
      await new EnvSecrets().read('platforms', platformSecretNames()),
      config().platforms,
    );
    if (!telegram.botToken || !telegram.webhookSecret)
      throw new UsageError('Set TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET first.');
    const api = new TelegramBotApi(telegram.botToken, telegram.apiBase);
    const webhook = `${url.replace(/\/$/, '')}${TELEGRAM_WEBHOOK_PATH}`;
    const set = await api.call('setWebhook', {
      url: webhook,
      secret_token: telegram.webhookSecret,
      allowed_updates: [...TELEGRAM_ALLOWED_UPDATES],
    });
    if (!set.ok) throw new Error(`setWebhook failed: ${set.error}`);
    const commands = await api.call('setMyCommands', {
      commands: [
        { command: 'activate', description: 'Turn moderation on in this group: /activate <activation_token>' },
        { command: 'alerts', description: 'Post moderation alerts in this chat: /alerts <activation_token>' },
      ],
    });
    if (!commands.ok) throw new Error(`setMyCommands failed: ${commands.error}`);
    console.log(`Telegram webhook set to ${webhook}`);
  };
}

/** `discord-commands`: registers /activate and /alerts as global commands of the application (bulk overwrite). */
export function discordCommandsCommand(args: string[]): () => Promise<void> {
  parseOptions('discord-commands', args);
  return async () => {
    const { discord } = credentialsFrom(
      await new EnvSecrets().read('platforms', platformSecretNames()),
      config().platforms,
    );
    if (!discord.applicationId || !discord.botToken)
      throw new UsageError('Set DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN first.');
    const body: RESTPutAPIApplicationCommandsJSONBody = DISCORD_COMMANDS;
    const out = await new DiscordRest(discord.botToken, discord.apiBase).request(
      'PUT',
      `/applications/${discord.applicationId}/commands`,
      body,
    );
    if (!out.ok) throw new Error(`Registering the commands failed: ${out.error}`);
    console.log(
      `Registered ${(out.result as unknown[]).length} Discord commands for application ${discord.applicationId}`,
    );
  };
}
