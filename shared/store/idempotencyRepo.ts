import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './client';
import { idempotencyKey } from './keys';
import { buildUpdate } from './update';

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
  /** While in progress: when the claim's request can no longer be running (claim time + function timeout), in ms. */
  leaseUntil?: number;
}

/**
 * Claims the key for this request; returns the existing record when someone holds it already.
 * An in-progress claim whose lease ran out belongs to a request that died (crash, timeout): it is
 * taken over, so a dead request does not block its key for the whole window.
 */
export async function claimIdempotencyKey(
  userId: string,
  key: string,
  requestHash: string,
  nowMs: number,
  ttlSeconds: number,
  leaseMs: number,
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
  const nowSeconds = Math.floor(nowMs / 1000);
  try {
    await ddb().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...idempotencyKey(userId, key), entity: 'idempotency', requestHash, state: 'in_progress',
          expiresAt: nowSeconds + ttlSeconds, ttl: nowSeconds + ttlSeconds, leaseUntil: nowMs + leaseMs,
        },
        // TTL deletion is lazy: an expired record may still be there and must not block a new claim.
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now OR (#s = :inProgress AND leaseUntil < :nowMs)',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':now': nowSeconds, ':nowMs': nowMs, ':inProgress': 'in_progress' },
      }),
    );
    return { claimed: true };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: idempotencyKey(userId, key), ConsistentRead: true }));
    if (!Item) return claimIdempotencyKey(userId, key, requestHash, nowMs, ttlSeconds, leaseMs);
    return { claimed: false, existing: Item as IdempotencyRecord };
  }
}

export async function completeIdempotencyKey(userId: string, key: string, response: StoredResponse): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: idempotencyKey(userId, key),
      ...buildUpdate({ set: { state: 'completed', response }, remove: ['leaseUntil'] }),
    }),
  );
}

export async function releaseIdempotencyKey(userId: string, key: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: idempotencyKey(userId, key) }));
}
