import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';

/** Every item a Query matches, following LastEvaluatedKey across pages. */
export async function queryAll(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(new QueryCommand({ TableName: table(), ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
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
): Promise<Record<string, any>[]> {
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
