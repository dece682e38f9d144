import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './client';
import { idempotencyKey } from './keys';

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyRecord {
  requestHash: string;
  state: 'in_progress' | 'completed';
  response?: StoredResponse;
  expiresAt: number;
}

/** Claims the key for this request; returns the existing record when someone holds it already. */
export async function claimIdempotencyKey(
  userId: string,
  key: string,
  requestHash: string,
  nowSeconds: number,
  ttlSeconds: number,
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
  try {
    await ddb().send(
      new PutCommand({
        TableName: table(),
        Item: { ...idempotencyKey(userId, key), entity: 'idempotency', requestHash, state: 'in_progress', expiresAt: nowSeconds + ttlSeconds, ttl: nowSeconds + ttlSeconds },
        // TTL deletion is lazy: an expired record may still be there and must not block a new claim.
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': nowSeconds },
      }),
    );
    return { claimed: true };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: idempotencyKey(userId, key), ConsistentRead: true }));
    if (!Item) return claimIdempotencyKey(userId, key, requestHash, nowSeconds, ttlSeconds);
    return { claimed: false, existing: Item as IdempotencyRecord };
  }
}

export async function completeIdempotencyKey(userId: string, key: string, response: StoredResponse): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: idempotencyKey(userId, key),
      UpdateExpression: 'SET #s = :c, #r = :r',
      ExpressionAttributeNames: { '#s': 'state', '#r': 'response' },
      ExpressionAttributeValues: { ':c': 'completed', ':r': response },
    }),
  );
}

export async function releaseIdempotencyKey(userId: string, key: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: idempotencyKey(userId, key) }));
}
