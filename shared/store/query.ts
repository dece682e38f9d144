import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import type { StoredItem } from './entity';

export type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>;

/**
 * The one way a repository reads a Query page by page: follows LastEvaluatedKey, asking each page for
 * `limit(read)` items (read: the items of the earlier pages; undefined: as many as DynamoDB returns),
 * until the Query ends or the caller stops iterating (`more`: pages follow). Items come as stored, for an entity to check.
 */
export async function* queryPages(
  input: QueryInput,
  limit: (read: number) => number | undefined = () => undefined,
): AsyncGenerator<{ items: StoredItem[]; more: boolean }> {
  let startKey: Record<string, unknown> | undefined;
  let read = 0;
  do {
    const page = await ddb().send(
      new QueryCommand({ TableName: table(), ...input, ExclusiveStartKey: startKey, Limit: limit(read) }),
    );
    const items = page.Items ?? [];
    read += items.length;
    startKey = page.LastEvaluatedKey;
    yield { items, more: startKey !== undefined };
  } while (startKey);
}

/** Every item a Query matches, following LastEvaluatedKey across pages. */
export async function queryAll(input: QueryInput): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  for await (const page of queryPages(input)) items.push(...page.items);
  return items;
}

/** The first `limit` items a Query matches (fewer when a filter drops some of them): one request. */
export async function queryFirst(input: QueryInput, limit: number): Promise<StoredItem[]> {
  const { Items = [] } = await ddb().send(new QueryCommand({ TableName: table(), ...input, Limit: limit }));
  return Items;
}

/**
 * Every item of a sharded sparse index (gsi3) whose sort key is at most `upTo`: one Query per shard,
 * in parallel. The scheduled sweeps find what is due this way (renewals, stalled jobs, captchas,
 * webhook outbox and retries) without a Scan.
 */
export async function queryDueShards(
  shards: number,
  partitionOf: (shard: number) => string,
  upTo: string,
): Promise<StoredItem[]> {
  const pages = await Promise.all(
    Array.from({ length: shards }, (_, shard) =>
      queryAll({
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk <= :upTo',
        ExpressionAttributeValues: { ':pk': partitionOf(shard), ':upTo': upTo },
      }),
    ),
  );
  return pages.flat();
}
