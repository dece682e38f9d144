import { NotFoundError } from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import { uuidv7 } from '#shared/ids';
import { deleteBlob, readBlob, retireBlob, writeBlob } from '#shared/store/blobs';
import {
  getChat,
  listChats,
  putChatItem,
  softDeleteChatItem,
  updateChat,
  type ChatRecord,
} from '#shared/store/chatsRepo';
import { liveChatsChangeItem, type UserRecord } from '#shared/store/usersRepo';
import { retryingConflicts, TransactionConditionError, writeTogether } from '#shared/store/transactions';
import { chatKey } from '#shared/store/keys';

export const DEFAULT_CHAT_TITLE = 'New Conversation';

export interface ChatMessage {
  role: 'user' | 'assistant' | 'system' | 'tool';
  content: string;
  created_at?: string;
  metadata?: Record<string, unknown>;
}

export interface ChatView {
  id: string;
  user_id: string;
  title: string;
  messages: ChatMessage[];
  created_at: string;
  updated_at: string;
}

const ownerPk = (userId: string, chatId: string) => chatKey(userId, chatId).pk;
const view = (chat: ChatRecord, messages: ChatMessage[]): ChatView => ({
  id: chat.id,
  user_id: chat.userId,
  title: chat.title,
  messages,
  created_at: chat.createdAt,
  updated_at: chat.updatedAt,
});
export const chatListItem = (chat: ChatRecord) => ({
  id: chat.id,
  title: chat.title,
  message_count: chat.messageCount,
  created_at: chat.createdAt,
  updated_at: chat.updatedAt,
});

/** The caller as the chat operations need them: whose chats, and whether their account counts them. */
export type ChatOwner = Pick<UserRecord, 'id' | 'liveChats'>;

/**
 * The owner's live-chat count moves with the chat, in its transaction, when the account keeps one;
 * the owner's item is then in every chat create and delete, so two at once may conflict and go again
 * (the chat's own condition keeps a repeat from counting twice).
 */
const ownerCount = (owner: ChatOwner, delta: 1 | -1) =>
  owner.liveChats === undefined ? {} : { owner: liveChatsChangeItem(owner.id, delta) };

export async function createChat(owner: ChatOwner, title: string | undefined): Promise<ChatView> {
  const userId = owner.id;
  const at = now();
  const id = uuidv7(at.getTime());
  const messagesBlob = await writeBlob(ownerPk(userId, id), `chat-${id}-${uuidv7()}`, []);
  const chat: ChatRecord = {
    id,
    userId,
    title: title ?? DEFAULT_CHAT_TITLE,
    messageCount: 0,
    messagesBlob,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
  };
  await retryingConflicts(() => writeTogether({ chat: putChatItem(chat), ...ownerCount(owner, 1) }));
  return view(chat, []);
}

/** The caller's live chat, or 404 (also for another user's chat: existence is never revealed). */
export async function requireChat(userId: string, chatId: string): Promise<ChatRecord> {
  const chat = await getChat(userId, chatId);
  if (!chat) throw new NotFoundError('Chat');
  return chat;
}

export async function readChat(userId: string, chatId: string): Promise<ChatView> {
  const chat = await requireChat(userId, chatId);
  return view(chat, await readBlob<ChatMessage[]>(ownerPk(userId, chatId), chat.messagesBlob));
}

export async function changeChat(
  userId: string,
  chatId: string,
  changes: { title?: string; messages?: ChatMessage[] },
): Promise<ChatView> {
  const before = await requireChat(userId, chatId);
  const messagesBlob = changes.messages
    ? await writeBlob(ownerPk(userId, chatId), `chat-${chatId}-${uuidv7()}`, changes.messages)
    : undefined;
  const after = await updateChat(
    userId,
    chatId,
    { title: changes.title, messagesBlob, messageCount: changes.messages?.length },
    now().toISOString(),
  );
  if (!after) {
    if (messagesBlob) await deleteBlob(ownerPk(userId, chatId), messagesBlob);
    throw new NotFoundError('Chat');
  }
  if (messagesBlob) await retireBlob(ownerPk(userId, chatId), before.messagesBlob, now()).catch(() => undefined);
  const messages = changes.messages ?? (await readBlob<ChatMessage[]>(ownerPk(userId, chatId), after.messagesBlob));
  return view(after, messages);
}

export async function deleteChat(owner: ChatOwner, chatId: string): Promise<void> {
  try {
    await retryingConflicts(() =>
      writeTogether({ chat: softDeleteChatItem(owner.id, chatId, now().toISOString()), ...ownerCount(owner, -1) }),
    );
  } catch (err) {
    if (err instanceof TransactionConditionError && err.failed.has('chat')) throw new NotFoundError('Chat');
    throw err;
  }
}

export async function pageChats(
  owner: ChatOwner,
  q: { sort_by: 'updated_at' | 'created_at'; sort_order: 'asc' | 'desc'; limit: number; offset: number },
) {
  const page = await listChats(owner.id, q.sort_by, q.sort_order, {
    limit: q.limit,
    offset: q.offset,
    knownTotal: owner.liveChats,
  });
  return { items: page.items.map(chatListItem), total: page.total, limit: q.limit, offset: q.offset };
}
