import { table } from './client';
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

const results = defineEntity<ResultRecord>()({
  name: 'result',
  key: (r: Pick<ResultRecord, 'userId' | 'id'>) => resultKey(r.userId, r.id),
});
const fromItem = results.fromItem;

export function putResultItem(record: ResultRecord): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: results.item(record),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export const resultRecordRead = (userId: string, resultId: string): ItemRead<ResultRecord | undefined> => ({
  key: resultKey(userId, resultId),
  decode: results.maybe,
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
