/**
 * A recording stand-in for the Telegram Bot API (https://core.telegram.org/bots/api): `POST
 * /bot{token}/{method}` with a JSON body, answered `{ok: true, result}` or `{ok: false, error_code,
 * description, parameters?: {retry_after}}`. Every call is recorded; failures (a 429 with
 * retry_after, a 400 refusal) can be scripted per method. `restrictChatMember` is read as Telegram reads
 * it: a permission left out is False (except those whose documented default is another permission), and
 * only a member given every permission is no longer restricted ("Pass True for all permissions to lift
 * restrictions from a user", https://core.telegram.org/bots/api#restrictchatmember).
 */
import type { ChatMember, ChatPermissions, Message } from '@grammyjs/types';
import { startJsonServer } from './httpStandIn';

export interface TelegramCall {
  method: string;
  body: any;
}

/** Every ChatPermissions field and what it is when left out (false, or the value of another field). */
const PERMISSION_DEFAULTS: Record<keyof ChatPermissions, false | keyof ChatPermissions> = {
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
  can_react_to_messages: 'can_send_messages',
  can_change_info: false,
  can_invite_users: false,
  can_edit_tag: 'can_pin_messages',
  can_pin_messages: false,
  can_manage_topics: 'can_pin_messages',
};

/** True when the permissions leave the member unrestricted: every one of them True. */
function liftsEverything(permissions: Partial<Record<keyof ChatPermissions, unknown>> | undefined): boolean {
  const value = (key: keyof ChatPermissions): boolean => {
    const given = permissions?.[key];
    if (given !== undefined) return given === true;
    const fallback = PERMISSION_DEFAULTS[key];
    return fallback === false ? false : value(fallback);
  };
  return (Object.keys(PERMISSION_DEFAULTS) as (keyof ChatPermissions)[]).every(value);
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
  /** chat_id:user_id of members a restrictChatMember left restricted. */
  const restricted = new Set<string>();
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
        const key = `${body.chat_id}:${body.user_id}`;
        const status = memberStatus.get(key) ?? (restricted.has(key) ? 'restricted' : 'member');
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
      case 'restrictChatMember': {
        const key = `${body.chat_id}:${body.user_id}`;
        if (liftsEverything(body.permissions)) restricted.delete(key);
        else restricted.add(key);
        return ok(true);
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
    /** Whether the last restrictChatMember of this member left them restricted. */
    isRestricted: (chatId: number, userId: number) => restricted.has(`${chatId}:${userId}`),
    failNext: (method: string, failure: ScriptedFailure) =>
      failures.set(method, [...(failures.get(method) ?? []), failure]),
    reset: () => {
      calls.length = 0;
      failures.clear();
    },
    close: server.close,
  };
}
