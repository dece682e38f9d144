/**
 * The operator bot's commands: `/activate <token>` from a group administrator binds the group to a
 * community, `/alerts <token>` names the alert chat (the core's activationToken.ts: a token binds once).
 */
import type { ChatMember, Message, User } from '@grammyjs/types';
import type { ModerationCore } from '#shared/platforms/contract';
import { UNPAID_ACTIVATION } from '#shared/platforms/unpaidActivation';
import { telegramSend } from './calls';

const ADMIN_STATUSES: ChatMember['status'][] = ['creator', 'administrator'];

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

async function isChatAdmin(core: ModerationCore, chatId: number, userId: number): Promise<boolean> {
  const outcome = await core.callPlatform({
    platform: 'telegram',
    method: 'getChatMember',
    body: { chat_id: chatId, user_id: userId },
  });
  return outcome !== 'not_configured' && outcome.ok && ADMIN_STATUSES.includes((outcome.result as ChatMember).status);
}

/** False when the token names no Telegram community and `answerInvalid` is off (the caller moderates it as a message). */
export async function runCommand(
  core: ModerationCore,
  updateId: number,
  message: Message,
  from: User,
  command: 'activate' | 'alerts',
  token: string,
  answerInvalid: boolean,
): Promise<boolean> {
  const chatId = message.chat.id;
  const isGroup = message.chat.type === 'group' || message.chat.type === 'supergroup';
  const community = await core.communityOfToken(token, 'telegram');
  const reply = (key: keyof typeof COMMAND_REPLIES) =>
    core.scheduleDelivery({
      communityId: community?.id ?? 'unbound',
      deliveryId: `cmd:${updateId}`,
      purpose: `command_${key}`,
      calls: [telegramSend(chatId, COMMAND_REPLIES[key])],
      observe: false,
    });
  const use = { role: command === 'activate' ? 'moderated' : 'alerts', place: String(chatId) } as const;
  // A token spent on another place reads like an unknown one: whoever copied it from the chat learns nothing.
  if (!community || !core.tokenMayDo(community, use)) {
    if (answerInvalid) await reply('invalid_token');
    return answerInvalid;
  }
  if (command === 'activate' && !isGroup) return replied(await reply('not_group'));
  // In a private chat the sender is the only member; in a group only an administrator may decide.
  if (isGroup && !(await isChatAdmin(core, chatId, from.id))) return replied(await reply('not_admin'));
  // An expired community can never moderate again: it takes no place (one it held is free for others).
  if (community.billingState === 'expired') return replied(await reply('expired'));
  const bound = await core.bindWithToken(community, token, use);
  if (bound !== 'bound') return replied(await reply(bound === 'taken' ? 'taken' : 'invalid_token'));
  if (command === 'activate') {
    if (!community.activatedAt) await core.markCommunityActivated(community, token);
    // Bound either way; a suspended community says it does not moderate yet rather than that it does.
    await reply(community.billingState === 'suspended' ? 'suspended' : 'activated');
    return true;
  }
  await reply('alerts');
  return true;
}
