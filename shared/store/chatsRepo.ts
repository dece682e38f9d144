import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table, writeIfCondition } from './client';
import { chatKey, chatsByUpdatedIndexKey, chatsByUpdatedPartition, chatsPartition } from './keys';
import type { BlobRef } from './blobs';
import { defineEntity } from './entity';
import { buildUpdate } from './update';

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

const fromItem = defineEntity<ChatRecord>('chat').fromItem;

export async function putChat(chat: ChatRecord): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: { ...chatKey(chat.userId, chat.id), entity: 'chat', ...chat, ...chatsByUpdatedIndexKey(chat.userId, chat.updatedAt, chat.id) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** A live (not deleted) chat of this user, or undefined. */
export async function getChat(userId: string, chatId: string): Promise<ChatRecord | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: chatKey(userId, chatId) }));
  if (!Item || Item.deletedAt) return undefined;
  return fromItem(Item);
}

/** Applies changes to a live chat; false when it is gone (deleted meanwhile or never existed). */
export async function updateChat(
  userId: string,
  chatId: string,
  changes: { title?: string; messagesBlob?: BlobRef; messageCount?: number },
  updatedAt: string,
): Promise<ChatRecord | undefined> {
  try {
    const { Attributes } = await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: chatKey(userId, chatId),
        ...buildUpdate({
          set: { ...changes, updatedAt, ...chatsByUpdatedIndexKey(userId, updatedAt, chatId) },
          condition: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
        }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(Attributes!);
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}

/** Soft delete: kept for the record, dropped from the updated-at index so lists skip it for free. */
export async function softDeleteChat(userId: string, chatId: string, at: string): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: chatKey(userId, chatId),
        ...buildUpdate({ set: { deletedAt: at }, remove: ['gsi1pk', 'gsi1sk'], condition: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)' }),
      }),
    ),
  );
}

export interface ChatPage {
  items: ChatRecord[];
  total: number;
}

/**
 * One page of live chats. By updated_at the sparse gsi1 holds only live chats in order; by created_at
 * the table's own sort key (UUID v7) is creation order. Chat items are small (messages live in
 * blob chunks), so one pass over the user's chats yields both the page and the total.
 */
export async function listChats(userId: string, sortBy: 'updated_at' | 'created_at', order: 'asc' | 'desc', limit: number, offset: number): Promise<ChatPage> {
  const base =
    sortBy === 'updated_at'
      ? { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': chatsByUpdatedPartition(userId) } as Record<string, unknown> }
      : {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression: 'attribute_not_exists(deletedAt)',
          ExpressionAttributeValues: { ':pk': chatsPartition(userId).pk, ':prefix': chatsPartition(userId).prefix } as Record<string, unknown>,
        };
  const items: ChatRecord[] = [];
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(new QueryCommand({ TableName: table(), ...base, ScanIndexForward: order === 'asc', ExclusiveStartKey: startKey }));
    for (const item of page.Items ?? []) {
      if (total >= offset && items.length < limit) items.push(fromItem(item));
      total += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { items, total };
}
