/**
 * The webhook outbox. An event item is written inside the transaction of the state change it reports
 * (a job closing, a renewal), so it exists exactly when the change committed. It keeps the sparse
 * outbox index attributes until it has been fanned out into deliveries.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, writeIfCondition } from './client';
import {
  WEBHOOK_OUTBOX_SHARDS,
  webhookEventKey,
  webhookIndexUpTo,
  webhookOutboxIndexKey,
  webhookOutboxPartition,
} from './keys';
import { queryDueShards } from './query';
import type { TransactItem } from './transactions';
import { defineEntity } from './entity';

/** Events (and their rendered bodies) are kept 30 days, like the delivery log that points at them. */
export const WEBHOOK_RETENTION_SECONDS = 30 * 24 * 3600;

export interface WebhookEventRecord {
  id: string;
  userId: string;
  type: string;
  /** Which object the event is about (kind and id), rendered as its GET view when dispatched. */
  subject: { kind: string; id: string };
  /** Extra data for events that are not about a stored object (credits.low). */
  extra: Record<string, unknown> | null;
  /** The detail the dispatch publishes on the operator's event bus; null: the event is not published there. */
  busDetail: Record<string, unknown> | null;
  /** The rendered `data`, fixed once so every delivery and retry sends the same body. */
  data: unknown;
  createdAt: string;
  dispatchedAt: string | null;
}

const events = defineEntity<WebhookEventRecord>()({
  name: 'webhookEvent',
  key: (e: Pick<WebhookEventRecord, 'userId' | 'id'>) => webhookEventKey(e.userId, e.id),
  nullable: ['extra', 'busDetail', 'data', 'dispatchedAt'],
});

export function outboxEventItem(
  e: Pick<WebhookEventRecord, 'id' | 'userId' | 'type' | 'subject' | 'createdAt'> & {
    extra?: Record<string, unknown>;
    busDetail?: Record<string, unknown>;
  },
): TransactItem {
  return {
    Put: {
      TableName: table(),
      // Not rendered nor dispatched yet: data and dispatchedAt are absent (null), as extra when there is none.
      Item: events.item(
        {
          id: e.id,
          userId: e.userId,
          type: e.type,
          subject: e.subject,
          extra: e.extra ?? null,
          busDetail: e.busDetail ?? null,
          data: null,
          createdAt: e.createdAt,
          dispatchedAt: null,
        },
        {
          ...webhookOutboxIndexKey(e.id, e.createdAt),
          ttl: Math.floor(Date.parse(e.createdAt) / 1000) + WEBHOOK_RETENTION_SECONDS,
        },
      ),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function getEvent(userId: string, eventId: string): Promise<WebhookEventRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: webhookEventKey(userId, eventId), ConsistentRead: true }),
  );
  return events.maybe(Item);
}

/** First writer wins: a second dispatcher keeps the body the first one stored. */
export const storeEventData = (userId: string, eventId: string, data: unknown): Promise<boolean> =>
  writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: webhookEventKey(userId, eventId),
        ...events.update({
          set: { data },
          condition: { expression: 'attribute_exists(pk) AND attribute_not_exists(#d)', names: { '#d': 'data' } },
        }),
      }),
    ),
  );

/** Leaves the outbox index: every delivery of the event exists. */
export const markDispatched = (userId: string, eventId: string, at: string): Promise<boolean> =>
  writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: webhookEventKey(userId, eventId),
        ...events.update({
          set: { dispatchedAt: at },
          remove: ['gsi3pk', 'gsi3sk'],
          condition: 'attribute_exists(pk)',
        }),
      }),
    ),
  );

/** Events written at or before `atIso` that are still in the outbox: a Query per shard of the sparse index. */
export async function listUndispatched(atIso: string): Promise<{ userId: string; eventId: string }[]> {
  const items = await queryDueShards(WEBHOOK_OUTBOX_SHARDS, webhookOutboxPartition, webhookIndexUpTo(atIso));
  return items.map(events.fromItem).map((e) => ({ userId: e.userId, eventId: e.id }));
}
