/**
 * The operator's Telegram bot: one webhook for every group the bot is in. The secret
 * header proves Telegram sent the update; `/activate <token>` from a group administrator binds the
 * group to a community, `/alerts <token>` names the alert chat; in a bound group every update runs
 * through the engine and each decision becomes the Bot API calls of platformActions.ts, planned once
 * per event (a re-delivered update plans nothing new) and sent through the queue.
 */
import type { CallbackQuery, ChatMember, Message, Update, User } from '@grammyjs/types';
import { now } from '#shared/adapters/ports';
import { callPlatform } from '#shared/adapters/platforms/platformPort';
import { getCommunity, type CommunityRecord } from '#shared/store/communitiesRepo';
import { markCommunityActivated } from './activation';
import { getCommunityRules } from '#shared/store/communityRulesRepo';
import { putPendingCaptcha, takePendingCaptcha, listExpiredCaptchas } from '#shared/store/captchaRepo';
import { getDelivery } from '#shared/store/platformCallsRepo';
import { boundCommunity, getPlatformRecord } from '#shared/store/platformRepo';
import { bindWithToken, communityOfToken, tokenMayDo } from './activationToken';
import { UNPAID_ACTIVATION } from './unpaidActivation';
import { observes, type CommunityRules } from './communityRules';
import { communityStatus } from './communityTypes';
import { decisionDeliveryId, scheduleDecision, scheduleDelivery } from './platformCallRunner';
import type { Decision } from './engine';
import { moderateEvents } from './moderation';
import {
  CAPTCHA_CALLBACK_PREFIX,
  TELEGRAM_DECISION_CALLS,
  telegramCaptchaCalls,
  telegramCaptchaPassCalls,
  telegramCaptchaReleaseCalls,
  telegramCaptchaTimeoutCalls,
  telegramSend,
  type TelegramTarget,
} from './platformActions';
import { toChatEvents } from './telegram';

/** The update types the bot needs (setWebhook's allowed_updates). */
// Joins arrive as message.new_chat_members; chat_member updates are not needed (nor read).
export const TELEGRAM_ALLOWED_UPDATES = ['message', 'callback_query'] as const;

const ADMIN_STATUSES: ChatMember['status'][] = ['creator', 'administrator'];

/** Delivery ids, per event: one for the decision's own calls, one for its alert. */
const alertDeliveryId = (eventId: string) => `alert:${eventId}`;

