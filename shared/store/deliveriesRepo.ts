/**
 * Platform deliveries: one item per decision (or captcha, or undo) with the platform calls planned for
 * it and what each call came to. Planning is a conditional put, so a re-delivered update plans nothing
 * new; each call's outcome is written as soon as it is known, so a retried worker skips what was done.
 */
import { BatchGetCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './client';
import { moderationDeliveryKey, type Key } from './keys';
import { defineEntity } from './entity';
import { buildUpdate } from './update';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'not_configured' | 'observe';

export interface PlannedCall {
  platform: 'telegram' | 'discord';
  /** Telegram: the Bot API method. Discord: the HTTP method. */
  method: string;
  /** Discord only: the route under the API base. */
  route?: string;
  body?: Record<string, unknown>;
}

export interface CallRecord {
  ok: boolean;
  at: string;
  error?: string;
  /** Telegram's message_id of a message we sent (a captcha prompt is deleted by it later). */
  message_id?: number;
}

export interface Delivery {
  deliveryId: string;
  communityId: string;
  /** What the calls carry out: a decision's action, `welcome`, `captcha`, `captcha_pass`, `captcha_timeout`, `undo`. */
  purpose: string;
  /** The audit entry the delivery belongs to, when there is one. */
  auditId?: string;
  eventId?: string;
  calls: PlannedCall[];
  outcomes: (CallRecord | null)[];
  status: DeliveryStatus;
  error: string | null;
  attempts: number;
  createdAt: string;
  updatedAt: string;
}

const DELIVERY_TTL_SECONDS = 400 * 24 * 60 * 60;

/** True when this call planned it; false when an earlier delivery of the same update already did. */
export async function planDelivery(d: Delivery): Promise<boolean> {
  try {
    await ddb().send(
      new PutCommand({
        TableName: table(),
        Item: { ...moderationDeliveryKey(d.communityId, d.deliveryId), entity: 'moderationDelivery', ...d, ttl: Math.floor(Date.parse(d.createdAt) / 1000) + DELIVERY_TTL_SECONDS },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

const fromItem = defineEntity<Delivery>('moderationDelivery').fromItem;

export async function getDelivery(communityId: string, deliveryId: string): Promise<Delivery | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: moderationDeliveryKey(communityId, deliveryId), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

export async function deliveriesByIds(communityId: string, ids: string[]): Promise<Map<string, Delivery>> {
  const found = new Map<string, Delivery>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 100) {
    let keys: Key[] | undefined = unique.slice(i, i + 100).map((id) => moderationDeliveryKey(communityId, id));
    while (keys?.length) {
      const out = await ddb().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys } } }));
      for (const item of out.Responses?.[table()] ?? []) found.set(item.deliveryId as string, fromItem(item));
      keys = out.UnprocessedKeys?.[table()]?.Keys as Key[] | undefined;
    }
  }
  return found;
}

export async function recordCallOutcome(communityId: string, deliveryId: string, index: number, outcome: CallRecord): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: moderationDeliveryKey(communityId, deliveryId),
      ...buildUpdate({ set: { [`outcomes[${index}]`]: outcome, updatedAt: outcome.at } }),
    }),
  );
}

export async function countAttempt(communityId: string, deliveryId: string, at: string): Promise<number> {
  const { Attributes } = await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: moderationDeliveryKey(communityId, deliveryId),
      ...buildUpdate({ add: { attempts: 1 }, set: { updatedAt: at } }),
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Attributes?.attempts as number;
}

/** Settles a pending delivery; a settled one stays as it is (a late duplicate worker changes nothing). */
export async function settleDelivery(communityId: string, deliveryId: string, status: Exclude<DeliveryStatus, 'pending'>, error: string | null, at: string): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: moderationDeliveryKey(communityId, deliveryId),
        ...buildUpdate({ set: { status, error, updatedAt: at }, condition: { expression: '#s = :pending', names: { '#s': 'status' }, values: { ':pending': 'pending' } } }),
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
