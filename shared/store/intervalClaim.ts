import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, writeIfCondition } from './client';

/**
 * Puts a claim stamped `at` (in its `stampedAt` attribute) unless the same key holds one stamped within
 * `intervalSeconds` before `at`: a conditional write, so of concurrent claims one wins. The claim
 * expires with its interval (TTL); `item` builds it with that TTL. True when this claim was put.
 */
export function claimOncePerInterval(
  item: (ttl: number) => Record<string, unknown>,
  stampedAt: string,
  at: Date,
  intervalSeconds: number,
): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: item(Math.ceil(at.getTime() / 1000) + intervalSeconds),
        ConditionExpression: 'attribute_not_exists(pk) OR #stamped <= :since',
        ExpressionAttributeNames: { '#stamped': stampedAt },
        ExpressionAttributeValues: { ':since': new Date(at.getTime() - intervalSeconds * 1000).toISOString() },
      }),
    ),
  );
}
