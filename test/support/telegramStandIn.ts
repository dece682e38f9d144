/**
 * A recording stand-in for the Telegram Bot API (https://core.telegram.org/bots/api): `POST
 * /bot{token}/{method}` with a JSON body, answered `{ok: true, result}` or `{ok: false, error_code,
 * description, parameters?: {retry_after}}`. Every call is recorded; failures (a 429 with
 * retry_after, a 400 refusal) can be scripted per method.
 */
import type { ChatMember, Message } from '@grammyjs/types';
import { startJsonServer } from './httpStandIn';

export interface TelegramCall {
  method: string;
  body: any;
}

interface ScriptedFailure {
  error_code: number;
  description: string;
  retry_after?: number;
}

export async function startTelegramStandIn(token: string) {
  const calls: TelegramCall[] = [];
  const failures = new Map<string, ScriptedFailure[]>();
  /** chat_id:user_id -> status of getChatMember (default "member"). */
  const memberStatus = new Map<string, ChatMember['status']>();
  let nextMessageId = 9000;
  /** What sendMessage answered, in order (a later call may name one of these message ids). */
  const sent: { message_id: number; chat_id: number | string; text: string }[] = [];

  const server = await startJsonServer((req) => {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.path);
    if (!match) return { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } };
    if (match[1] !== token) return { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };
    const [, , method] = match;
    const body = req.body ?? {};
    calls.push({ method, body });
    const failure = failures.get(method)?.shift();
    if (failure) {
      return {
        status: failure.error_code,
        body: {
          ok: false,
          error_code: failure.error_code,
          description: failure.description,
          ...(failure.retry_after !== undefined ? { parameters: { retry_after: failure.retry_after } } : {}),
        },
      };
    }
    const ok = (result: unknown) => ({ status: 200, body: { ok: true, result } });
    switch (method) {
      case 'getMe':
        return ok({ id: 4242, is_bot: true, first_name: 'Moderator', username: 'outreach_mod_bot' });
      case 'getChatMember': {
        const status = memberStatus.get(`${body.chat_id}:${body.user_id}`) ?? 'member';
        return ok({ status, user: { id: body.user_id, is_bot: false, first_name: 'Member' } } as ChatMember);
      }
      case 'sendMessage': {
        const message = {
          message_id: ++nextMessageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: body.chat_id, type: 'supergroup', title: 'Group' },
          text: body.text,
        } as Message.TextMessage;
        sent.push({ message_id: message.message_id, chat_id: body.chat_id, text: body.text });
        return ok(message);
      }
      default:
        return ok(true);
    }
  });

  return {
    apiBase: server.url,
    calls,
    sent,
    /** Calls other than the reads the bot makes for itself (getChatMember, getMe). */
    actions: () => calls.filter((c) => c.method !== 'getChatMember' && c.method !== 'getMe'),
    setMemberStatus: (chatId: number, userId: number, status: ChatMember['status']) =>
      memberStatus.set(`${chatId}:${userId}`, status),
    failNext: (method: string, failure: ScriptedFailure) =>
      failures.set(method, [...(failures.get(method) ?? []), failure]),
    reset: () => {
      calls.length = 0;
      failures.clear();
    },
    close: server.close,
  };
}
