/**
 * The operator's Telegram bot: one webhook for every group the bot is in. The secret
 * header proves Telegram sent the update; commands go to commands.ts, joins and the captcha's
 * button to captcha.ts; in a bound group every update runs through the engine and each
 * decision becomes the Bot API calls of calls.ts, planned once per event (a re-delivered
 * update plans nothing new) and sent through the queue.
 */
import type { Message, Update } from '@grammyjs/types';
import { getCommunity, type CommunityRecord } from '#shared/store/communitiesRepo';
import { boundCommunity } from '#shared/store/bindingsRepo';
import { getPlatformRecord } from '#shared/store/platformRepo';
import type { CommunityRules } from '#shared/domain/moderation/communityRules';
import type { Decision } from '#shared/domain/moderation/engine';
import type { ModerationCore } from '#shared/platforms/contract';
import { TELEGRAM_DECISION_CALLS, telegramSend, type TelegramTarget } from '#shared/platforms/telegram/calls';
import { toChatEvents } from '#shared/platforms/telegram/updates';
import { captchaPressed, memberJoined } from './captcha';
import { runCommand } from './commands';

/** The update types the bot needs (setWebhook's allowed_updates). */
// Joins arrive as message.new_chat_members; chat_member updates are not needed (nor read).
export const TELEGRAM_ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/** Delivery ids, per event: one for the decision's own calls, one for its alert. */
const alertDeliveryId = (eventId: string) => `alert:${eventId}`;

/** An update of the operator bot's webhook, its secret already checked (verifyTelegramWebhookSecret, before the update was read). */
export async function handleTelegramOperatorUpdate(update: Update, core: ModerationCore): Promise<{ ok: true }> {
  if (update.callback_query) await captchaPressed(update.update_id, update.callback_query, core);
  const message = update.message;
  if (!message) return { ok: true };
  const command = /^\/(activate|alerts)(?:@\w+)?\s+(\S+)\s*$/.exec(message.text?.trim() ?? '');
  const binding = await boundCommunity('telegram', String(message.chat.id));
  const moderated = binding?.role === 'moderated';
  if (command && message.from) {
    // In a moderated group a command with a bad token is just a message: no reply a spammer could farm.
    const handled = await runCommand(
      core,
      update.update_id,
      message,
      message.from,
      command[1] as 'activate' | 'alerts',
      command[2],
      !moderated,
    );
    if (handled) return { ok: true };
  }
  if (!binding || !moderated) return { ok: true };
  const community = await getCommunity(binding.userId, binding.communityId);
  // A community that is no longer a Telegram one does not moderate here (a binding left from before its type changed).
  if (community?.type !== 'telegram') return { ok: true };
  await moderateMessage(core, community, update, message);
  return { ok: true };
}

/** Each engine event's place on Telegram: the group, the message and the member it concerns. */
function targetsOf(update: Update, message: Message): Map<string, TelegramTarget> {
  const targets = new Map<string, TelegramTarget>();
  const at = message.date;
  for (const member of message.new_chat_members ?? [])
    targets.set(`tg-${update.update_id}-join-${member.id}`, { chatId: message.chat.id, userId: member.id, at });
  if (message.from)
    targets.set(`tg-${update.update_id}`, {
      chatId: message.chat.id,
      messageId: message.message_id,
      userId: message.from.id,
      at,
    });
  return targets;
}

async function moderateMessage(
  core: ModerationCore,
  community: CommunityRecord,
  update: Update,
  message: Message,
): Promise<void> {
  const events = toChatEvents(update as Parameters<typeof toChatEvents>[0]);
  if (!events.length) return;
  const { decisions } = await core.moderateEvents(community, events);
  const [rules, platform] = await Promise.all([core.rulesOf(community.id), getPlatformRecord(community.id)]);
  const targets = targetsOf(update, message);
  const monitored = core.communityStatus(community) === 'connected';
  const joined = new Map((message.new_chat_members ?? []).map((m) => [`tg-${update.update_id}-join-${m.id}`, m]));
  await Promise.all(
    decisions.map(async (decision) => {
      const target = targets.get(decision.event_id);
      if (!target) return;
      const member = joined.get(decision.event_id);
      if (member) return monitored ? memberJoined(core, community, rules, decision, target, member) : undefined;
      return decided(core, community, rules, decision, target, platform.telegramAlertChatId);
    }),
  );
}

const warningText = (decision: Decision) => `⚠️ ${decision.reason}. Please keep to the group's rules.`;

async function decided(
  core: ModerationCore,
  community: CommunityRecord,
  rules: CommunityRules,
  decision: Decision,
  target: TelegramTarget,
  alertChatId: string | undefined,
): Promise<void> {
  if (decision.action === 'allow') return;
  // The owner named: calls still waiting (a rate limit) are not sent once the community stops being monitored.
  await core.scheduleDecision(rules, {
    communityId: community.id,
    userId: community.userId,
    deliveryId: core.decisionDeliveryId(decision.event_id),
    purpose: decision.action,
    eventId: decision.event_id,
    calls: TELEGRAM_DECISION_CALLS[decision.action](target, { warning: warningText(decision) }),
  });
  if (alertChatId && decision.alert) {
    await core.scheduleDecision(rules, {
      communityId: community.id,
      userId: community.userId,
      deliveryId: alertDeliveryId(decision.event_id),
      purpose: 'alert',
      eventId: decision.event_id,
      calls: [telegramSend(Number(alertChatId), decision.alert)],
    });
  }
}