/** An update of the operator bot's webhook, its secret already checked (verifyTelegramWebhookSecret, before the update was read). */
export async function handleTelegramOperatorUpdate(update: Update): Promise<{ ok: true }> {
  if (update.callback_query) await captchaPressed(update.update_id, update.callback_query);
  const message = update.message;
  if (!message) return { ok: true };
  const command = /^\/(activate|alerts)(?:@\w+)?\s+(\S+)\s*$/.exec(message.text?.trim() ?? '');
  const binding = await boundCommunity('telegram', String(message.chat.id));
  const moderated = binding?.role === 'moderated';
  if (command && message.from) {
    // In a moderated group a command with a bad token is just a message: no reply a spammer could farm.
    const handled = await runCommand(
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
  await moderateMessage(community, update, message);
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

async function moderateMessage(community: CommunityRecord, update: Update, message: Message): Promise<void> {
  const events = toChatEvents(update as Parameters<typeof toChatEvents>[0]);
  if (!events.length) return;
  const { decisions } = await moderateEvents(community, events);
  const [rules, platform] = await Promise.all([getCommunityRules(community.id), getPlatformRecord(community.id)]);
  const targets = targetsOf(update, message);
  const monitored = communityStatus(community) === 'connected';
  const joined = new Map((message.new_chat_members ?? []).map((m) => [`tg-${update.update_id}-join-${m.id}`, m]));
  await Promise.all(
    decisions.map(async (decision) => {
      const target = targets.get(decision.event_id);
      if (!target) return;
      const member = joined.get(decision.event_id);
      if (member) return monitored ? memberJoined(community, rules, decision, target, member) : undefined;
      return decided(community, rules, decision, target, platform.telegramAlertChatId);
    }),
  );
}

const warningText = (decision: Decision) => `⚠️ ${decision.reason}. Please keep to the group's rules.`;

async function decided(
  community: CommunityRecord,
  rules: CommunityRules,
  decision: Decision,
  target: TelegramTarget,
  alertChatId: string | undefined,
): Promise<void> {
  if (decision.action === 'allow') return;
  // The owner named: calls still waiting (a rate limit) are not sent once the community stops being monitored.
  await scheduleDecision(rules, {
    communityId: community.id,
    userId: community.userId,
    deliveryId: decisionDeliveryId(decision.event_id),
    purpose: decision.action,
    eventId: decision.event_id,
    calls: TELEGRAM_DECISION_CALLS[decision.action](target, { warning: warningText(decision) }),
  });
  if (alertChatId && decision.alert) {
    await scheduleDecision(rules, {
      communityId: community.id,
      userId: community.userId,
      deliveryId: alertDeliveryId(decision.event_id),
      purpose: 'alert',
      eventId: decision.event_id,
      calls: [telegramSend(Number(alertChatId), decision.alert)],
    });
  }
}

const CAPTCHA_PROMPT = (name: string, seconds: number) =>
  `Welcome, ${name}! Press the button within ${Math.round(seconds / 60) >= 1 ? `${Math.round(seconds / 60)} minute(s)` : `${seconds} seconds`} to show you are human.`;

async function memberJoined(
  community: CommunityRecord,
  rules: CommunityRules,
  decision: Decision,
  target: TelegramTarget,
  member: User,
): Promise<void> {
  const username = member.username?.toLowerCase();
  const whitelisted =
    username !== undefined &&
    community.whitelistedUsernames.some((u) => u.replace(/^@/, '').toLowerCase() === username);
  const captcha = rules.captcha.enabled && !member.is_bot && !whitelisted;
  const name = member.username ? `@${member.username}` : member.first_name;
  const calls = [
    ...(captcha
      ? telegramCaptchaCalls(target.chatId, member.id, CAPTCHA_PROMPT(name, rules.captcha.timeout_seconds))
      : []),
    ...(decision.welcome_message ? [telegramSend(target.chatId, decision.welcome_message)] : []),
  ];
  const deliveryId = decisionDeliveryId(decision.event_id);
  // Observed, the member is not held: nothing restricts them for the sweep to remove.
  if (captcha && !observes(rules)) {
    const deadline = new Date((target.at + rules.captcha.timeout_seconds) * 1000).toISOString();
    await putPendingCaptcha({
      communityId: community.id,
      userId: String(member.id),
      chatId: target.chatId,
      deadline,
      deliveryId,
    });
  }
  await scheduleDecision(rules, {
    communityId: community.id,
    userId: community.userId,
    deliveryId,
    purpose: captcha ? 'captcha' : 'welcome',
    eventId: decision.event_id,
    calls,
  });
}

/** From the join delivery's outcomes: the prompt's message_id (the sendMessage that carried the button), and whether the restriction was applied. */
async function joinOutcome(
  communityId: string,
  deliveryId: string,
): Promise<{ prompt: number | undefined; restricted: boolean }> {
  const delivery = await getDelivery(communityId, deliveryId);
  const index =
    delivery?.calls.findIndex((c) => c.method === 'sendMessage' && c.body?.reply_markup !== undefined) ?? -1;
  const restrictedAt = delivery?.calls.findIndex((c) => c.method === 'restrictChatMember') ?? -1;
  const restriction = restrictedAt >= 0 ? delivery?.outcomes[restrictedAt] : undefined;
  return {
    prompt: index >= 0 ? (delivery?.outcomes[index]?.message_id ?? undefined) : undefined,
    restricted: restriction?.ok === true && !restriction.skipped,
  };
}

async function captchaPressed(updateId: number, query: CallbackQuery): Promise<void> {
  const data = query.data ?? '';
  const chatId = query.message?.chat.id;
  if (!data.startsWith(CAPTCHA_CALLBACK_PREFIX) || chatId === undefined) return;
  const forUser = data.slice(CAPTCHA_CALLBACK_PREFIX.length);
  const binding = await boundCommunity('telegram', String(chatId));
  if (!binding) return;
  if (String(query.from.id) !== forUser) {
    await scheduleDelivery({
      communityId: binding.communityId,
      deliveryId: `cb:${query.id}`,
      purpose: 'captcha_other',
      calls: [
        {
          platform: 'telegram',
          method: 'answerCallbackQuery',
          body: { callback_query_id: query.id, text: 'This button is for the new member.' },
        },
      ],
      observe: false,
    });
    return;
  }
  const pending = await takePendingCaptcha(binding.communityId, forUser);
  // Already passed or already removed by the sweep: only the button's spinner needs answering.
  const calls = pending
    ? telegramCaptchaPassCalls(chatId, query.from.id, query.message?.message_id, query.id)
    : [{ platform: 'telegram' as const, method: 'answerCallbackQuery', body: { callback_query_id: query.id } }];
  await scheduleDelivery({
    communityId: binding.communityId,
    deliveryId: `captcha-pass:${updateId}`,
    purpose: pending ? 'captcha_pass' : 'captcha_late',
    calls,
    observe: false,
  });
}

/** The community still moderating the captcha's chat, or undefined (deleted, unpaid, or no longer bound there). */
async function moderatingCommunity(captcha: { communityId: string; chatId: number }) {
  const binding = await boundCommunity('telegram', String(captcha.chatId), true);
  if (binding?.role !== 'moderated' || binding.communityId !== captcha.communityId) return undefined;
  const community = await getCommunity(binding.userId, binding.communityId, true);
  return community?.type === 'telegram' && communityStatus(community) === 'connected' ? community : undefined;
}

/**
 * The scheduled sweep: members whose captcha deadline passed are removed (and may join again), unless the
 * community observes (recorded, not sent). A community no longer monitored (deleted, suspended, expired,
 * moved to another platform) removes no one: the restriction the captcha put on the member is lifted
 * instead, as a Crisp mute's block is, so nobody stays silenced by a service that stopped.
 */
export async function removeUnverifiedMembers(at = now()): Promise<{ removed: number }> {
  let removed = 0;
  for (const expired of await listExpiredCaptchas(at.toISOString())) {
    const taken = await takePendingCaptcha(expired.communityId, expired.userId);
    if (!taken) continue;
    const join = await joinOutcome(taken.communityId, taken.deliveryId);
    if (!(await moderatingCommunity(taken))) {
      // Removing no one must not leave the member silenced for good (the button no longer lifts it past the deadline).
      await scheduleDelivery({
        communityId: taken.communityId,
        deliveryId: `captcha-released:${taken.userId}:${taken.deadline}`,
        purpose: 'captcha_released',
        calls: telegramCaptchaReleaseCalls(taken.chatId, Number(taken.userId), join),
        observe: false,
      });
      continue;
    }
    // A community that switched to observe since the member joined removes no one: recorded, not sent.
    const rules = await getCommunityRules(taken.communityId);
    await scheduleDecision(rules, {
      communityId: taken.communityId,
      deliveryId: `captcha-timeout:${taken.userId}:${taken.deadline}`,
      purpose: 'captcha_timeout',
      calls: telegramCaptchaTimeoutCalls(taken.chatId, Number(taken.userId), join.prompt),
    });
    if (!observes(rules)) removed += 1;
  }
  return { removed };
}

const COMMAND_REPLIES = {
  invalid_token:
    'This activation token is not valid for a Telegram community (or was used already: its owner can issue a fresh one).',
  not_admin: 'Only an administrator of this chat can do this.',
  not_group: 'Send /activate in the group to moderate, not in a private chat.',
  activated: 'Moderation is on for this group.',
  suspended: UNPAID_ACTIVATION.suspended('This group'),
  expired: UNPAID_ACTIVATION.expired,
  alerts: 'Moderation alerts will be posted in this chat.',
  taken: 'This chat already belongs to another moderation community. Remove it there (or delete that community) first.',
} as const;

/** A command answered (whatever the reply was) is handled. */
const replied = (_: unknown) => true;

async function isChatAdmin(chatId: number, userId: number): Promise<boolean> {
  const outcome = await callPlatform({
    platform: 'telegram',
    method: 'getChatMember',
    body: { chat_id: chatId, user_id: userId },
  });
  return outcome !== 'not_configured' && outcome.ok && ADMIN_STATUSES.includes((outcome.result as ChatMember).status);
}

/** False when the token names no Telegram community and `answerInvalid` is off (the caller moderates it as a message). */
async function runCommand(
  updateId: number,
  message: Message,
  from: User,
  command: 'activate' | 'alerts',
  token: string,
  answerInvalid: boolean,
): Promise<boolean> {
  const chatId = message.chat.id;
  const isGroup = message.chat.type === 'group' || message.chat.type === 'supergroup';
  const community = await communityOfToken(token, 'telegram');
  const reply = (key: keyof typeof COMMAND_REPLIES) =>
    scheduleDelivery({
      communityId: community?.id ?? 'unbound',
      deliveryId: `cmd:${updateId}`,
      purpose: `command_${key}`,
      calls: [telegramSend(chatId, COMMAND_REPLIES[key])],
      observe: false,
    });
  const use = { role: command === 'activate' ? 'moderated' : 'alerts', place: String(chatId) } as const;
  // A token spent on another place reads like an unknown one: whoever copied it from the chat learns nothing.
  if (!community || !tokenMayDo(community, use)) {
    if (answerInvalid) await reply('invalid_token');
    return answerInvalid;
  }
  if (command === 'activate' && !isGroup) return replied(await reply('not_group'));
  // In a private chat the sender is the only member; in a group only an administrator may decide.
  if (isGroup && !(await isChatAdmin(chatId, from.id))) return replied(await reply('not_admin'));
  // An expired community can never moderate again: it takes no place (one it held is free for others).
  if (community.billingState === 'expired') return replied(await reply('expired'));
  const bound = await bindWithToken(community, token, use);
  if (bound !== 'bound') return replied(await reply(bound === 'taken' ? 'taken' : 'invalid_token'));
  if (command === 'activate') {
    if (!community.activatedAt) await markCommunityActivated(community, token);
    // Bound either way; a suspended community says it does not moderate yet rather than that it does.
    await reply(community.billingState === 'suspended' ? 'suspended' : 'activated');
    return true;
  }
  await reply('alerts');
  return true;
}
