/**
 * The platform port: one planned call in, its outcome out, through the real HTTP adapter of its
 * platform with the operator's credentials. `not_configured` when the platform has no credentials:
 * the caller records that instead of failing.
 */
import { ports } from '#shared/adapters/ports';
import type { PlannedCall } from '#shared/store/deliveriesRepo';
import { DiscordRest } from './discordRest';
import type { CallOutcome } from './result';
import { TelegramBotApi } from './telegramBotApi';
import { recordMetric } from '#shared/observability/metrics';

export type PortOutcome = CallOutcome | 'not_configured';

/** `communityId`: the delivery's community (Crisp records a mute's end against it). */
export async function callPlatform(call: PlannedCall, communityId = 'unbound'): Promise<PortOutcome> {
  const outcome = call.platform === 'crisp' ? await (await import('#shared/domain/moderation/crisp/crispPlatform')).sendCrispCall(call, communityId) : await send(call);
  if (outcome !== 'not_configured' && !outcome.ok) recordMetric('PlatformCallFailures', 1, { platform: call.platform });
  return outcome;
}

async function send(call: PlannedCall): Promise<PortOutcome> {
  const credentials = await ports().secrets.platformCredentials();
  if (call.platform === 'telegram') {
    const { botToken, apiBase } = credentials.telegram;
    if (!botToken) return 'not_configured';
    return new TelegramBotApi(botToken, apiBase).call(call.method, call.body ?? {});
  }
  const { botToken, apiBase } = credentials.discord;
  if (!botToken) return 'not_configured';
  return new DiscordRest(botToken, apiBase).request(call.method as 'GET', call.route ?? '/', call.body);
}

export async function platformConfigured(platform: 'telegram' | 'discord'): Promise<boolean> {
  const credentials = await ports().secrets.platformCredentials();
  return platform === 'telegram' ? credentials.telegram.botToken !== undefined : credentials.discord.botToken !== undefined;
}
