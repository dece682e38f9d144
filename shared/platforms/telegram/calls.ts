/**
 * What each moderation outcome becomes on Telegram, as data: a decision's action, a welcome, a captcha
 * and an undo map to the Bot API methods below. Nothing here performs a call; the core's delivery
 * runner (platformCallRunner.ts) runs the planned calls through the platform port.
 */
import type { ChatPermissions, InlineKeyboardMarkup } from '@grammyjs/types';
import type { PenaltyAction } from '#shared/domain/moderation/actions';
import type { PlannedCall } from '#shared/store/platformCallsRepo';
import { MUTE_SECONDS } from '#shared/platforms/contract';

/** Where a Telegram decision applies: the group, the offending message and its sender. */
export interface TelegramTarget {
  chatId: number;
  messageId?: number;
  userId: number;
  /** Unix seconds the message was written (a mute not applied within its length of this is not applied). */
  at: number;
}

const tg = (method: string, body: Record<string, unknown>): PlannedCall => ({ platform: 'telegram', method, body });

/** Nothing may be sent (a muted member or one waiting for the captcha). */
export const SILENCED: ChatPermissions = {
  can_send_messages: false,
  can_send_audios: false,
  can_send_documents: false,
  can_send_photos: false,
  can_send_videos: false,
  can_send_video_notes: false,
  can_send_voice_notes: false,
  can_send_polls: false,
  can_send_other_messages: false,
  can_add_web_page_previews: false,
};
/**
 * Lifting a restriction: every permission True, as the Bot API asks ("Pass True for all permissions to
 * lift restrictions from a user", https://core.telegram.org/bots/api#restrictchatmember). A permission
 * left out counts as False, so the member would stay restricted (no inviting, pinning, topics). The
 * group's own default permissions still apply on top.
 */
export const UNSILENCED: Required<ChatPermissions> = {
  can_send_messages: true,
  can_send_audios: true,
  can_send_documents: true,
  can_send_photos: true,
  can_send_videos: true,
  can_send_video_notes: true,
  can_send_voice_notes: true,
  can_send_polls: true,
  can_send_other_messages: true,
  can_add_web_page_previews: true,
  can_react_to_messages: true,
  can_change_info: true,
  can_invite_users: true,
  can_edit_tag: true,
  can_pin_messages: true,
  can_manage_topics: true,
};

const deleteMessage = (t: TelegramTarget) => tg('deleteMessage', { chat_id: t.chatId, message_id: t.messageId });

export const TELEGRAM_DECISION_CALLS: Record<
  PenaltyAction,
  (t: TelegramTarget, text: { warning: string }) => PlannedCall[]
> = {
  delete: (t) => [deleteMessage(t)],
  warn: (t, text) => [
    tg('sendMessage', {
      chat_id: t.chatId,
      text: text.warning,
      reply_parameters: { message_id: t.messageId, allow_sending_without_reply: true },
    }),
  ],
  // until_date is set when the call is sent (telegram.ts): a mute lasts MUTE_SECONDS from then.
  mute: (t) => [
    deleteMessage(t),
    {
      ...tg('restrictChatMember', {
        chat_id: t.chatId,
        user_id: t.userId,
        permissions: SILENCED,
        use_independent_chat_permissions: true,
      }),
      timed: { seconds: MUTE_SECONDS, from: new Date(t.at * 1000).toISOString() },
    },
  ],
  ban: (t) => [deleteMessage(t), tg('banChatMember', { chat_id: t.chatId, user_id: t.userId, revoke_messages: true })],
};

export const telegramSend = (chatId: number | string, text: string): PlannedCall =>
  tg('sendMessage', { chat_id: chatId, text });

export const CAPTCHA_CALLBACK_PREFIX = 'captcha:';

export const telegramCaptchaCalls = (chatId: number, userId: number, prompt: string): PlannedCall[] => {
  const keyboard: InlineKeyboardMarkup = {
    inline_keyboard: [[{ text: "I'm human ✅", callback_data: `${CAPTCHA_CALLBACK_PREFIX}${userId}` }]],
  };
  return [
    // until_date 0: restricted until we lift it (a pass) or remove the member (the timeout).
    tg('restrictChatMember', {
      chat_id: chatId,
      user_id: userId,
      permissions: SILENCED,
      use_independent_chat_permissions: true,
      until_date: 0,
    }),
    tg('sendMessage', { chat_id: chatId, text: prompt, reply_markup: keyboard }),
  ];
};

/** Lifts what restrictChatMember put on a member (a captcha's silence, a mute). */
const liftRestriction = (chatId: number, userId: number): PlannedCall =>
  tg('restrictChatMember', {
    chat_id: chatId,
    user_id: userId,
    permissions: UNSILENCED,
    use_independent_chat_permissions: true,
  });
/** The captcha prompt's removal, when it was sent. */
const deletePrompt = (chatId: number, promptMessageId: number | undefined): PlannedCall[] =>
  promptMessageId ? [tg('deleteMessage', { chat_id: chatId, message_id: promptMessageId })] : [];

export const telegramCaptchaPassCalls = (
  chatId: number,
  userId: number,
  promptMessageId: number | undefined,
  callbackQueryId: string,
): PlannedCall[] => [
  liftRestriction(chatId, userId),
  tg('answerCallbackQuery', { callback_query_id: callbackQueryId, text: 'Thanks, you can post now.' }),
  ...deletePrompt(chatId, promptMessageId),
];

/** The community stopped being monitored before the deadline: the member may post again, the prompt goes. */
export const telegramCaptchaReleaseCalls = (
  chatId: number,
  userId: number,
  join: { prompt: number | undefined; restricted: boolean },
): PlannedCall[] => [
  ...(join.restricted ? [liftRestriction(chatId, userId)] : []),
  ...deletePrompt(chatId, join.prompt),
];

/** Removed, not banned: the ban is lifted at once so the member may come back and try again. */
export const telegramCaptchaTimeoutCalls = (
  chatId: number,
  userId: number,
  promptMessageId: number | undefined,
): PlannedCall[] => [
  tg('banChatMember', { chat_id: chatId, user_id: userId }),
  tg('unbanChatMember', { chat_id: chatId, user_id: userId, only_if_banned: true }),
  ...deletePrompt(chatId, promptMessageId),
];

/** Undo: what lifts each reversible action. A delete or a warning cannot be taken back. */
export const TELEGRAM_UNDO_CALLS = {
  mute: (chatId, userId) => [liftRestriction(Number(chatId), Number(userId))],
  ban: (chatId, userId) => [
    tg('unbanChatMember', { chat_id: Number(chatId), user_id: Number(userId), only_if_banned: true }),
  ],
} satisfies Partial<Record<PenaltyAction, (chatId: string, userId: string) => PlannedCall[]>>;
