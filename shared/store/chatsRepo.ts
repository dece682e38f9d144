import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { queryPages } from './query';
import { ddb, table, updateIf } from './client';
import { chatKey, chatsByUpdatedIndexKey, chatsByUpdatedPartition, chatsPartition } from './keys';
import type { BlobRef } from './blobs';
import { defineEntity } from './entity';
import type { TransactItem } from './transactions';

export interface ChatRecord {
  id: string;
  userId: string;
  title: string;
  messageCount: number;
  messagesBlob: BlobRef;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
}

const chats = defineEntity<ChatRecord>()({
  name: 'chat',
  key: (c: Pick<ChatRecord, 'userId' | 'id'>) => chatKey(c.userId, c.id),
});
const fromItem = chats.fromItem;

/** A new chat (a failed condition: the id is taken). */
export function putChatItem(chat: ChatRecord): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: chats.item(chat, chatsByUpdatedIndexKey(chat.userId, chat.updatedAt, chat.id)),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** A live (not deleted) chat of this user, or undefined. */
export async function getChat(userId: string, chatId: string): Promise<ChatRecord | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: chatKey(userId, chatId) }));
  const chat = chats.maybe(Item);
  return chat?.deletedAt ? undefined : chat;
}

/** Applies changes to a live chat; false when it is gone (deleted meanwhile or never existed). */
export async function updateChat(
  userId: string,
  chatId: string,
  changes: { title?: string; messagesBlob?: BlobRef; messageCount?: number },
  updatedAt: string,
): Promise<ChatRecord | undefined> {
  return chats.maybe(
    await updateIf({
      TableName: table(),
      Key: chatKey(userId, chatId),
      ...chats.update({
        set: { ...changes, updatedAt, ...chatsByUpdatedIndexKey(userId, updatedAt, chatId) },
        condition: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
      }),
    }),
  );
}

/**
 * Soft delete: kept for the record, dropped from the updated-at index so lists skip it for free. A
 * failed condition: the chat is gone (deleted meanwhile or never existed).
 */
export function softDeleteChatItem(userId: string, chatId: string, at: string): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: chatKey(userId, chatId),
      ...chats.update({
        set: { deletedAt: at },
        remove: ['gsi1pk', 'gsi1sk'],
        condition: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
      }),
    },
  };
}

/** Items a Query asks for at least when deleted chats may be among them, and at most in any case. */
const MIN_FILTERED_READ = 100;
const MAX_READ = 1000;

export interface ChatPage {
  items: ChatRecord[];
  total: number;
}

/**
 * One page of live chats. By updated_at the sparse gsi1 holds only live chats in order; by created_at
 * the table's own sort key (UUID v7) is creation order. With the total known (the owner's count,
 * UserRecord.liveChats) reading stops at the page's end; without it, one pass over the user's chats
 * (small items: messages live in blob chunks) yields both the page and the total.
 */
export async function listChats(
  userId: string,
  sortBy: 'updated_at' | 'created_at',
  order: 'asc' | 'desc',
  page: { limit: number; offset: number; knownTotal?: number },
): Promise<ChatPage> {
  const base =
    sortBy === 'updated_at'
      ? {
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': chatsByUpdatedPartition(userId) } as Record<string, unknown>,
        }
      : {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression: 'attribute_not_exists(deletedAt)',
          ExpressionAttributeValues: {
            ':pk': chatsPartition(userId).pk,
            ':prefix': chatsPartition(userId).prefix,
          } as Record<string, unknown>,
        };
  const end = page.offset + page.limit;
  const counting = page.knownTotal === undefined;
  const items: ChatRecord[] = [];
  let seen = 0;
  let readToEnd = true;
  // Limit counts items read before the filter: on gsi1 (live chats only) exact, by creation order
  // it also passes over deleted chats, hence a floor; and a cap, as an offset may be anything.
  const limit = (read: number) =>
    counting ? undefined : Math.min(Math.max(end - read, sortBy === 'updated_at' ? 1 : MIN_FILTERED_READ), MAX_READ);
  for await (const read of queryPages({ ...base, ScanIndexForward: order === 'asc' }, limit)) {
    readToEnd = !read.more;
    for (const item of read.items) {
      if (seen >= page.offset && items.length < page.limit) items.push(fromItem(item));
      seen += 1;
    }
    if (!counting && seen >= end) break;
  }
  return { items, total: counting || readToEnd ? seen : Math.max(page.knownTotal ?? 0, seen) };
}
