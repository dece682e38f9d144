/**
 * The delivery log: one item per (event, endpoint). A pending delivery carries the sparse due-index
 * attributes (next attempt time), so a lost queue message is found by the sweep; a finished one drops them.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table, writeIfCondition } from './client';
import { WEBHOOK_DUE_SHARDS, webhookDeliveriesPartition, webhookDeliveryKey, webhookDueIndexKey, webhookDuePartition, webhookIndexUpTo } from './keys';
import { queryAll, queryDueShards } from './query';
import { WEBHOOK_RETENTION_SECONDS } from './webhookEventsRepo';
import { defineEntity } from './entity';
import { buildUpdate, setOrRemove } from './update';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveryRecord {
  id: string;
  userId: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: DeliveryStatus;
  attempts: number;
  /** The schedule ends at this many attempts (a manual retry grants one more). */
  maxAttempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const deliveries = defineEntity<WebhookDeliveryRecord>('webhookDelivery', { nullable: ['lastStatusCode', 'lastError', 'nextAttemptAt'] });
const fromItem = deliveries.fromItem;
const withoutNulls = deliveries.attributes;

/** False when the delivery exists already (a repeated fan-out). */
export const putDelivery = (d: WebhookDeliveryRecord): Promise<boolean> =>
  writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...webhookDeliveryKey(d.userId, d.id),
          entity: 'webhookDelivery',
          ...withoutNulls(d),
          ...(d.status === 'pending' && d.nextAttemptAt ? webhookDueIndexKey(d.id, d.nextAttemptAt) : {}),
          ttl: Math.floor(Date.parse(d.createdAt) / 1000) + WEBHOOK_RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );

export async function getDelivery(userId: string, deliveryId: string): Promise<WebhookDeliveryRecord | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: webhookDeliveryKey(userId, deliveryId), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

/** Newest first. */
export async function listDeliveries(userId: string): Promise<WebhookDeliveryRecord[]> {
  const { pk, prefix } = webhookDeliveriesPartition(userId);
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': pk, ':p': prefix }, ScanIndexForward: false });
  return items.map(fromItem);
}

export type DeliveryChange = Pick<WebhookDeliveryRecord, 'status' | 'attempts' | 'lastStatusCode' | 'lastError' | 'nextAttemptAt' | 'updatedAt'> & { maxAttempts?: number };

/**
 * Writes the outcome of an attempt (or a manual retry) if nobody recorded one since `expectedAttempts`
 * was read: two copies of one queue message cannot both count an attempt. Undefined when it moved on.
 */
export async function recordDeliveryChange(userId: string, deliveryId: string, expectedAttempts: number, c: DeliveryChange): Promise<WebhookDeliveryRecord | undefined> {
  // Null fields are not stored (see defineEntity): they are removed.
  const nullable = setOrRemove({ lastStatusCode: c.lastStatusCode, lastError: c.lastError, nextAttemptAt: c.nextAttemptAt });
  const indexed = c.status === 'pending' && c.nextAttemptAt;
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: webhookDeliveryKey(userId, deliveryId),
        ...buildUpdate({
          set: {
            status: c.status,
            attempts: c.attempts,
            updatedAt: c.updatedAt,
            maxAttempts: c.maxAttempts,
            ...nullable.set,
            ...(indexed ? webhookDueIndexKey(deliveryId, indexed) : {}),
          },
          remove: [...nullable.remove, ...(indexed ? [] : ['gsi3pk', 'gsi3sk'])],
          condition: { expression: 'attempts = :expected', values: { ':expected': expectedAttempts } },
        }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(out.Attributes!);
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}

/** Pending deliveries due at or before `atIso`: a Query per shard of the sparse index. */
export async function listDueDeliveries(atIso: string): Promise<{ userId: string; deliveryId: string }[]> {
  const items = await queryDueShards(WEBHOOK_DUE_SHARDS, webhookDuePartition, webhookIndexUpTo(atIso));
  return items.map((item) => ({ userId: item.userId as string, deliveryId: item.id as string }));
}
