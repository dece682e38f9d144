import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';

type Key = { pk: string; sk: string };
type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Key } };

const MAX_ATTEMPTS = 10;

export interface BatchOptions {
  /** Requests per BatchWriteItem call: 25 at most; fewer for large items (the call carries 16 MB at most). */
  groupSize?: number;
  /** Calls in flight at once. */
  concurrency?: number;
  onProgress?: (done: number) => void;
}

/**
 * Writes many puts and deletes with BatchWriteItem, retrying whatever DynamoDB leaves unprocessed with
 * exponential backoff, so a throttled table slows a bulk write down instead of losing part of it.
 */
export async function batchWrite(requests: WriteRequest[], options: BatchOptions = {}): Promise<void> {
  const size = Math.min(options.groupSize ?? 25, 25);
  const groups: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += size) groups.push(requests.slice(i, i + size));
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < groups.length) {
      const group = groups[next++];
      let pending = group;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt >= MAX_ATTEMPTS) throw new Error(`${pending.length} writes stayed unprocessed after ${MAX_ATTEMPTS} attempts`);
        const out = await ddb().send(new BatchWriteCommand({ RequestItems: { [table()]: pending } }));
        pending = (out.UnprocessedItems?.[table()] ?? []) as WriteRequest[];
        if (pending.length) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      }
      done += group.length;
      options.onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 1, groups.length)) }, worker));
}

export const putAll = (items: Record<string, unknown>[], options?: BatchOptions) => batchWrite(items.map((Item) => ({ PutRequest: { Item } })), options);
export const deleteAll = (keys: Key[], options?: BatchOptions) => batchWrite(keys.map((Key) => ({ DeleteRequest: { Key } })), options);
