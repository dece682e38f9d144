/**
 * Telegram: the operator's bot, updates pushed to one webhook (bot.ts; its commands and captcha beside it), each
 * decision as Bot API calls (the tables of calls.ts), undo by lifting the restriction or
 * the ban in the group the decision acted in.
 */
import { TelegramBotApi } from './botApi';
import { TELEGRAM_DECISION_CALLS, TELEGRAM_UNDO_CALLS, telegramSend, type TelegramTarget } from './calls';
import type { Delivery } from '#shared/store/platformCallsRepo';
import { blankToUndefined, definePlatform } from '#shared/platforms/contract';

export interface TelegramCredentials {
  /** Undefined: Telegram actions are recorded as not_configured. */
  botToken: string | undefined;
  webhookSecret: string | undefined;
  apiBase: string;
}

export const TELEGRAM_DEFAULT_BASE = 'https://api.telegram.org';

/** The group a decision's calls named (every Bot API call of ours names its chat). */
const chatActedIn = (decision: Delivery): string | undefined => {
  const chatId = decision.calls.map((call) => call.body?.chat_id).find((id) => id !== undefined);
  return chatId === undefined ? undefined : String(chatId);
};

export const telegram = definePlatform<TelegramTarget, TelegramCredentials>({
  type: 'telegram',
  credentials: {
    names: ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET'],
    apiBase: { env: 'TELEGRAM_API_BASE', default: TELEGRAM_DEFAULT_BASE },
    read: (values, apiBase) => ({
      botToken: blankToUndefined(values.TELEGRAM_BOT_TOKEN),
      webhookSecret: blankToUndefined(values.TELEGRAM_WEBHOOK_SECRET),
      apiBase,
    }),
    configured: (c) => c.botToken !== undefined,
  },
  // A timed restriction ends at endsAt (resolved at send time); Telegram reads a past until_date as forever.
  send: async (call, { credentials: { botToken, apiBase }, endsAt }) => {
    if (botToken === undefined) return 'not_configured';
    return new TelegramBotApi(botToken, apiBase).call(call.method, {
      ...call.body,
      ...(endsAt ? { until_date: Math.floor(endsAt.getTime() / 1000) } : {}),
    });
  },
  ingest: { kind: 'webhook', path: '/integrations/moderation/telegram' },
  onRulesChanged: null,
  onMonitoringChanged: null,
  sync: null,
  decisions: TELEGRAM_DECISION_CALLS,
  welcome: (target, text) => [telegramSend(target.chatId, text)],
  alert: (record, _target, text) =>
    record.telegramAlertChatId ? [telegramSend(Number(record.telegramAlertChatId), text)] : [],
  undo: {
    delete: null,
    warn: null,
    mute: ({ place, userId }) => (place ? TELEGRAM_UNDO_CALLS.mute(place, userId) : undefined),
    ban: ({ place, userId }) => (place ? TELEGRAM_UNDO_CALLS.ban(place, userId) : undefined),
  },
  actedIn: chatActedIn,
  recordFields: { bound: 'telegramChatId', alert: 'telegramAlertChatId' },
  connectLink: null,
  forget: null,
  unsupported: ['Edited messages are not checked again (the bot reads new messages only).'],
  work: null,
});
