import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import { webhookEndpointCountKey, webhookEndpointKey, webhookEndpointsPartition } from './keys';
import type { TransactItem } from './transactions';
import { queryAll } from './query';
import { defineEntity } from './entity';
import type { Condition } from './update';

export type EndpointStatus = 'enabled' | 'disabled';

export interface WebhookEndpointRecord {
  id: string;
  userId: string;
  url: string;
  eventTypes: string[];
  description: string | null;
  /** The signing secret (`whsec_<base64>`), sealed by the encryption port; the API never shows it again. */
  sealedSecret?: string;
  /** The secret in the clear, on endpoints made before secrets were sealed (a rotation seals it). */
  secret?: string;
  /** When the secret was last rotated (absent until then): a rotation begun earlier cannot overwrite a later one. */
  secretRotatedAt?: string;
  status: EndpointStatus;
  disabledReason: string | null;
  /** When the current run of failed deliveries began; null after a success. */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

const endpoints = defineEntity<WebhookEndpointRecord>()({
  name: 'webhookEndpoint',
  key: (e: Pick<WebhookEndpointRecord, 'userId' | 'id'>) => webhookEndpointKey(e.userId, e.id),
  nullable: ['description', 'disabledReason', 'failingSince'],
});
const fromItem = endpoints.fromItem;
/** How many endpoints the user has: started by a put, moved by ADDs. */
const endpointCounts = defineEntity<{ count: number }>()({
  name: 'webhookEndpointCount',
  key: (c: { userId: string }) => webhookEndpointCountKey(c.userId),
  keyOnly: ['userId'],
});

export const putEndpointItem = (e: WebhookEndpointRecord): TransactItem => ({
  Put: {
    TableName: table(),
    Item: endpoints.item(e),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export const deleteEndpointItem = (userId: string, endpointId: string): TransactItem => ({
  Delete: {
    TableName: table(),
    Key: webhookEndpointKey(userId, endpointId),
    ConditionExpression: 'attribute_exists(pk)',
  },
});

/** The user's endpoint count, undefined for an account that has not kept one yet (endpoints made before it). */
export async function getEndpointCount(userId: string): Promise<number | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: webhookEndpointCountKey(userId), ConsistentRead: true }),
  );
  return endpointCounts.maybe(Item)?.count;
}

/** Starts the count at `count` (what a consistent listing found, after this change), unless another request started it. */
export const startEndpointCountItem = (userId: string, count: number): TransactItem => ({
  Put: {
    TableName: table(),
    Item: endpointCounts.item({ userId, count }),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** Moves the count by `delta`; up only while below `max`. (`count` is a reserved word: aliased in the condition.) */
export const moveEndpointCountItem = (userId: string, delta: 1 | -1, max: number): TransactItem => ({
  Update: {
    TableName: table(),
    Key: webhookEndpointCountKey(userId),
    ...endpointCounts.update({
      add: { count: delta },
      condition:
        delta > 0
          ? { expression: '#count < :max', names: { '#count': 'count' }, values: { ':max': max } }
          : { expression: 'attribute_exists(#count)', names: { '#count': 'count' } },
    }),
  },
});

export async function getEndpoint(
  userId: string,
  endpointId: string,
  consistent = false,
): Promise<WebhookEndpointRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: webhookEndpointKey(userId, endpointId), ConsistentRead: consistent }),
  );
  return endpoints.maybe(Item);
}

/** Newest first (ids are UUID v7). */
export async function listEndpoints(userId: string, consistent = false): Promise<WebhookEndpointRecord[]> {
  const { pk, prefix } = webhookEndpointsPartition(userId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': prefix },
    ScanIndexForward: false,
    ConsistentRead: consistent,
  });
  return items.map(fromItem);
}

/** Applies a partial change to an existing endpoint; undefined when it is gone (or `condition` fails). REMOVEs the given attributes. */
async function change(
  userId: string,
  endpointId: string,
  set: Partial<WebhookEndpointRecord>,
  remove: (keyof WebhookEndpointRecord)[] = [],
  condition?: string | Condition,
): Promise<WebhookEndpointRecord | undefined> {
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: webhookEndpointKey(userId, endpointId),
        ...endpoints.update({
          set,
          remove,
          condition:
            typeof condition === 'object'
              ? { ...condition, expression: `attribute_exists(pk) AND ${condition.expression}` }
              : ['attribute_exists(pk)', condition].filter(Boolean).join(' AND '),
        }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes ? fromItem(out.Attributes) : undefined;
  } catch (err) {
    if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return undefined;
    throw err;
  }
}

/**
 * Replaces the secret only if it is still `previous` (the one the caller read) and was not replaced
 * after `began` (when the caller's rotation began): of rotations that overlap, one wins and the
 * others get undefined, so no caller is shown a secret that was never kept.
 */
export const replaceSecret = (
  userId: string,
  endpointId: string,
  previous: Pick<WebhookEndpointRecord, 'sealedSecret' | 'secret'>,
  began: string,
  sealedSecret: string,
  at: string,
) => {
  // Compared as stored: sealed, or in the clear on an endpoint from before sealing (whose clear copy goes).
  const [field, value] = previous.sealedSecret ? ['sealedSecret', previous.sealedSecret] : ['secret', previous.secret];
  return change(userId, endpointId, { sealedSecret, secretRotatedAt: at, updatedAt: at }, ['secret'], {
    expression: '#secret = :previousSecret AND (attribute_not_exists(secretRotatedAt) OR secretRotatedAt <= :began)',
    names: { '#secret': field },
    values: { ':previousSecret': value, ':began': began },
  });
};

/** Starts the failure clock unless it is running already (the first failure of a run counts). */
export async function markFailing(
  userId: string,
  endpointId: string,
  at: string,
): Promise<WebhookEndpointRecord | undefined> {
  return (
    (await change(userId, endpointId, { failingSince: at }, [], 'attribute_not_exists(failingSince)')) ??
    getEndpoint(userId, endpointId, true)
  );
}

export const clearFailing = (userId: string, endpointId: string, at: string) =>
  change(userId, endpointId, { updatedAt: at }, ['failingSince'], 'attribute_exists(failingSince)');

export const disableEndpoint = (userId: string, endpointId: string, reason: string, at: string) =>
  change(
    userId,
    endpointId,
    { status: 'disabled', disabledReason: reason, updatedAt: at },
    [],
    'attribute_exists(failingSince)',
  );
