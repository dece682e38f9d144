/**
 * The captcha of the operator's Telegram bot: a member who joins a group whose rules ask for one is
 * restricted and prompted with a button; pressing it lifts the restriction, and the minute sweep removes
 * whoever never pressed it in time.
 */
import type { CallbackQuery, User } from '@grammyjs/types';
import { now } from '#shared/adapters/ports';
import { getCommunity, type CommunityRecord } from '#shared/store/communitiesRepo';
import { putPendingCaptcha, takePendingCaptcha, listExpiredCaptchas } from '#shared/platforms/telegram/captchaRepo';
import { getDelivery } from '#shared/store/platformCallsRepo';
import { boundCommunity } from '#shared/store/bindingsRepo';
import type { CommunityRules } from '#shared/domain/moderation/communityRules';
import type { DeliveryCore } from '#shared/platforms/contract';
import type { Decision } from '#shared/domain/moderation/engine';
import {
  CAPTCHA_CALLBACK_PREFIX,
  telegramCaptchaCalls,
  telegramCaptchaPassCalls,
  telegramCaptchaReleaseCalls,
  telegramCaptchaTimeoutCalls,
  telegramSend,
  type TelegramTarget,
} from '#shared/platforms/telegram/calls';

const CAPTCHA_PROMPT = (name: string, seconds: number) =>
  `Welcome, ${name}! Press the button within ${Math.round(seconds / 60) >= 1 ? `${Math.round(seconds / 60)} minute(s)` : `${seconds} seconds`} to show you are human.`;

export async function memberJoined(
  core: DeliveryCore,
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
  const deliveryId = core.decisionDeliveryId(decision.event_id);
  // Observed, the member is not held: nothing restricts them for the sweep to remove.
  if (captcha && !core.observes(rules)) {
    const deadline = new Date((target.at + rules.captcha.timeout_seconds) * 1000).toISOString();
    await putPendingCaptcha({
      communityId: community.id,
      userId: String(member.id),
      chatId: target.chatId,
      deadline,
      deliveryId,
    });
  }
  await core.scheduleDecision(rules, {
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

export async function captchaPressed(updateId: number, query: CallbackQuery, core: DeliveryCore): Promise<void> {
  const data = query.data ?? '';
  const chatId = query.message?.chat.id;
  if (!data.startsWith(CAPTCHA_CALLBACK_PREFIX) || chatId === undefined) return;
  const forUser = data.slice(CAPTCHA_CALLBACK_PREFIX.length);
  const binding = await boundCommunity('telegram', String(chatId));
  if (!binding) return;
  if (String(query.from.id) !== forUser) {
    await core.scheduleDelivery({
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
  await core.scheduleDelivery({
    communityId: binding.communityId,
    deliveryId: `captcha-pass:${updateId}`,
    purpose: pending ? 'captcha_pass' : 'captcha_late',
    calls,
    observe: false,
  });
}

/** The community still moderating the captcha's chat, or undefined (deleted, unpaid, or no longer bound there). */
async function moderatingCommunity(core: DeliveryCore, captcha: { communityId: string; chatId: number }) {
  const binding = await boundCommunity('telegram', String(captcha.chatId), true);
  if (binding?.role !== 'moderated' || binding.communityId !== captcha.communityId) return undefined;
  const community = await getCommunity(binding.userId, binding.communityId, true);
  return community?.type === 'telegram' && core.communityStatus(community) === 'connected' ? community : undefined;
}

/**
 * The scheduled sweep: members whose captcha deadline passed are removed (and may join again), unless the
 * community observes (recorded, not sent). A community no longer monitored (deleted, suspended, expired,
 * moved to another platform) removes no one: the restriction the captcha put on the member is lifted
 * instead, as a Crisp mute's block is, so nobody stays silenced by a service that stopped.
 */
export async function removeUnverifiedMembers(core: DeliveryCore, at = now()): Promise<{ removed: number }> {
  let removed = 0;
  for (const expired of await listExpiredCaptchas(at.toISOString())) {
    const taken = await takePendingCaptcha(expired.communityId, expired.userId);
    if (!taken) continue;
    const join = await joinOutcome(taken.communityId, taken.deliveryId);
    if (!(await moderatingCommunity(core, taken))) {
      // Removing no one must not leave the member silenced for good (the button no longer lifts it past the deadline).
      await core.scheduleDelivery({
        communityId: taken.communityId,
        deliveryId: `captcha-released:${taken.userId}:${taken.deadline}`,
        purpose: 'captcha_released',
        calls: telegramCaptchaReleaseCalls(taken.chatId, Number(taken.userId), join),
        observe: false,
      });
      continue;
    }
    // A community that switched to observe since the member joined removes no one: recorded, not sent.
    const rules = await core.rulesOf(taken.communityId);
    await core.scheduleDecision(rules, {
      communityId: taken.communityId,
      deliveryId: `captcha-timeout:${taken.userId}:${taken.deadline}`,
      purpose: 'captcha_timeout',
      calls: telegramCaptchaTimeoutCalls(taken.chatId, Number(taken.userId), join.prompt),
    });
    if (!core.observes(rules)) removed += 1;
  }
  return { removed };
}
