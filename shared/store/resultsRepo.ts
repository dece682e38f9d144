import { ddb, table } from './client';
import { resultKey, resultsPartition } from './keys';
import { queryAll } from './query';
import type { BlobRef } from './blobs';
import type { ItemRead } from './batch';
import type { TransactItem } from './transactions';
import { defineEntity } from './entity';

export interface ResultRecord {
  id: string;
  userId: string;
  chatId: string | null;
  toolName: string;
  metadata: Record<string, unknown>;
  storageFormat: 'json';
  fileSize: number;
  createdAt: string;
  blob: BlobRef;
}

const fromItem = defineEntity<ResultRecord>('result').fromItem;

export function putResultItem(record: ResultRecord): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...resultKey(record.userId, record.id), entity: 'result', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export const resultRecordRead = (userId: string, resultId: string): ItemRead<ResultRecord | undefined> => ({
  key: resultKey(userId, resultId),
  decode: (Item) => (Item ? fromItem(Item) : undefined),
});

export interface ResultFilter {
  toolName?: string;
  chatId?: string;
}

/** Every result record of a user matching the filter (records are small: data lives in blob chunks). */
export async function listResultRecords(userId: string, filter: ResultFilter): Promise<ResultRecord[]> {
  const conditions: string[] = [];
  const values: Record<string, unknown> = {
    ':pk': resultsPartition(userId).pk,
    ':prefix': resultsPartition(userId).prefix,
  };
  if (filter.toolName !== undefined) {
    conditions.push('toolName = :tool');
    values[':tool'] = filter.toolName;
  }
  if (filter.chatId !== undefined) {
    conditions.push('chatId = :chat');
    values[':chat'] = filter.chatId;
  }
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ...(conditions.length ? { FilterExpression: conditions.join(' AND ') } : {}),
    ExpressionAttributeValues: values,
  });
  return items.map(fromItem);
}
