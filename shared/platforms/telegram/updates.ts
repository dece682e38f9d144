/**
 * Telegram's webhook speaks Telegram Updates; the engine speaks chat events. This maps one to the
 * other: a text (or captioned) message, each new chat member, and `/activate <token>` (engine.ts).
 */
import type { ChatEvent } from '#shared/domain/moderation/engine';

interface TelegramUser {
  id: number;
  username?: string;
  first_name?: string;
  is_bot?: boolean;
}

export interface TelegramUpdate {
  update_id: number;
  message?: {
    message_id: number;
    date: number;
    from?: TelegramUser;
    text?: string;
    caption?: string;
    new_chat_members?: TelegramUser[];
  };
}

const userOf = (u: TelegramUser): ChatEvent['user'] => ({
  id: String(u.id),
  username: u.username ?? '',
  // Many Telegram accounts have no username; every one has a first name, which is what the group shows.
  ...(u.first_name ? { name: u.first_name } : {}),
});

export function toChatEvents(update: TelegramUpdate): ChatEvent[] {
  const message = update.message;
  if (!message) return [];
  const sentAt = new Date(message.date * 1000).toISOString();
  const joins: ChatEvent[] = (message.new_chat_members ?? []).map((member) => ({
    event_id: `tg-${update.update_id}-join-${member.id}`,
    type: 'member_join',
    user: userOf(member),
    sent_at: sentAt,
  }));
  const text = message.text ?? message.caption;
  const said: ChatEvent[] =
    message.from && text !== undefined
      ? [{ event_id: `tg-${update.update_id}`, type: 'message', user: userOf(message.from), text, sent_at: sentAt }]
      : [];
  return [...joins, ...said];
}
